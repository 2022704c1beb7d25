"""The resources of one process, opened in the app's lifespan (or the worker's start-up).

Embedded (no REDIS_URL): one in-process fakeredis server behind every client, and the arq
worker as a task of this process. Otherwise: clients of the given Redis, every call bounded by
`REDIS_TIMEOUT_SECONDS`, and the worker runs in-process only when asked (WORKER_IN_PROCESS=1).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any, NamedTuple

import arq.worker
import fakeredis
import fakeredis.aioredis
from arq.connections import ArqRedis
from redis.asyncio import Redis

from app.api.guard import Guard
from app.api.tickets import Tickets
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.commands.table import Table
from app.live.hub import Hub
from app.machine.driver import Driver
from app.machine.due import DueIndex
from app.machine.jobs import play_ai_turn
from app.machine.lanes import Lanes
from app.machine.queues import QueueSet
from app.machine.scheduler import ArqScheduler
from app.machine.worker import serve
from app.people.players import People
from app.people.rating_store import RatingStore
from app.people.ratings import Ratings
from app.people.starting import Starts
from app.people.tables import Tables
from app.store.chat import ChatLog
from app.store.connections import data_client, node_url, pool
from app.store.events import EventStore
from app.store.lifecycle import Lifecycle
from app.store.pipe import Pipe

log = logging.getLogger("app")


class Machine(NamedTuple):
    """A process's command service and its machine work: what the jobs' context holds."""

    service: GameService
    scheduler: ArqScheduler
    #: The AI turns played in this process (a process that runs a worker), or None.
    driver: Driver | None
    #: Where finished games are recorded for their players.
    records: Ratings
    #: Where the open tables' starts left midway are finished.
    starts: Starts

    def context(self, settings: Settings) -> dict[str, Any]:
        """The jobs' context (arq's `ctx`)."""
        return {
            "service": self.service,
            "scheduler": self.scheduler,
            "settings": settings,
            "records": self.records,
            "starts": self.starts,
            "lanes": self.driver.lanes if self.driver is not None else None,
        }


def machine_service(
    settings: Settings,
    commands: Redis,
    pools: list[ArqRedis],
    catalogue: Catalogue | None = None,
    *,
    drive: bool = False,
) -> Machine:
    """A command service on `commands` whose machine work goes to arq, on the queue of each
    game (`pools[n]` holds queue n); with `drive`, AI turns that follow one played here are
    played here (a process that runs a worker)."""
    queues = QueueSet(settings.queues)
    indexes = [DueIndex(commands, queues.due_key(n)) for n in range(queues.count)]
    think_ms = round(settings.think_seconds * 1000)
    driver = None
    if drive:

        async def play(table: Table, seat: int, key: str) -> str:
            return await play_ai_turn(
                service, table.id, seat, key, table, think_ms=think_ms, driven=True
            )

        lanes = Lanes(settings.machine_slots)
        driver = Driver(play, lambda: service.clock(), think_ms, lanes=lanes)
    scheduler = ArqScheduler(queues, pools, indexes, settings.think_seconds, driver=driver)
    catalogue = catalogue or Catalogue.with_extras(settings.extra_games)
    store = EventStore(commands, pipe=Pipe.of(commands))
    lifecycle = Lifecycle(commands, pipe=store.pipe)
    service = GameService(store, catalogue, scheduler, lifecycle=lifecycle)
    records = Ratings(RatingStore(commands), service)
    return Machine(service, scheduler, driver, records, Starts(Tables(commands), service))


async def queue_pools(settings: Settings, commands: Redis) -> list[ArqRedis]:
    """A client of each queue's server (of the cluster node that owns its slot); queues on
    one server share their client."""
    queues = QueueSet(settings.queues)
    by_url: dict[str, ArqRedis] = {}
    pools = []
    for number in range(queues.count):
        url = await node_url(commands, queues.name(number))
        if url not in by_url:
            by_url[url] = ArqRedis(pool_or_conn=pool(settings, 32, url=url))
        pools.append(by_url[url])
    return pools


def queue_connector(
    settings: Settings, commands: Redis | None = None, server: Any = None
) -> Callable[[int], Awaitable[ArqRedis]]:
    """Opens a new arq pool of queue `n` each call: on the fake server, or on the server that
    holds the queue (asked of `commands` each time: a cluster's slots may have moved)."""
    queues = QueueSet(settings.queues)

    async def connect(number: int) -> ArqRedis:
        if server is not None:
            return ArqRedis(
                pool_or_conn=fakeredis.aioredis.FakeRedis(server=server).connection_pool
            )
        assert commands is not None
        url = await node_url(commands, queues.name(number))
        queue = ArqRedis(pool_or_conn=pool(settings, 16, url=url))
        await queue.ping()
        return queue

    return connect


class Runtime(NamedTuple):
    """What a process serves with."""

    service: GameService
    hub: Hub
    guard: Guard
    tickets: Tickets
    people: People


async def _quiet_redis_info(redis: Any, log_func: Any) -> None:
    """fakeredis has no INFO; arq's worker calls it at start-up."""


@contextlib.asynccontextmanager
async def running(settings: Settings, catalogue: Catalogue | None = None) -> AsyncIterator[Runtime]:
    """Open the clients, the service, the hub and (when asked) the worker; close them after."""
    server = None
    if settings.embedded:
        server = fakeredis.FakeServer()
        commands: Redis = fakeredis.aioredis.FakeRedis(server=server)
        waits: Redis = fakeredis.aioredis.FakeRedis(server=server)
        queue = ArqRedis(pool_or_conn=fakeredis.aioredis.FakeRedis(server=server).connection_pool)
        pools = [queue] * settings.queues
        log.info("embedded mode: fakeredis and the worker in this process (REDIS_URL unset)")
    else:
        assert settings.redis_url is not None
        commands = data_client(settings, 64)
        # The hub's reads (and its listeners' settings): a client of its own.
        waits = data_client(settings, 64)
        pools = await queue_pools(settings, commands)
        where = "Redis Cluster" if settings.cluster else "Redis"
        log.info("using %s at %s, %d queues", where, settings.redis_url.split("@")[-1], len(pools))
    machine = machine_service(settings, commands, pools, catalogue, drive=settings.runs_worker)
    service = machine.service
    hub = Hub(
        service,
        EventStore(waits, pipe=service.store.pipe),
        chat=ChatLog(waits, kept=settings.chat_kept, pipe=service.store.pipe),
        max_subscribers=settings.streams_max,
        retry_after=settings.retry_after,
        recheck_seconds=settings.socket_recheck_seconds,
    )
    await hub.start()
    worker_task = None
    if settings.runs_worker:
        if settings.embedded:
            arq.worker.log_redis_info = _quiet_redis_info  # type: ignore[attr-defined]
        worker_task = asyncio.create_task(
            serve(
                settings,
                QueueSet(settings.queues),
                queue_connector(settings, commands, server),
                machine.context(settings),
                commands,
            ),
            name="arq-worker",
        )
        worker_task.add_done_callback(_report_end)
        log.info("worker running in this process")
    try:
        guard = Guard(commands, settings, pipe=service.store.pipe)
        people = People.on(commands, settings, service)
        yield Runtime(service, hub, guard, Tickets(commands), people)
    finally:
        await hub.close()
        if machine.driver is not None:
            await machine.driver.close()
        if worker_task is not None:
            worker_task.remove_done_callback(_report_end)
            worker_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker_task
        for each in {id(p): p for p in pools}.values():
            await each.aclose()
        await service.store.close()
        await commands.aclose()
        await waits.aclose()


def _report_end(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        log.error("the in-process worker was cancelled")
    elif task.exception() is not None:
        log.error("the in-process worker stopped", exc_info=task.exception())
    else:
        log.error("the in-process worker stopped")
