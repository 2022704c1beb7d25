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
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from common import (
    BGIO,
    NO_LIMITS,
    PEER,
    PROJECT,
    PY,
    cpu_seconds,
    free_port,
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


def busy() -> float:
    """CPU seconds the whole machine has been busy (all cores)."""
    with open("/proc/stat") as stat:
        f = [int(x) for x in stat.readline().split()[1:]]
    return (sum(f[:8]) - f[3] - f[4]) / os.sysconf("SC_CLK_TCK")


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
    return ["node", f"{PEER}/ours_load.js", "--mode", mode, "--pool", "900", *timing]


def run_one(config: str, games: int, rep: int) -> dict[str, object]:
    port, redis = free_port(), None
    command, cwd, extra = server_command(config, port)
    env = {**os.environ, **extra}
    if not config.startswith("bgio"):
        redis_port = free_port()
        redis = redis_server(redis_port)
        env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}"
    log = open(f"{PEER}/logs/{config}-{games}-{rep}.log", "w")  # noqa: SIM115
    server = subprocess.Popen(command, cwd=cwd, env=env, stdout=log, stderr=log)
    try:
        wait_port(port, server)
        time.sleep(1.0)
        c0, b0, t0 = cpu_seconds(server.pid), busy(), time.time()
        r0 = cpu_seconds(redis.pid) if redis else 0.0
        client = ["taskset", "-c", "1", "timeout", "120", *client_command(config, port, games)]
        done = subprocess.run(client, cwd=BGIO, capture_output=True, text=True)
        wall = time.time() - t0
        c1, b1 = cpu_seconds(server.pid), busy()
        r1 = cpu_seconds(redis.pid) if redis else 0.0
        lines = done.stdout.strip().splitlines()
        out: dict[str, object] = json.loads(lines[-1]) if lines else {}
        out.update(
            config=config,
            rep=rep,
            setup=done.stderr.strip()[-300:],
            rc=done.returncode,
            server_cpu=round((c1 - c0) / wall, 3),
            redis_cpu=round((r1 - r0) / wall, 3),
            machine_busy=round((b1 - b0) / wall, 2),
        )
        return out
    finally:
        stop(server)
        stop(redis)
        log.close()


def main() -> None:
    os.makedirs(f"{PEER}/logs", exist_ok=True)
    deadline = time.time() + float(os.environ.get("BUDGET_S", 1500))
    for rep in range(1, REPS + 1):
        for games in GS:
            for config in CONFIGS:
                if time.time() > deadline:
                    sys.exit("time budget reached")
                result = run_one(config, games, rep)
                print(json.dumps(result), flush=True)
                with open(OUT, "a") as out:
                    out.write(json.dumps(result) + "\n")


if __name__ == "__main__":
    main()
