"""An A/B in one window: `python -m app` at PEER_DIR/base and at PEER_DIR/project side by side,
both servers on CPU 0 and both load clients (the socket mode of `ours_load.js`, G = 50) on CPU 1,
each with its own redis-server. Every 10 s window gives each side's server CPU per applied
command (its SPUBLISH count: one per append), measured over the same seconds, so a change of the
machine's speed moves both alike; the ratio of the two is the figure.

    PEER_DIR=... project/.venv/bin/python duo.py [socket|service] [WINDOWS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from typing import Any, cast

import redis
from common import BGIO, NO_LIMITS, PEER, PY, TICKS, free_port, redis_server, stop, wait_port

SIDES = {"base": f"{PEER}/base", "new": f"{PEER}/project"}
#: Games each client may play: fewer than the service caches (4,096), more than it plays.
POOL = "4000"


def main(mode: str, windows: int) -> None:
    started: list[subprocess.Popen[bytes]] = []
    sides: dict[str, tuple[subprocess.Popen[bytes], redis.Redis]] = {}
    try:
        for name, project in SIDES.items():
            redis_port, port = free_port(), free_port()
            started.append(redis_server(redis_port))
            env = {**os.environ, **NO_LIMITS, "PORT": str(port)}
            env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}"
            quiet = subprocess.DEVNULL
            server = subprocess.Popen(
                ["taskset", "-c", "0", PY, "-m", "app"],
                cwd=project,
                env=env,
                stdout=quiet,
                stderr=quiet,
            )
            started.append(server)
            wait_port(port, server)
            sides[name] = (server, redis.Redis(port=redis_port))
            load = ["node", f"{PEER}/ours_load.js", "--port", str(port), "--games", "50"]
            load += ["--warmup", "2", "--duration", str(10 * windows + 30), "--pool", POOL]
            client = subprocess.Popen(
                ["taskset", "-c", "1", *load, "--mode", mode],
                cwd=BGIO,
                stdout=quiet,
                stderr=subprocess.PIPE,
            )
            started.append(client)
            assert client.stderr is not None
            print(name, client.stderr.readline().decode().strip(), flush=True)
        time.sleep(4)
        per_command: dict[str, list[float]] = {name: [] for name in sides}
        for _ in range(windows):
            before = {name: taken(*side) for name, side in sides.items()}
            time.sleep(10)
            after = {name: taken(*side) for name, side in sides.items()}
            time.sleep(0.5)  # a client still playing answers more in half a second
            if any(taken(*side)[1] == after[name][1] for name, side in sides.items()):
                print("a client ran out of games in this window: it is not counted; stopping")
                break
            line = []
            for name in sides:
                (cpu0, n0), (cpu1, n1) = before[name], after[name]
                per_command[name].append(1e6 * (cpu1 - cpu0) / max(n1 - n0, 1))
                line.append(f"{name} {per_command[name][-1]:.1f} us ({n1 - n0} commands)")
            ratio = per_command["new"][-1] / per_command["base"][-1]
            print(" | ".join(line), f"| new/base {ratio:.3f}", flush=True)
        if not per_command["new"]:
            sys.exit("no window measured")
        ratios = [n / b for n, b in zip(per_command["new"], per_command["base"], strict=True)]
        medians = {name: round(statistics.median(v), 1) for name, v in per_command.items()}
        print(
            "medians (us per command)", medians, "median ratio", round(statistics.median(ratios), 3)
        )
    finally:
        for process in reversed(started):
            stop(process)


def taken(server: subprocess.Popen[bytes], client: redis.Redis) -> tuple[float, int]:
    """The server's CPU seconds so far, and the appends its redis-server has published."""
    with open(f"/proc/{server.pid}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    info = cast(dict[str, Any], client.info("commandstats"))  # (a sync client: a dict)
    stats = info.get("cmdstat_spublish", {})
    return (int(fields[11]) + int(fields[12])) / TICKS, int(stats.get("calls", 0))


if __name__ == "__main__":
    main(
        sys.argv[1] if len(sys.argv) > 1 else "socket", int(sys.argv[2]) if len(sys.argv) > 2 else 6
    )
