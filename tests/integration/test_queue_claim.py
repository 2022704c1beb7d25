"""A worker claims the due jobs of a poll in one round trip (`QueueWorker.start_jobs`, the
`CLAIM` script) and runs each in the first lane of machine work, with arq's rules: a job runs
once however many workers poll it, a job another process holds is left to it, a job not yet
due stays queued. On a real Redis and on fakeredis (the embedded service); the cluster runs it
in `test_worker`."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime, timedelta
from typing import Any

import fakeredis
import pytest
from arq.connections import ArqRedis
from arq.constants import in_progress_key_prefix
from arq.worker import func
from redis.asyncio import ConnectionPool

from app.machine.lanes import Lanes
from app.machine.worker import QueueWorker


@pytest.fixture(params=["real", "fake"])
async def pool(request: pytest.FixtureRequest) -> AsyncIterator[ArqRedis]:
    if request.param == "real":
        connections = ConnectionPool.from_url(request.getfixturevalue("redis_url"))
    else:
        connections = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer()).connection_pool
    arq = ArqRedis(connection_pool=connections)
    yield arq
    await arq.aclose()


async def test_a_due_job_runs_once_however_many_workers_poll_it(pool: ArqRedis) -> None:
    tag = "{t" + secrets.token_hex(4) + "}"  # this test's own keys, in one slot
    queue = f"arq:queue:{tag}"
    ran: list[int] = []
    lanes = Lanes()

    async def job(ctx: dict[str, Any], n: int) -> None:
        assert lanes.first_running >= 1  # jobs go first: no AI-only turn starts meanwhile
        ran.append(n)

    for n in range(4):
        later = datetime.now(UTC) + timedelta(minutes=1) if n == 3 else None
        await pool.enqueue_job(
            "job", n, _job_id=f"{tag}job:{n}", _queue_name=queue, _defer_until=later
        )
    await pool.set(in_progress_key_prefix + f"{tag}job:2", b"1", px=60_000)  # held elsewhere
    workers = [
        QueueWorker(
            functions=[func(job, name="job")],
            redis_pool=pool,
            queue_name=queue,
            handle_signals=False,
            ctx={"lanes": lanes},
        )
        for _ in range(2)
    ]
    ids = await pool.zrangebyscore(queue, min=float("-inf"), max=float("inf"))
    assert len(ids) == 4
    await asyncio.gather(*(worker.start_jobs(ids) for worker in workers))
    await asyncio.gather(*(t for worker in workers for t in worker.tasks.values()))
    assert sorted(ran) == [0, 1]
    assert sum(w.job_counter for w in workers) == 0  # every place given back
    assert lanes.running == 0
    left = await pool.zrange(queue, 0, -1)
    assert sorted(left) == [f"{tag}job:2".encode(), f"{tag}job:3".encode()]
