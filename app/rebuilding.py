"""The players' records made again from the games' logs, as `python -m app ratings rebuild`
runs it: the records' parts on one client, and helper processes that each read and fold a
share of the finished games (folding the logs is most of the work, and it is pure Python: one
process keeps one core busy; `docs/benchmarks.md`, *Ratings rebuilt from the logs*)."""

from __future__ import annotations

import asyncio
import functools
import multiprocessing
from concurrent.futures import Executor, ProcessPoolExecutor

import msgspec
from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.people.rating_store import RatingStore
from app.people.ratings import READ_AHEAD, Ratings
from app.people.results import GameResult
from app.store.connections import data_client
from app.store.events import EventStore
from app.store.lifecycle import Lifecycle
from app.store.pipe import Pipe

_results = msgspec.msgpack.Decoder(list[GameResult])
#: How long a rebuild waits for any answer of Redis: it runs beside the service, often on a
#: busy machine, where a slow answer is worth the wait and a failure costs the whole rebuild.
TIMEOUT_S = 30.0


def client_of(settings: Settings) -> Redis:
    """A rebuild's client: a connection for each of the games it reads at once (none ever
    waits for one), and a patient timeout."""
    return data_client(settings, READ_AHEAD + 2, read_timeout=TIMEOUT_S)


def ratings_of(client: Redis, extra_games: tuple[str, ...] = ()) -> Ratings:
    """The players' records on `client` (a bytes client), as the rebuild makes them: every
    game read as the service reads it, its archive included, the logs over one shared
    connection on a single Redis (`app.store.pipe`; close it with `service.store.close()`)."""
    catalogue = Catalogue.with_extras(extra_games)
    store = EventStore(client, pipe=Pipe.of(client))
    service = GameService(store, catalogue, lifecycle=Lifecycle(client))
    return Ratings(RatingStore(client), service)


async def rebuild(settings: Settings, processes: int = 1) -> int:
    """Every title's records again from the finished games in the Redis of `settings`; the
    logs read and folded by this process and `processes - 1` others. How many games."""
    client = client_of(settings)
    ratings = ratings_of(client, settings.extra_games)
    try:
        if processes <= 1:
            return await ratings.rebuild()
        spawn = multiprocessing.get_context("spawn")  # a fresh interpreter: no loop inherited
        with ProcessPoolExecutor(processes - 1, mp_context=spawn) as pool:
            helper = functools.partial(_elsewhere, pool, settings)
            return await ratings.rebuild(helpers=[helper] * (processes - 1))
    finally:
        await ratings.service.store.close()
        await client.aclose()


async def _elsewhere(pool: Executor, settings: Settings, games: list[str]) -> list[GameResult]:
    loop = asyncio.get_running_loop()
    return _results.decode(await loop.run_in_executor(pool, _share, settings, games))


def _share(settings: Settings, games: list[str]) -> bytes:
    """In a helper process: the results of `games`, encoded."""

    async def read() -> list[GameResult]:
        client = client_of(settings)
        ratings = ratings_of(client, settings.extra_games)
        try:
            return await ratings.results_of(games)
        finally:
            await ratings.service.store.close()
            await client.aclose()

    return msgspec.msgpack.encode(asyncio.run(read()))
