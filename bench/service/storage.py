"""Bytes per finished game in Redis, before and after the retention job archives it.

Run from the project root:

    .venv/bin/python -m bench.service.storage            # 20 games
    .venv/bin/python -m bench.service.storage --games 5  # fewer

Seeded 4-player Crazymino games are played to their end through the command service (every
command with an Idempotency-Key, as a careful client sends them) in a private redis-server.
Each game's cost is the sum of Redis's `MEMORY USAGE` of its keys; the idempotency keys are
counted apart (they expire a day after their command, before a game is archived). Then the
retention job runs a day later and the games are measured again.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics

from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.machine.jobs import DAY_MS, retention
from app.store.events import EventStore
from app.store.lifecycle import Lifecycle
from bench.common import table
from bench.servers import redis_server


async def play(service: GameService, seed: int) -> tuple[str, int]:
    created, _ = await service.create(
        CreateGame("crazymino", [SeatRequest("human")] * 4, seed=seed)
    )
    game, rng = created, random.Random(seed)
    while not game.over:
        (seat,) = game.game.to_act(game.state)
        command = rng.choice(game.game.legal(game.state, seat, 0))
        game, _ = await service.execute(game.id, seat, command, idempotency_key=f"k{game.version}")
    return game.id, game.version


async def cost(redis: Redis, game_id: str) -> tuple[int, int]:
    """(bytes of the game's keys but its idempotency keys, bytes of its idempotency keys)."""
    kept = keys = 0
    async for key in redis.scan_iter(match=f"game:{{{game_id}}}:*"):
        size = int(await redis.memory_usage(key) or 0)
        if b":cmd:" in key:
            keys += size
        else:
            kept += size
    return kept, keys


async def measure(games: int) -> None:
    with redis_server() as server:
        redis = Redis.from_url(server.url)
        service = GameService(
            EventStore(redis), Catalogue.with_extras(), lifecycle=Lifecycle(redis)
        )
        played = [await play(service, 5000 + seed) for seed in range(games)]
        before = [await cost(redis, g) for g, _ in played]
        later = GameService(service.store, service.catalogue, lifecycle=service.lifecycle)
        later.clock = lambda: service.clock() + 2 * DAY_MS
        await retention({"service": later, "settings": Settings()})
        after = [(await cost(redis, g))[0] for g, _ in played]
        await redis.aclose()
    events = statistics.mean(v for _, v in played)
    rows = [
        ["finished, before archiving", f"{statistics.mean(k for k, _ in before):,.0f}", "1.00×"],
        ["its idempotency keys (for a day)", f"{statistics.mean(i for _, i in before):,.0f}", "—"],
        [
            "archived",
            f"{statistics.mean(after):,.0f}",
            f"{statistics.mean(after) / statistics.mean(k for k, _ in before):.2f}×",
        ],
    ]
    print(f"{games} four-player Crazymino games of {events:.0f} events on average; MEMORY USAGE")
    print()
    print(table(["what", "bytes per game (mean)", "× before"], rows))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    asyncio.run(measure(parser.parse_args().games))


if __name__ == "__main__":
    main()
