"""Where a command's server CPU goes: a py-spy profile of `python -m app` under the G=50 load,
over HTTP (`service`) or the seats' sockets (`socket`), summed by module and by step.

    PEER_DIR=... python profile_server.py socket|service
"""

from __future__ import annotations

import collections
import os
import subprocess
import sys
import time

from common import BGIO, NO_LIMITS, PEER, PROJECT, PY, free_port, redis_server, stop, wait_port

MODULES = [
    ("the rules (domain/)", ["domain/"]),
    (
        "the seat socket's wire: frames and the system calls that write them",
        ["app/wire/seatwire.py"],
    ),
    ("the service (app/, the rest)", ["app/"]),
    ("redis-py", ["redis/"]),
    ("Litestar", ["litestar/"]),
    ("uvicorn, httptools, websockets", ["uvicorn/", "httptools", "websockets/"]),
    (
        "asyncio and uvloop (the event loop, reading the sockets)",
        ["asyncio/", "uvloop", "runners.py"],
    ),
    ("msgspec", ["msgspec"]),
    ("prometheus_client", ["prometheus_client"]),
]
STEPS = [
    ("decide + fold (the rules)", [".decide (domain", "fold (domain"]),
    ("append (Lua script, one round trip)", ["EventStore.append"]),
    (
        "answer: project, redact, describe, encode",
        ["entries (app/api/projection", "Connection._acknowledge"],
    ),
    ("socket: push events to the other seat", ["Hub._appended", "Connection._push"]),
    (
        "socket: handshake, hello, backlog, subscribe",
        ["Connection._greet", "SeatWire._upgrade", "FrontDoor."],
    ),
    ("hub: news heard, other processes' events read", ["app/live/news.py", "Hub._pull"]),
    ("decoding the command", ["command_of", "decode_command", "json_body", "Connection._decoded"]),
    ("metrics", ["app/base/metrics.py"]),
]


def main(mode: str) -> None:
    redis_port, port = free_port(), free_port()
    redis = redis_server(redis_port)
    env = {
        **os.environ,
        **NO_LIMITS,
        "PORT": str(port),
        "REDIS_URL": f"redis://127.0.0.1:{redis_port}",
    }
    quiet = subprocess.DEVNULL
    server = subprocess.Popen(
        ["taskset", "-c", "0", PY, "-m", "app"], cwd=PROJECT, env=env, stdout=quiet, stderr=quiet
    )
    out = f"{PEER}/profile-{mode}.txt"
    try:
        wait_port(port, server)
        time.sleep(1)
        load = ["node", f"{PEER}/ours_load.js", "--port", str(port), "--games", "50"]
        load += ["--warmup", "2", "--duration", "12", "--pool", "2500", "--mode", mode]
        client = subprocess.Popen(
            ["taskset", "-c", "1", "timeout", "60", *load],
            cwd=BGIO,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
        )
        assert client.stderr is not None
        print(client.stderr.readline().decode().strip())  # "set up ...": the games exist
        time.sleep(3)  # into the measured window, past the warm-up
        spy = [f"{PROJECT}/.venv/bin/py-spy", "record", "-p", str(server.pid), "-d", "8"]
        spy += ["-r", "250", "-f", "raw", "-o", out, "--nonblocking"]
        subprocess.run(["taskset", "-c", "1", *spy], capture_output=True)
        print(client.communicate()[0].decode().strip())
    finally:
        stop(server)
        stop(redis)
    stacks: list[tuple[list[str], int]] = []
    with open(out) as raw:
        for line in raw:
            if line.strip():
                stack, count = line.rsplit(" ", 1)
                stacks.append((stack.split(";"), int(count)))
    total = sum(n for _, n in stacks)
    print(f"{mode}: {total} samples of the server's CPU")
    own: collections.Counter[str] = collections.Counter()
    for frames, n in stacks:
        leaf = frames[-1]
        name = next((m for m, keys in MODULES if any(k in leaf for k in keys)), "other")
        own[name] += n
    print("  self time by module:")
    for name, n in own.most_common():
        print(f"    {100 * n / total:5.1f}%  {name}")
    print("  time in each step (including what it calls):")
    for name, keys in STEPS:
        n = sum(c for frames, c in stacks if any(k in f for f in frames for k in keys))
        print(f"    {100 * n / total:5.1f}%  {name}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "socket")
