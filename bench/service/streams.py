"""Live streams at scale: 10,000 games watched by 20,000 subscribers in one process.

Run from the project root (a private redis-server on a free port, or --url, a Redis of its own:
it is flushed):

    .venv/bin/python -m bench.service.streams                       # 10,000 games, 2 each, 30 s
    .venv/bin/python -m bench.service.streams --games 1000 --seconds 10

This process holds the hub (`app.live.hub`, as an API process does) and 2 in-process subscribers per
game (consumers of the hub's queues: the HTTP/SSE layer above it costs about 30 us of CPU per
delivery, docs/benchmarks.md); a separate writer process plays the games' commands through the
command service, round-robin at `--rate` commands a second (one every 10 s per game at
10,000 games), once it has every game in its cache. A delivery's latency runs from the event's
time (the service's clock when it decided, ms) to the moment a subscriber takes it from its
queue. CPU is this process's CPU time over the writer's run; connections are every client
connection Redis has at the end (this process's, the writer has gone).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import multiprocessing
import os
import time
from typing import Any

import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import wall_ms
from app.live.hub import Delivery, Hub, Subscription
from app.store.events import EventStore
from bench.common import command_line, percentile
from bench.service.ai_turns import redis_url


async def create_games(url: str, games: int) -> list[str]:
    client = redis.asyncio.Redis.from_url(url, max_connections=64)
    service = GameService(EventStore(client), Catalogue.with_extras())
    seats = [SeatRequest("human"), SeatRequest("human")]
    ids: list[str] = []
    for start in range(0, games, 200):
        made = await asyncio.gather(
            *(
                service.create(CreateGame("crazymino", seats, seed=s))
                for s in range(start, min(games, start + 200))
            )
        )
        ids += [table.id for table, _ in made]
    await client.aclose()
    return ids


def writer(url: str, ids: list[str], rate: float, seconds: float, warm: Any) -> None:
    asyncio.run(_write(url, ids, rate, seconds, warm))


async def _write(url: str, ids: list[str], rate: float, seconds: float, warm: Any) -> None:
    client = redis.asyncio.Redis.from_url(url, max_connections=64)
    # A cache that holds every game: GameService.load fails (KeyError) when a game is
    # evicted from a smaller cache while its load awaits Redis.
    service = GameService(EventStore(client), Catalogue.with_extras(), cache_size=2 * len(ids))
    for start_at in range(0, len(ids), 200):  # every game in its cache first, as an API has
        await asyncio.gather(*(service.load(g) for g in ids[start_at : start_at + 200]))
    warm.set()
    start = time.monotonic()
    gate = asyncio.Semaphore(48)  # fewer commands in flight than the client's connections
    sent = 0
    pending: set[asyncio.Task[object]] = set()
    while (now := time.monotonic() - start) < seconds:
        due = int(now * rate)
        while sent < due:
            game_id = ids[sent % len(ids)]
            sent += 1
            task = asyncio.create_task(_move(service, game_id, gate))
            pending.add(task)
            task.add_done_callback(pending.discard)
        await asyncio.sleep(0.005)
    await asyncio.gather(*pending, return_exceptions=True)
    await client.aclose()


async def _move(service: GameService, game_id: str, gate: asyncio.Semaphore) -> object:
    async with gate:
        table = await service.load(game_id)
        if table.over:
            return None
        seat = next(iter(table.game.to_act(table.state)))
        command = table.game.legal(table.state, seat, service.clock())[0]
        return await service.execute(game_id, seat, command)


async def watch(url: str, ids: list[str], per_game: int, rate: float, seconds: float) -> str:
    client = redis.asyncio.Redis.from_url(url, max_connections=64)
    service = GameService(EventStore(client), Catalogue.with_extras())
    hub = Hub(service, EventStore(client))
    await hub.start()
    latencies: list[int] = []
    subscriptions: list[Subscription] = []
    for game_id in ids:
        table = await service.load(game_id)
        subscriptions += [hub.subscribe(table) for _ in range(per_game)]

    async def consume(subscription: Subscription) -> None:
        while (delivery := await subscription.queue.get()) is not None:
            if isinstance(delivery, Delivery):
                latencies.append(wall_ms() - delivery.entry.at)

    consumers = [asyncio.create_task(consume(s)) for s in subscriptions]
    await asyncio.sleep(2)  # every subscription confirmed
    gc.collect()
    gc.freeze()  # as the API does after start-up (app.main)
    context = multiprocessing.get_context("spawn")
    warm = context.Event()
    process = context.Process(target=writer, args=(url, ids, rate, seconds, warm))
    process.start()
    loop = asyncio.get_running_loop()
    await loop.run_in_executor(None, warm.wait)
    cpu, wall = time.process_time(), time.monotonic()
    await loop.run_in_executor(None, process.join)
    await asyncio.sleep(1)  # the last deliveries
    cpu, wall = time.process_time() - cpu, time.monotonic() - wall
    clients = await client.client_list()
    mine = sum(1 for c in clients if c.get("name", "") == "" and c.get("cmd") != "client|list")
    dropped = sum(s.dropped for s in subscriptions)
    await hub.close()
    for task in consumers:
        task.cancel()
    await client.aclose()
    return (
        f"| {len(ids)} | {len(subscriptions)} | {rate:.0f}/s | {len(latencies)} | "
        f"{percentile(latencies, 50)} ms | {percentile(latencies, 99)} ms | "
        f"{100 * cpu / wall:.0f}% | {mine} | {dropped} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10_000)
    parser.add_argument("--subscribers-per-game", type=int, default=2)
    parser.add_argument("--rate", type=float, default=0, help="commands/s (0: games / 10)")
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--url", help="a Redis of its own (flushed)")
    args = parser.parse_args(argv)
    rate = args.rate or args.games / 10
    with redis_url(args.url) as url:
        ids = asyncio.run(create_games(url, args.games))
        row = asyncio.run(watch(url, ids, args.subscribers_per_game, rate, args.seconds))
        print(command_line(), f"(cores: {os.cpu_count()})")
        print(
            "| games | subscribers | commands | deliveries | p50 | p99 | CPU | "
            "Redis connections (all clients) | dropped |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |")
        print(row)


if __name__ == "__main__":
    main()
