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

from app.catalogue import Catalogue
from app.config import Settings
from app.due import DueIndex
from app.guard import Guard
from app.hub import Hub
from app.lifecycle import Lifecycle
from app.machine import ArqScheduler
from app.redis_pool import LeanPool
from app.service import GameService
from app.store import EventStore
from app.tickets import Tickets
from app.worker import supervise

log = logging.getLogger("app")


def machine_service(
    queue: ArqRedis,
    settings: Settings,
    commands: Redis | None = None,
    catalogue: Catalogue | None = None,
) -> GameService:
    """A command service whose machine work goes to arq on `queue` (its store on `commands`,
    or on the queue's own connections)."""
    scheduler = ArqScheduler(queue, DueIndex(queue), settings.think_seconds)
    catalogue = catalogue or Catalogue.with_extras(settings.extra_games)
    store = commands or queue
    return GameService(EventStore(store), catalogue, scheduler, lifecycle=Lifecycle(store))


def pool(settings: Settings, connections: int, *, read_timeout: float | None = None) -> Any:
    """A connection pool of the configured Redis: a call that waits longer than the timeout for
    a connection, to connect, or for its answer fails instead of hanging."""
    assert settings.redis_url is not None
    timeout = settings.redis_timeout
    return LeanPool.from_url(
        settings.redis_url,
        max_connections=connections,
        timeout=timeout,
        socket_timeout=read_timeout or timeout,
        socket_connect_timeout=timeout,
        health_check_interval=30,
    )


def queue_connector(settings: Settings, server: Any = None) -> Callable[[], Awaitable[ArqRedis]]:
    """Opens a new arq pool each call: on the fake server, or on the configured Redis."""

    async def connect() -> ArqRedis:
        if server is not None:
            return ArqRedis(
                pool_or_conn=fakeredis.aioredis.FakeRedis(server=server).connection_pool
            )
        queue = ArqRedis(pool_or_conn=pool(settings, 16))
        await queue.ping()
        return queue

    return connect


class Runtime(NamedTuple):
    """What a process serves with."""

    service: GameService
    hub: Hub
    guard: Guard
    tickets: Tickets


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
        log.info("embedded mode: fakeredis and the worker in this process (REDIS_URL unset)")
    else:
        assert settings.redis_url is not None
        commands = Redis(connection_pool=pool(settings, 64))
        # Blocking reads hold their connection for the whole wait: a pool of their own, whose
        # read timeout outlasts the hub's 5 s block.
        waits = Redis(connection_pool=pool(settings, 2048, read_timeout=15))
        queue = ArqRedis(pool_or_conn=pool(settings, 32))
        log.info("using Redis at %s", settings.redis_url.split("@")[-1])
    service = machine_service(queue, settings, commands, catalogue)
    hub = Hub(service, EventStore(waits))
    worker_task = None
    if settings.runs_worker:
        if settings.embedded:
            arq.worker.log_redis_info = _quiet_redis_info  # type: ignore[attr-defined]
        worker_task = asyncio.create_task(
            supervise(
                settings,
                queue_connector(settings, server),
                lambda _: {"service": service, "settings": settings},
            ),
            name="arq-worker",
        )
        worker_task.add_done_callback(_report_end)
        log.info("worker running in this process")
    try:
        yield Runtime(service, hub, Guard(commands, settings), Tickets(commands))
    finally:
        await hub.close()
        if worker_task is not None:
            worker_task.remove_done_callback(_report_end)
            worker_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await worker_task
        await queue.aclose()
        await commands.aclose()
        await waits.aclose()


def _report_end(task: asyncio.Task[Any]) -> None:
    if task.cancelled():
        log.error("the in-process worker was cancelled")
    elif task.exception() is not None:
        log.error("the in-process worker stopped", exc_info=task.exception())
    else:
        log.error("the in-process worker stopped")
