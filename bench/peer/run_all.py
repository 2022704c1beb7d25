"""Runs every configuration, interleaved, REPS times for each G; the server pinned to CPU 0, the
load client and redis-server to CPU 1. One JSON line per run goes to PEER_DIR/results.jsonl.
Only processes started here are signalled.

Configurations (CONFIGS, comma separated):
- `bgio-mem`: boardgame.io 0.50.2's server, in-memory storage, socket.io (`bgio/load.js`).
- `ours-http`: `python -m app` (as the README serves it) on a real Redis; commands over HTTP/1.1.
- `ours-socket`: the same server; commands over each seat's WebSocket (`ours_load.js --mode
  socket`), every seat's events pushed to it.
- `ours-before`: the service as it was before (BEFORE_DIR, a checkout of an older commit, run
  with this project's .venv) as the shared peer scripts ran it: uvicorn with h11 and asyncio's
  loop, an access-log line per request.
- `ours-http@base`, `ours-socket@base`: as `ours-http` and `ours-socket`, served from BASE_DIR
  (a checkout of another commit, run with this project's .venv): an A/B of a change.

The measured window is the client's: it opens WARMUP seconds after the client says it has set up
its games and lasts DURATION. Each run records the machine's load before it, the server's CPU
over the window and every other process's; it is invalid (`valid: false`, `invalid: [reasons]`)
when another process used more than OTHERS_MAX of a core (0.05), or the host took as much
from the virtual CPUs (steal), when the server used less than
SATURATED of its core (0.9: the client was measured, not the server), or when the client failed,
reported errors or ran out of games.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
import time
from typing import IO

from common import (
    BGIO,
    NO_LIMITS,
    PEER,
    PROJECT,
    PY,
    Proc,
    cpu_seconds,
    family,
    free_port,
    machine_load,
    machine_speed,
    machine_times,
    others,
    processes,
    redis_server,
    stop,
    wait_port,
)

REPS = int(os.environ.get("REPS", 3))
GS = [int(g) for g in os.environ.get("GS", "50").split(",")]
CONFIGS = os.environ.get("CONFIGS", "bgio-mem,ours-http,ours-socket").split(",")
WARMUP, DURATION = os.environ.get("WARMUP", "3"), os.environ.get("DURATION", "10")
OUT = os.environ.get("OUT", f"{PEER}/results.jsonl")
BEFORE = os.environ.get("BEFORE_DIR", f"{PEER}/before")
BASE = os.environ.get("BASE_DIR", f"{PEER}/base")
OTHERS_MAX = float(os.environ.get("OTHERS_MAX", 0.05))
SATURATED = float(os.environ.get("SATURATED", 0.9))
#: Games each lane of our client may play: more than a window at full speed takes.
POOL = os.environ.get("POOL", "2500")


def server_command(config: str, port: int) -> tuple[list[str], str, dict[str, str]]:
    pin = ["taskset", "-c", "0"]
    if config.startswith("bgio"):
        return [*pin, "node", "server.js"], BGIO, {"NODE_ENV": "production", "PORT": str(port)}
    env = {**NO_LIMITS, "PORT": str(port), "HOST": "127.0.0.1"}
    if config == "ours-before":
        uvicorn = [PY, "-m", "uvicorn", "--factory", "app.main:create_app", "--port", str(port)]
        return [*pin, *uvicorn, "--loop", "asyncio", "--http", "h11"], BEFORE, env
    return [*pin, PY, "-m", "app"], BASE if config.endswith("@base") else PROJECT, env


def client_command(config: str, port: int, games: int) -> list[str]:
    timing = ["--port", str(port), "--games", str(games), "--warmup", WARMUP]
    timing += ["--duration", DURATION]
    if config.startswith("bgio"):
        return ["node", "load.js", *timing]
    mode = "socket" if config.startswith("ours-socket") else "service"
    return ["node", f"{PEER}/ours_load.js", "--mode", mode, "--pool", POOL, *timing]


def read_stderr(stream: IO[str], lines: list[str], set_up: threading.Event) -> None:
    """Keeps the client's stderr; `set_up` is set when it says it has set up (its window opens
    WARMUP seconds later), or when it ends without saying so."""
    for line in stream:
        lines.append(line)
        if line.startswith("set up"):
            set_up.set()
    set_up.set()


def pause(client: subprocess.Popen[str], until: float) -> None:
    """Sleeps until `until`, or until the client has ended."""
    while client.poll() is None and time.time() < until:
        time.sleep(min(0.2, max(until - time.time(), 0.0)))


def verdict(run: dict[str, object], server_cpu: float, used: list[tuple[Proc, float]]) -> list[str]:
    """Why a run does not measure the server alone at full load, one reason each, as
    `kind: detail` (summarize.py counts them by kind); none when it does."""
    reasons = []
    if run["rc"] != 0 or "moves_per_s" not in run:
        result = "" if "moves_per_s" in run else ", no result"
        reasons.append(f"client failed: rc {run['rc']}{result}")
    elif run.get("errors"):
        reasons.append(f"client errors: {run['errors']} {run.get('codes', '')}")
    if run.get("exhausted"):
        reasons.append("client ran out of games: the pool was too small")
    if server_cpu < SATURATED:
        reasons.append(f"server not saturated: {server_cpu:.3f} of a core")
    steal = run.get("steal", 0.0)
    if isinstance(steal, float) and steal > OTHERS_MAX:
        reasons.append(f"host took the CPU: steal {steal} of a core")
    busy = [f"{p.comm} ({p.pid}) {cores:.3f}" for p, cores in used if cores > OTHERS_MAX]
    if busy:
        more = f" and {len(busy) - 3} more" if len(busy) > 3 else ""
        reasons.append(f"busy other process: {', '.join(busy[:3])} core{more}")
    return reasons


def window(
    server: subprocess.Popen[bytes],
    redis: subprocess.Popen[bytes] | None,
    client: subprocess.Popen[str],
) -> tuple[dict[str, object], float, list[tuple[Proc, float]]]:
    """The client's measured window: the server's, redis-server's and the machine's CPU over it,
    and the other processes' (all but this harness and what it started); the server's share of
    its core, and the cores each other process used, most first."""
    pids = [server.pid, *([redis.pid] if redis else [])]  # with no redis-server, its CPU is 0
    each0, t0, (b0, _, s0) = processes(), time.time(), machine_times()
    cpu0 = [cpu_seconds(pid) for pid in pids] + [0.0]
    pause(client, t0 + float(DURATION))
    each1, wall, (b1, _, s1) = processes(), time.time() - t0, machine_times()
    cpu1 = [cpu_seconds(pid) for pid in pids] + [0.0]
    used = others(each0, each1, wall, family([os.getpid(), client.pid, *pids], each0, each1))
    server_cpu = round((cpu1[0] - cpu0[0]) / wall, 3)
    fields: dict[str, object] = {
        "server_cpu": server_cpu,
        "redis_cpu": round((cpu1[1] - cpu0[1]) / wall, 3),
        "machine_busy": round((b1 - b0) / wall, 2),
        "steal": round((s1 - s0) / wall, 3),
        "window_s": round(wall, 2),
        "others": [
            {"pid": p.pid, "comm": p.comm, "cmdline": p.cmdline, "cores": round(cores, 3)}
            for p, cores in used[:5]
            if cores > 0.01
        ],
        "others_max": round(used[0][1], 3) if used else 0.0,
        "others_total": round(sum(cores for _, cores in used), 3),
    }
    return fields, server_cpu, used


def run_one(config: str, games: int, rep: int) -> dict[str, object]:
    started = time.time()
    load_before = machine_load()  # before this run's processes start: sleeps 1 s
    load_before["loop_ms"] = machine_speed()
    port, redis = free_port(), None
    command, cwd, extra = server_command(config, port)
    env = {**os.environ, **extra}
    if not config.startswith("bgio"):
        redis_port = free_port()
        redis = redis_server(redis_port)
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}"
    log = open(f"{PEER}/logs/{config}-{games}-{rep}.log", "w")  # noqa: SIM115
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=log)
    client = None
    try:
        wait_port(port, server)
        time.sleep(1.0)
        argv = ["taskset", "-c", "1", "timeout", "120", *client_command(config, port, games)]
        client = subprocess.Popen(
            argv, cwd=BGIO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        assert client.stdout is not None and client.stderr is not None
        stderr: list[str] = []
        set_up = threading.Event()
        reader = threading.Thread(target=read_stderr, args=(client.stderr, stderr, set_up))
        reader.start()
        set_up.wait(130)
        pause(client, time.time() + float(WARMUP))
        measured, server_cpu, used = window(server, redis, client)
        lines = client.stdout.read().strip().splitlines()
        client.wait()
        reader.join()
        try:
            out: dict[str, object] = json.loads(lines[-1]) if lines else {}
        except ValueError:
            out = {}
        out.update(config=config, games=games, rep=rep, started=round(started, 1))
        out.update(setup="".join(stderr).strip()[-300:], rc=client.returncode)
        out.update(measured, load_before=load_before)
        reasons = verdict(out, server_cpu, used)
        out.update(valid=not reasons, invalid=reasons)
        return out
    finally:
        stop(client)
        stop(server)
        stop(redis)
        log.close()


def main() -> None:
    os.makedirs(f"{PEER}/logs", exist_ok=True)
    head = subprocess.run(
        ["git", "-C", PROJECT, "rev-parse", "--short", "HEAD"], capture_output=True, text=True
    )
    session = {"session": int(time.time()), "commit": head.stdout.strip() or "unknown"}
    deadline = time.time() + float(os.environ.get("BUDGET_S", 1500))
    for rep in range(1, REPS + 1):
        for games in GS:
            for config in CONFIGS:
                if time.time() > deadline:
                    sys.exit("time budget reached")
                result = {**run_one(config, games, rep), **session}
                print(json.dumps(result), flush=True)
                with open(OUT, "a") as out:
                    out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
