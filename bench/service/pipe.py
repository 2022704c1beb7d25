"""The append's client: redis-py's pooled connections against the pipe (`app.store.pipe`).

G appenders (one game each, as G seats playing at once) append one event at a time to their
own game, for a few seconds each way, alternating; measured: appends per CPU-second of this
process (the client's cost, which is what the API process pays) and the median of each way's
rounds. The same Lua script and Redis (a private redis-server) either way.

    .venv/bin/python -m bench.service.pipe                  # G = 50, 6 rounds of 3 s each way
    .venv/bin/python -m bench.service.pipe --games 200 --rounds 4 --seconds 2
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
import uuid

import redis.asyncio

from app.base.config import Settings
from app.store.connections import pool
from app.store.events import EventStore
from app.store.pipe import Pipe
from bench.common import command_line, machine
from bench.servers import redis_server


async def one_round(store: EventStore, games: int, seconds: float) -> float:
    """Appends per CPU-second of this process over one round."""
    ids = [f"pipe-bench-{uuid.uuid4().hex}" for _ in range(games)]
    for game_id in ids:
        await store.create(game_id, {"game": "bench"}, [], 0)
    stop = time.monotonic() + seconds
    done = 0

    async def appender(game_id: str) -> None:
        nonlocal done
        version = 0
        while time.monotonic() < stop:
            await store.append(game_id, version, [b'{"type":"drawn"}'], at=1, by=0)
            version += 1
            done += 1

    cpu = time.process_time()
    await asyncio.gather(*(appender(g) for g in ids))
    return done / (time.process_time() - cpu)


async def main(games: int, rounds: int, seconds: float) -> None:
    with redis_server() as server:
        settings = Settings.from_env({"REDIS_URL": server.url})
        client = redis.asyncio.Redis(connection_pool=pool(settings, 64))
        pooled = EventStore(client)
        piped = EventStore(client, pipe=Pipe.of(client))
        results: dict[str, list[float]] = {"redis-py": [], "pipe": []}
        for _ in range(rounds):
            results["redis-py"].append(await one_round(pooled, games, seconds))
            results["pipe"].append(await one_round(piped, games, seconds))
        await piped.close()
        await client.aclose()
    print(f"`{command_line()}` ({machine()}); G = {games}, {rounds} rounds of {seconds} s")
    print("| client | appends per CPU-s (median) | each round |")
    print("|---|---|---|")
    for name, values in results.items():
        listed = ", ".join(f"{v:,.0f}" for v in values)
        print(f"| {name} | {statistics.median(values):,.0f} | {listed} |")
    ratio = statistics.median(results["pipe"]) / statistics.median(results["redis-py"])
    print(f"pipe / redis-py: {ratio:.2f}x")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--seconds", type=float, default=3.0)
    options = parser.parse_args()
    asyncio.run(main(options.games, options.rounds, options.seconds))
