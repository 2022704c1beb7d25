"""The one place that registers the worker's jobs and settings, and keeps a worker running.

Both the worker inside an API process (embedded mode, `app.runtime`) and a separate worker
process (`python -m workers`, or `arq workers.main.WorkerSettings`) take their functions, cron
jobs and options from `worker_settings`. `supervise` runs arq's worker for ever: when Redis
goes away (a restart, an outage of any length, a server that hangs) the worker stops, and it
is started again on new connections once Redis answers.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import arq.worker
from arq.connections import ArqRedis
from arq.cron import cron

from app.config import Settings
from app.jobs import ai_turn, fire_timer, retention, sweep

log = logging.getLogger(__name__)

FUNCTIONS: list[Any] = [ai_turn, fire_timer]
#: Machine work takes milliseconds: a job that runs longer is stuck, and arq's in-progress
#: key of a job whose worker died outlives it by only this plus 10 s.
JOB_TIMEOUT_SECONDS = 10
#: The sweep runs every two seconds, retention every hour (each on one worker at a time:
#: arq's cron job ids are unique).
CRON_JOBS: list[Any] = [
    cron(sweep, second=set(range(0, 60, 2)), run_at_startup=True, timeout=JOB_TIMEOUT_SECONDS),
    cron(retention, minute={17}, second={30}, timeout=300),
]


def worker_settings(settings: Settings, **extra: Any) -> dict[str, Any]:
    """arq `Worker` keyword arguments: the jobs, the cron jobs and the options, plus `extra`
    (the Redis pool or settings, start-up hooks, signal handling)."""
    return {
        "functions": FUNCTIONS,
        "cron_jobs": CRON_JOBS,
        "poll_delay": settings.poll_seconds,
        "job_timeout": JOB_TIMEOUT_SECONDS,
        "keep_result": 60,
        "max_jobs": 50,
        "health_check_interval": 10,
        **extra,
    }


async def supervise(
    settings: Settings,
    connect: Callable[[], Awaitable[ArqRedis]],
    ctx: Callable[[ArqRedis], dict[str, Any]],
    *,
    give_up: Callable[[BaseException], bool] = lambda error: False,
) -> None:
    """Run arq's worker until cancelled, starting it again whenever Redis fails it.

    `connect` opens a new pool (it may fail while Redis is away: then it is tried again);
    `ctx` makes the jobs' context from that pool. Waits between attempts grow from 0.2 s to
    5 s, and start from 0.2 s again after a worker that ran for a minute.
    """
    wait = 0.2
    loop = asyncio.get_running_loop()
    while True:
        started = loop.time()
        try:
            pool = await connect()
            worker = arq.worker.Worker(
                **worker_settings(settings, redis_pool=pool, handle_signals=False, ctx=ctx(pool))
            )
            try:
                await worker.async_run()
                log.warning("the worker stopped; starting it again")
            finally:
                await _close(worker, pool)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            if give_up(error):
                raise
            log.warning(
                "the worker lost Redis (%s: %s); starting it again", type(error).__name__, error
            )
        if loop.time() - started > 60:
            wait = 0.2
        await asyncio.sleep(wait)
        wait = min(wait * 2, 5.0)


async def _close(worker: arq.worker.Worker, pool: ArqRedis) -> None:
    """Stop the worker's jobs and close its connections, even while Redis is away."""
    for task in worker.tasks.values():
        task.cancel()
    if worker.main_task is not None:
        worker.main_task.cancel()
    with contextlib.suppress(Exception, asyncio.CancelledError):
        await asyncio.wait_for(worker.close(), timeout=2)
    with contextlib.suppress(Exception):
        await pool.aclose(close_connection_pool=True)
