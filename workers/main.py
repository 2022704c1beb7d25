"""A separate worker process: `python -m workers` (REDIS_URL).

It runs arq's worker under `app.worker.supervise`, so it outlives Redis restarts and outages of
any length: it waits for Redis and goes on. `arq workers.main.WorkerSettings` runs the same jobs
with arq's own command, without that supervision (a supervisor such as compose's restart
policy then has to start it again).
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from arq.connections import ArqRedis, RedisSettings
from prometheus_client import start_http_server

from app import metrics
from app.config import Settings
from app.runtime import machine_service, queue_connector
from app.worker import supervise, worker_settings

_settings = Settings.from_env()
log = logging.getLogger("workers")


def context(pool: ArqRedis) -> dict[str, Any]:
    """The jobs' context: this worker's own service on the pool arq uses (bytes, not decoded)."""
    return {"service": machine_service(pool, _settings), "settings": _settings}


async def startup(ctx: dict[str, Any]) -> None:
    ctx.update(context(ctx["redis"]))


WorkerSettings = worker_settings(
    _settings,
    on_startup=startup,
    redis_settings=RedisSettings.from_dsn(_settings.redis_url or "redis://127.0.0.1:6379"),
)


async def run() -> None:
    """Run the supervised worker until SIGTERM or SIGINT."""
    if _settings.redis_url is None:
        raise SystemExit(
            "python -m workers needs REDIS_URL (embedded mode runs its worker in the API)"
        )
    if _settings.metrics_port:
        start_http_server(_settings.metrics_port, registry=metrics.REGISTRY)
    task = asyncio.create_task(supervise(_settings, queue_connector(_settings), context))
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    log.info("worker on Redis at %s", _settings.redis_url.split("@")[-1])
    try:
        await task
    except asyncio.CancelledError:
        log.info("worker stopped")


def main() -> None:
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(run())
