"""Replay from Redis: a complete 4-player Crazymino game read from its stream and folded.

Run from the project root:

    .venv/bin/python -m bench.service.replay            # full run (about 20 s)
    .venv/bin/python -m bench.service.replay --quick    # a short run

Complete games are played offline (seeded random legal commands, four seats) and stored through
`GameService.open` in a private redis-server, with the client the API uses (a
`BlockingConnectionPool`). Each case is timed once per call, round-robin over the games and the
cases, in rounds; the garbage collector stays on, as in the server. The baseline is a bare
XRANGE of the same stream by the same client.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from redis.asyncio import BlockingConnectionPool, Redis

from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import GameService, encode_event
from app.commands.table import Table
from app.store.events import EventStore, StoredEvent
from bench.common import percentile, table
from bench.servers import redis_server, report_header
from domain.crazymino.game import CRAZYMINO
from domain.game import Setup

PLAYERS = ("Ann", "Bob", "Cy", "Di")
_decoder = msgspec.json.Decoder(CRAZYMINO.event_type)


def complete_game(seed: int) -> tuple[Setup, list[Any]]:
    """A whole 4-player game's events, from seeded random legal play."""
    choose = random.Random(seed)
    setup = Setup(seed=seed, players=PLAYERS)
    events = CRAZYMINO.start(setup)
    state = CRAZYMINO.replay(events)
    while not CRAZYMINO.is_over(state):
        (seat,) = CRAZYMINO.to_act(state)
        new = CRAZYMINO.decide(state, seat, choose.choice(CRAZYMINO.legal(state, seat)))
        events += new
        state = CRAZYMINO.fold(state, new)
    return setup, events


Case = Callable[[str], Awaitable[object]]


def cases(
    service: GameService, redis: Redis, stored: dict[str, list[StoredEvent]]
) -> dict[str, Case]:
    store = service.store

    async def xrange(game_id: str) -> object:
        return await redis.xrange(f"game:{{{game_id}}}:events")

    async def read(game_id: str) -> object:
        return await store.read(game_id)

    async def read_fold(game_id: str) -> object:
        events = await store.read(game_id)
        return CRAZYMINO.replay(_decoder.decode(e.data) for e in events)

    async def load_fresh(game_id: str) -> object:
        table: Table = await service._load_fresh(game_id)
        return table

    async def fold_only(game_id: str) -> object:  # no Redis: decode and fold what was read
        return CRAZYMINO.replay(_decoder.decode(e.data) for e in stored[game_id])

    return {
        "bare XRANGE (baseline)": xrange,
        "EventStore.read": read,
        "EventStore.read + decode + CRAZYMINO.replay": read_fold,
        "GameService._load_fresh (meta + read + fold)": load_fresh,
        "decode + replay only (no Redis)": fold_only,
    }


async def measure(rounds: int, calls: int, games: int) -> tuple[dict[str, list[list[float]]], str]:
    with redis_server() as server:
        pool = BlockingConnectionPool.from_url(server.url, max_connections=64)
        redis = Redis(connection_pool=pool)  # as app/runtime.py opens the commands client
        service = GameService(EventStore(redis), Catalogue.with_extras())
        ids = []
        sizes = []
        for seed in range(games):
            setup, events = complete_game(3000 + seed)
            requests = [SeatRequest("human", name) for name in PLAYERS]
            encoded = [encode_event(e) for e in events]
            created, _ = await service.open(CRAZYMINO, setup, requests, encoded, service.clock())
            ids.append(created.id)
            sizes.append(len(events))
        stored = {game_id: await service.store.read(game_id) for game_id in ids}
        nbytes = [sum(len(e.data) for e in stored[g]) for g in ids]
        chosen = cases(service, redis, stored)
        times: dict[str, list[list[float]]] = {name: [] for name in chosen}
        for case in chosen.values():  # warm-up
            for game_id in ids:
                await case(game_id)
        for _ in range(rounds):
            samples: dict[str, list[float]] = {name: [] for name in chosen}
            for n in range(calls):
                game_id = ids[n % len(ids)]
                for name, case in chosen.items():
                    start = time.perf_counter()
                    await case(game_id)
                    samples[name].append(time.perf_counter() - start)
            for name in chosen:
                times[name].append(samples[name])
        await redis.aclose()
    about = (
        f"{games} complete 4-player games of {min(sizes)}–{max(sizes)} events "
        f"({statistics.mean(nbytes) / 1024:.1f} KiB of JSON on average)"
    )
    return times, about


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short round")
    args = parser.parse_args()
    rounds, calls, games = (1, 40, 4) if args.quick else (3, 400, 8)
    times, about = asyncio.run(measure(rounds, calls, games))
    baseline = statistics.median(x for r in times["bare XRANGE (baseline)"] for x in r)
    rows = []
    for name, per_round in times.items():
        pooled = [x for r in per_round for x in r]
        median = statistics.median(pooled)
        rows.append(
            [
                name,
                f"{median * 1000:.2f}",
                ", ".join(f"{statistics.median(r) * 1000:.2f}" for r in per_round),
                f"{percentile(pooled, 90) * 1000:.2f}",
                f"{percentile(pooled, 99) * 1000:.2f}",
                f"{median / baseline:.1f}×",
            ]
        )
    target = statistics.median(
        x for r in times["GameService._load_fresh (meta + read + fold)"] for x in r
    )
    verdict = "holds" if target <= 0.005 else "MISSED"
    header = ["case", "median ms", "median of each round", "p90 ms", "p99 ms", "× XRANGE"]
    print(
        "\n".join(
            [
                report_header("Replay from Redis"),
                f"{about}; {rounds} round(s) of {calls} calls of each case, round-robin over "
                "the games, one private redis-server, in one process.",
                "",
                table(header, rows),
                "",
                f"Target ≤ 5 ms median for a full replay (GameService._load_fresh): "
                f"{target * 1000:.2f} ms, {verdict}.",
            ]
        )
    )


if __name__ == "__main__":
    main()
