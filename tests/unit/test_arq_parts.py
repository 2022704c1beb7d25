"""`app.machine.worker.QueueWorker` overrides arq's worker methods and reads its attributes, and
the service calls arq's functions: arq is pinned below its next minor version (pyproject.toml),
and this test fails on any arq whose parts we lean on are not the ones our code was written for
(their signatures, and the attributes, constants and functions it reads), so that an upgrade is
read before it runs."""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

import arq.connections
import arq.constants
import arq.utils
import arq.worker
import fakeredis
import fakeredis.aioredis
import pytest

from app.machine.worker import QueueWorker

#: What our code overrides or calls, with the signature it was written for (arq 0.28).
SIGNATURES: dict[str, tuple[Callable[..., Any], str]] = {
    "Worker.run_job": (arq.worker.Worker.run_job, "(self, job_id: str, score: int) -> None"),
    "Worker.start_jobs": (
        arq.worker.Worker.start_jobs,
        "(self, job_ids: list[bytes]) -> None",
    ),
    "Worker.finish_job": (
        arq.worker.Worker.finish_job,
        "(self, job_id: str, finish: bool, result_data: Optional[bytes], result_timeout_s: "
        "Optional[float], keep_result_forever: bool, incr_score: Optional[int], "
        "keep_in_progress: Optional[float]) -> None",
    ),
    "Worker.finish_failed_job": (
        arq.worker.Worker.finish_failed_job,
        "(self, job_id: str, result_data: Optional[bytes]) -> None",
    ),
    "Worker._release_sem_dec_counter_on_complete": (
        arq.worker.Worker._release_sem_dec_counter_on_complete,
        "(self) -> None",
    ),
    "Worker.close": (arq.worker.Worker.close, "(self) -> None"),
    "log_redis_info": (
        arq.worker.log_redis_info,
        "(redis: 'Redis[bytes]', log_func: Callable[[str], Any]) -> None",
    ),
    "timestamp_ms": (arq.utils.timestamp_ms, "() -> int"),
    "ArqRedis.enqueue_job": (
        arq.connections.ArqRedis.enqueue_job,
        "(self, function: str, *args: Any, _job_id: Optional[str] = None, _queue_name: "
        "Optional[str] = None, _defer_until: Optional[datetime.datetime] = None, _defer_by: "
        "Union[NoneType, int, float, datetime.timedelta] = None, _expires: Union[NoneType, int, "
        "float, datetime.timedelta] = None, _job_try: Optional[int] = None, **kwargs: Any) -> "
        "Optional[arq.jobs.Job]",
    ),
}

#: The worker's attributes `QueueWorker` and `app.machine.worker` read or write.
ATTRIBUTES = (
    "ctx",
    "in_progress_timeout_s",
    "job_counter",
    "keep_result_forever",
    "keep_result_s",
    "loop",
    "main_task",
    "max_jobs",
    "pool",
    "queue_name",
    "sem",
    "tasks",
)

#: The key prefixes `QueueWorker` writes, as arq names them.
PREFIXES = {
    "in_progress_key_prefix": "arq:in-progress:",
    "job_key_prefix": "arq:job:",
    "result_key_prefix": "arq:result:",
    "retry_key_prefix": "arq:retry:",
}


@pytest.mark.parametrize("name", SIGNATURES)
def test_the_arq_parts_we_lean_on_have_the_signatures_we_wrote_for(name: str) -> None:
    function, expected = SIGNATURES[name]
    assert str(inspect.signature(function)) == expected, f"arq's {name} changed: read it again"


def shape(function: Callable[..., Any]) -> list[tuple[str, Any, Any]]:
    """How a caller may call it: each parameter's name, kind and default."""
    return [(p.name, p.kind, p.default) for p in inspect.signature(function).parameters.values()]


def test_each_override_takes_what_arq_passes() -> None:
    for name in ("run_job", "start_jobs", "finish_job", "finish_failed_job"):
        ours, theirs = getattr(QueueWorker, name), getattr(arq.worker.Worker, name)
        assert shape(ours) == shape(theirs), name


def test_the_key_prefixes_are_arq_s() -> None:
    assert {name: getattr(arq.constants, name) for name in PREFIXES} == PREFIXES


async def test_a_worker_has_the_attributes_we_read() -> None:
    async def job(ctx: dict[str, Any]) -> None: ...

    client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    pool = arq.connections.ArqRedis(pool_or_conn=client.connection_pool)
    worker = QueueWorker([job], redis_pool=pool, handle_signals=False)  # type: ignore[list-item]
    try:
        missing = [name for name in ATTRIBUTES if not hasattr(worker, name)]
        assert not missing, f"arq's worker no longer has {missing}"
    finally:
        await pool.aclose()
