"""What a socket's game costs to open, and what each of its commands costs: `python -m app` under
the socket mode of `ours_load.js` (G = 50), once playing each game's first command only and once
playing whole games, REPS times, alternating. Each run gives the server's CPU over the client's
measured window, the games whose sockets were opened in it and the commands answered in it; each
pair of runs is two equations, cpu = opening * games + command * commands, solved for the two.

The opening is what boardgame.io's load client never pays in a run: its lanes connect once and
play one never-ending match, where ours open two sockets (handshake, hello, subscription) for
every game of about 55 commands and close them when it ends.

    PEER_DIR=... project/.venv/bin/python opening.py [REPS]
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

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
    others,
    processes,
    redis_server,
    stop,
    wait_port,
)

WARMUP = 1
#: Each game's commands: the first only, or all of them.
PLAYS = {"first command": 1, "whole games": 0}
#: Games a client may play (fewer than the service caches, 4,096), and its measured window in
#: seconds: at one command a game the lanes go through 700-1,000 games a second.
POOLS = {1: 4000, 0: 2500}
DURATIONS = {1: 2, 0: 10}


def run(per_game: int) -> dict[str, Any]:
    load_before = machine_load()
    redis_port, port = free_port(), free_port()
    redis = redis_server(redis_port)
    env = {**os.environ, **NO_LIMITS, "PORT": str(port)}
    env["REDIS_URL"] = f"redis://127.0.0.1:{redis_port}"
    quiet = subprocess.DEVNULL
    server = subprocess.Popen(
        ["taskset", "-c", "0", PY, "-m", "app"], cwd=PROJECT, env=env, stdout=quiet, stderr=quiet
    )
    try:
        wait_port(port, server)
        time.sleep(1)
        load = ["node", f"{PEER}/ours_load.js", "--port", str(port), "--games", "50"]
        duration = DURATIONS[per_game]
        load += ["--warmup", str(WARMUP), "--duration", str(duration), "--mode", "socket"]
        load += ["--pool", str(POOLS[per_game])]
        load += ["--per-game", str(per_game)] if per_game else []
        client = subprocess.Popen(
            ["taskset", "-c", "1", *load], cwd=BGIO, stdout=subprocess.PIPE, stderr=subprocess.PIPE
        )
        assert client.stderr is not None
        client.stderr.readline()  # "set up ...": the client's window opens WARMUP s after it
        time.sleep(WARMUP)
        before, t0, cpu0 = processes(), time.monotonic(), cpu_seconds(server.pid)
        time.sleep(duration)
        after, t1, cpu1 = processes(), time.monotonic(), cpu_seconds(server.pid)
        out = json.loads(client.communicate()[0])
        ours = family([os.getpid(), server.pid, redis.pid, client.pid], before, after)
        used = others(before, after, t1 - t0, ours)
        return {
            "per_game": per_game,
            "cpu_s": round(cpu1 - cpu0, 3),
            "server_cpu": round((cpu1 - cpu0) / (t1 - t0), 3),
            "games": out["games_opened"],
            "commands": out["moves"],
            "errors": out["errors"],
            "exhausted": out["exhausted"],
            "load_before": load_before,
            "others_max": round(max((c for _, c in used), default=0.0), 3),
            "others": [f"{p.comm} {c:.3f}" for p, c in used[:3]],
        }
    finally:
        stop(server)
        stop(redis)


def main(reps: int) -> None:
    openings, commands, shares = [], [], []
    for rep in range(reps):
        first, whole = (run(PLAYS[name]) for name in PLAYS)
        for name, r in zip(PLAYS, (first, whole), strict=True):
            print(rep + 1, name, json.dumps(r), flush=True)
        # cpu = a * games + b * commands, for both runs
        (g1, c1, s1), (g2, c2, s2) = (
            (r["games"], r["commands"], r["cpu_s"]) for r in (first, whole)
        )
        det = g1 * c2 - g2 * c1
        a, b = (s1 * c2 - s2 * c1) / det, (g1 * s2 - g2 * s1) / det
        per_game = c2 / g2  # commands per whole game, as the window counts them
        share = a / (a + b * per_game)
        openings.append(a * 1e6)
        commands.append(b * 1e6)
        shares.append(share)
        print(
            f"  opening {a * 1e6:,.0f} us a game, {b * 1e6:,.0f} us a command; "
            f"{per_game:.1f} commands a game: the opening is {100 * share:.1f}% of its CPU",
            flush=True,
        )
    print(
        f"median of {reps}: opening {statistics.median(openings):,.0f} us a game (two sockets), "
        f"{statistics.median(commands):,.0f} us a command, "
        f"the opening {100 * statistics.median(shares):.1f}% of a whole game's CPU"
    )


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
