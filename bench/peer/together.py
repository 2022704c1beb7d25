"""boardgame.io and this service served at once: both servers on CPU 0, both load clients and our
redis-server on CPU 1, G = 50 each. Each window starts both clients together (fresh games, the
same warm-up) and gives each server's moves per CPU-second over the seconds both windows share,
so a change of the machine's speed reaches both alike; their ratio is the figure. When the ratio
holds while both figures move, the swings between runs of `run_all.py` come with the machine,
not with either server.

    PEER_DIR=... project/.venv/bin/python together.py [socket|service] [WINDOWS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import threading
import time

from common import (
    BGIO,
    NO_LIMITS,
    PEER,
    PROJECT,
    PY,
    cpu_seconds,
    family,
    free_port,
    machine_load,
    machine_times,
    others,
    processes,
    redis_server,
    stop,
    wait_port,
)

WARMUP, DURATION = 3.0, 10.0
#: Games our client may play in one window: more than a window takes at half a core.
POOL = "1500"


def main(mode: str, windows: int) -> None:
    started: list[subprocess.Popen[bytes]] = []
    try:
        redis_port, ours_port, bgio_port = free_port(), free_port(), free_port()
        print(json.dumps({"load_before": machine_load()}), flush=True)
        started.append(redis_server(redis_port))
        env = {**os.environ, **NO_LIMITS, "PORT": str(ours_port), "HOST": "127.0.0.1"}
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}"
        quiet = subprocess.DEVNULL
        ours = subprocess.Popen(
            ["taskset", "-c", "0", PY, "-m", "app"],
            cwd=PROJECT,
            env=env,
            stdout=quiet,
            stderr=quiet,
        )
        started.append(ours)
        bgio_env = {**os.environ, "NODE_ENV": "production", "PORT": str(bgio_port)}
        bgio = subprocess.Popen(
            ["taskset", "-c", "0", "node", "server.js"],
            cwd=BGIO,
            env=bgio_env,
            stdout=quiet,
            stderr=quiet,
        )
        started.append(bgio)
        wait_port(ours_port, ours)
        wait_port(bgio_port, bgio)
        time.sleep(1.0)
        ratios = []
        for window in range(1, windows + 1):
            figures = one_window(mode, ours, ours_port, bgio, bgio_port, started)
            ratio = figures["ours"] / figures["bgio"]
            ratios.append(ratio)
            print(json.dumps({"window": window, **figures, "ratio": round(ratio, 3)}), flush=True)
        print("median ratio", round(statistics.median(ratios), 3), "range", end=" ")
        print(round(min(ratios), 3), round(max(ratios), 3))
    finally:
        for process in reversed(started):
            stop(process)


def one_window(
    mode: str,
    ours: subprocess.Popen[bytes],
    ours_port: int,
    bgio: subprocess.Popen[bytes],
    bgio_port: int,
    started: list[subprocess.Popen[bytes]],
) -> dict[str, float]:
    """Both clients once; each server's moves per CPU-s over the seconds both windows share,
    the host's steal and the most any other process used over them (cores)."""
    timing = ["--games", "50", "--warmup", str(WARMUP), "--duration", str(DURATION)]
    ours_load = ["node", f"{PEER}/ours_load.js", "--port", str(ours_port), *timing]
    ours_load += ["--pool", POOL, "--mode", mode]
    bgio_load = ["node", "load.js", "--port", str(bgio_port), *timing]
    clients = {
        name: subprocess.Popen(
            ["taskset", "-c", "1", *argv],
            cwd=BGIO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name, argv in (("ours", ours_load), ("bgio", bgio_load))
    }
    set_up: dict[str, float] = {}

    def wait_set_up(name: str) -> None:
        stderr = clients[name].stderr
        assert stderr is not None
        for line in stderr:
            if line.startswith("set up"):
                set_up[name] = time.time()
                break

    readers = [threading.Thread(target=wait_set_up, args=(name,)) for name in clients]
    for reader in readers:
        reader.start()
    for reader in readers:
        reader.join(60)
    if len(set_up) < 2:
        raise SystemExit(f"a client did not set up: {sorted(set_up)}")
    opens = max(set_up.values()) + WARMUP
    closes = min(set_up.values()) + WARMUP + DURATION
    time.sleep(max(0.0, opens - time.time()))
    each0, (_, _, steal0) = processes(), machine_times()
    cpu0 = {"ours": cpu_seconds(ours.pid), "bgio": cpu_seconds(bgio.pid)}
    time.sleep(max(0.0, closes - time.time()))
    cpu1 = {"ours": cpu_seconds(ours.pid), "bgio": cpu_seconds(bgio.pid)}
    each1, (_, _, steal1) = processes(), machine_times()
    shared = closes - opens
    pids = [os.getpid(), *(p.pid for p in started), *(c.pid for c in clients.values())]
    used = others(each0, each1, shared, family(pids, each0, each1))
    figures: dict[str, float] = {"shared_s": round(shared, 2)}
    figures["steal"] = round((steal1 - steal0) / shared, 3)
    figures["others_max"] = round(used[0][1], 3) if used else 0.0
    for name, client in clients.items():
        out, _ = client.communicate(timeout=60)
        result = json.loads(out.strip().splitlines()[-1])
        if result.get("errors") or result.get("exhausted"):
            raise SystemExit(f"{name}'s client reported errors or ran out of games: {result}")
        cores = (cpu1[name] - cpu0[name]) / shared
        figures[f"{name}_cores"] = round(cores, 3)
        figures[f"{name}_moves_per_s"] = result["moves_per_s"]
        figures[name] = round(result["moves_per_s"] / cores, 1)
    return figures


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "socket",
        int(sys.argv[2]) if len(sys.argv) > 2 else 12,
    )
