"""The one place that registers the worker's jobs and settings, and keeps a worker running.

Both the worker inside an API process (embedded mode, `app.runtime`) and a separate worker
process (`python -m workers`) take their functions and options from `worker_settings`. `serve`
runs one arq worker per queue served (`WORKER_QUEUES`), each under `supervise`: when Redis goes
away (a restart, an outage of any length, a server that hangs) the worker stops, and it is
started again on new connections once Redis answers. Beside them, `periodic` runs the sweep of
each served queue every two seconds and the retention policy hourly, each in one process at a
time (a lock key per queue, and one for retention). `arq workers.main.WorkerSettings` (arq's own
command, a single Redis) serves queue 0 with the sweep and retention as arq cron jobs.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

import arq.worker
from arq.connections import ArqRedis
from arq.constants import (
    in_progress_key_prefix,
    job_key_prefix,
    result_key_prefix,
    retry_key_prefix,
)
from arq.cron import cron
from arq.utils import timestamp_ms
from redis.asyncio import Redis
from redis.commands.core import AsyncScript

from app.base.config import Settings
from app.machine.jobs import ai_turn, fire_timer, record_game, retention, sweep
from app.machine.lanes import Lanes
from app.machine.queues import QueueSet

log = logging.getLogger(__name__)

FUNCTIONS: list[Any] = [ai_turn, fire_timer, record_game]
#: Machine work takes milliseconds: a job that runs longer is stuck, and arq's in-progress
#: key of a job whose worker died outlives it by only this plus 10 s.
JOB_TIMEOUT_SECONDS = 10
#: With arq's own command (`workers.main.WorkerSettings`): the sweep every two seconds,
#: retention every hour (each on one worker at a time: arq's cron job ids are unique).
CRON_JOBS: list[Any] = [
    cron(sweep, second=set(range(0, 60, 2)), run_at_startup=True, timeout=JOB_TIMEOUT_SECONDS),
    cron(retention, minute={17}, second={30}, timeout=300),
]


#: How often each served queue is swept (s).
SWEEP_SECONDS = 2.0
RETENTION_LOCK = "machine:retention"


#: Claims the due jobs of one poll at once. KEYS[1] the queue, KEYS[1 + i] job i's in-progress
#: key; ARGV[1] now (ms), ARGV[2] how long the in-progress key lives (ms), ARGV[2 + i] job i's id.
#: A job is claimed, as arq claims one, when it is in no process's hands and due: its id and
#: score come back in a flat list.
CLAIM = """
local claimed = {}
local now = tonumber(ARGV[1])
for i = 2, #KEYS do
  if redis.call('exists', KEYS[i]) == 0 then
    local score = redis.call('zscore', KEYS[1], ARGV[i + 1])
    if score and tonumber(score) <= now then
      redis.call('psetex', KEYS[i], ARGV[2], '1')
      claimed[#claimed + 1] = ARGV[i + 1]
      claimed[#claimed + 1] = score
    end
  end
end
return claimed
"""


class QueueWorker(arq.worker.Worker):
    """arq's worker, with two changes. The set of aborted jobs is kept per queue
    (``<queue>:abort``) instead of arq's one global key: every key a job's transaction touches
    is then in the queue's slot. Every job runs in the first lane of the process's machine
    work (`app.machine.lanes`). And the due jobs of a poll are claimed in one round trip (one
    script, `CLAIM`) where arq claims them one by one with four (WATCH, EXISTS, ZSCORE, MULTI):
    on a busy machine those round trips, not the jobs, bounded how many jobs a worker started
    a second, and a person's AI reply waited in the queue behind them."""

    _claim: AsyncScript | None = None

    async def run_job(self, job_id: str, score: int) -> None:
        """The job, in the first lane of this process's machine work (`app.machine.lanes`):
        no AI turn of a game of AIs alone starts while it runs, nor for a while after a job
        that started late."""
        lanes: Lanes | None = self.ctx.get("lanes")
        if lanes is None:
            return await super().run_job(job_id, score)
        async with lanes.first():
            lanes.late((timestamp_ms() - score) / 1000)
            return await super().run_job(job_id, score)

    async def start_jobs(self, job_ids: list[bytes]) -> None:
        free = self.max_jobs - self.job_counter
        ids = [job_id.decode() for job_id in job_ids[: max(0, free)]]
        if not ids:
            return
        keys = [self.queue_name, *(in_progress_key_prefix + job_id for job_id in ids)]
        ttl = int(self.in_progress_timeout_s * 1000)
        if self._claim is None:
            self._claim = self.pool.register_script(CLAIM)
        claimed = await self._claim(keys=keys, args=[timestamp_ms(), ttl, *ids])
        for n in range(0, len(claimed), 2):
            job_id, score = claimed[n].decode(), int(float(claimed[n + 1]))
            await self.sem.acquire()  # never waits: at most the free places were claimed
            self.job_counter += 1
            task = self.loop.create_task(self.run_job(job_id, score))
            task.add_done_callback(lambda _: self._release_sem_dec_counter_on_complete())
            self.tasks[job_id] = task

    async def finish_job(
        self,
        job_id: str,
        finish: bool,
        result_data: bytes | None,
        result_timeout_s: float | None,
        keep_result_forever: bool,
        incr_score: int | None,
        keep_in_progress: float | None,
    ) -> None:
        async with self.pool.pipeline(transaction=True) as tr:
            delete_keys = []
            in_progress_key = in_progress_key_prefix + job_id
            if keep_in_progress is None:
                delete_keys += [in_progress_key]
            else:
                tr.pexpire(in_progress_key, round(keep_in_progress * 1000))
            if finish:
                if result_data:
                    expire = None if keep_result_forever else result_timeout_s
                    px = None if expire is None else round(expire * 1000)
                    tr.set(result_key_prefix + job_id, result_data, px=px)
                delete_keys += [retry_key_prefix + job_id, job_key_prefix + job_id]
                tr.zrem(self.queue_name + ":abort", job_id)
                tr.zrem(self.queue_name, job_id)
            elif incr_score:
                tr.zincrby(self.queue_name, incr_score, job_id)
            if delete_keys:
                tr.delete(*delete_keys)
            await tr.execute()

    async def finish_failed_job(self, job_id: str, result_data: bytes | None) -> None:
        async with self.pool.pipeline(transaction=True) as tr:
            tr.delete(
                retry_key_prefix + job_id, in_progress_key_prefix + job_id, job_key_prefix + job_id
            )
            tr.zrem(self.queue_name + ":abort", job_id)
            tr.zrem(self.queue_name, job_id)
            keep_result = self.keep_result_forever or self.keep_result_s > 0
            if result_data is not None and keep_result:
                expire = 0 if self.keep_result_forever else self.keep_result_s
                tr.set(result_key_prefix + job_id, result_data, px=round(expire * 1000) or None)
            await tr.execute()


def worker_settings(settings: Settings, **extra: Any) -> dict[str, Any]:
    """arq `Worker` keyword arguments: the jobs and the options, plus `extra` (the Redis pool
    or settings, the queue, start-up hooks, signal handling, cron jobs)."""
    return {
        "functions": FUNCTIONS,
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
    queue_name: str = "arq:queue",
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
            worker = QueueWorker(
                **worker_settings(
                    settings,
                    redis_pool=pool,
                    handle_signals=False,
                    ctx={**ctx(pool), "queue": queue_name},
                    queue_name=queue_name,
                )
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


async def serve(
    settings: Settings,
    queues: QueueSet,
    connect: Callable[[int], Awaitable[ArqRedis]],
    ctx: dict[str, Any],
    locks: Redis,
    *,
    give_up: Callable[[BaseException], bool] = lambda error: False,
) -> None:
    """Serve the queues `settings.served_queues` (one supervised arq worker each, on the
    connections `connect(number)` opens) and run `periodic`, until cancelled."""
    numbers = settings.served_queues
    runs = [
        supervise(
            settings,
            functools.partial(connect, number),
            lambda _: ctx,
            queue_name=queues.name(number),
            give_up=give_up,
        )
        for number in numbers
    ]
    tasks = [
        asyncio.create_task(run, name=f"arq-worker-{n}")
        for n, run in zip(numbers, runs, strict=True)
    ]
    tasks.append(asyncio.create_task(periodic(ctx, queues, numbers, locks), name="periodic"))
    try:
        done, _ = await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
        for task in done:
            task.result()
    finally:
        for task in tasks:
            task.cancel()
        await asyncio.wait(tasks, timeout=10)  # never hang a shutdown on one of them


async def periodic(ctx: dict[str, Any], queues: QueueSet, numbers: list[int], locks: Redis) -> None:
    """Every `SWEEP_SECONDS`: the sweep of each served queue that no other process swept
    meanwhile, and the retention policy when no process ran it for an hour."""
    while True:
        try:
            for number in numbers:
                lock = queues.lock_key(number, "swept")
                if await locks.set(lock, b"1", nx=True, px=round(SWEEP_SECONDS * 900)):
                    await sweep({**ctx, "queues": [number]})
            if await locks.set(RETENTION_LOCK, b"1", nx=True, ex=3600):
                await retention(ctx)
        except asyncio.CancelledError:
            raise
        except Exception as error:
            log.warning("sweep or retention failed (%s: %s)", type(error).__name__, error)
        await asyncio.sleep(SWEEP_SECONDS)
