"""A separate worker process: `python -m workers` (REDIS_URL).

It serves the queues `WORKER_QUEUES` (all by default) with arq's worker under
`app.machine.worker.serve`, so it outlives Redis restarts and outages of any length: it waits
for Redis and goes on. On a single Redis, `arq workers.main.WorkerSettings` runs the same jobs of
queue 0 with arq's own command, without that supervision (a supervisor such as compose's
restart policy then has to start it again), the sweep and retention as arq cron jobs.
"""

from __future__ import annotations

import asyncio
import logging
import signal
from typing import Any

from arq.connections import RedisSettings
from prometheus_client import start_http_server

from app.base import metrics
from app.base.config import Settings
from app.logs import configure
from app.machine.queues import QueueSet
from app.machine.worker import CRON_JOBS, serve, worker_settings
from app.runtime import machine_service, queue_connector, queue_pools
from app.store.connections import data_client, plain_url

_settings = Settings.from_env()
log = logging.getLogger("workers")


async def startup(ctx: dict[str, Any]) -> None:
    """arq's command: the jobs' service on arq's own pool (bytes, not decoded)."""
    pools = [ctx["redis"]] * _settings.queues
    ctx.update(machine_service(_settings, ctx["redis"], pools).context(_settings))


WorkerSettings = worker_settings(
    _settings,
    on_startup=startup,
    cron_jobs=CRON_JOBS,
    queue_name=QueueSet(_settings.queues).name(0),
    redis_settings=RedisSettings.from_dsn(
        plain_url(_settings.redis_url or "redis://127.0.0.1:6379")
    ),
)


async def run() -> None:
    """Run the supervised worker until SIGTERM or SIGINT."""
    if _settings.redis_url is None:
        raise SystemExit(
            "python -m workers needs REDIS_URL (embedded mode runs its worker in the API)"
        )
    if _settings.metrics_port:
        start_http_server(_settings.metrics_port, registry=metrics.REGISTRY)
    commands = data_client(_settings, 64)
    while True:
        try:
            pools = await queue_pools(_settings, commands)
            break
        except Exception as error:  # Redis not up yet: wait for it
            log.warning("waiting for Redis (%s: %s)", type(error).__name__, error)
            await asyncio.sleep(1)
    machine = machine_service(_settings, commands, pools, drive=True)
    context = machine.context(_settings)
    queues = QueueSet(_settings.queues)
    task = asyncio.create_task(
        serve(_settings, queues, queue_connector(_settings, commands), context, commands)
    )
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, task.cancel)
    log.info(
        "worker on Redis at %s, queues %s of %d",
        _settings.redis_url.split("@")[-1],
        _settings.served_queues,
        queues.count,
    )
    try:
        await task
    except asyncio.CancelledError:
        log.info("worker stopped")
    finally:
        if machine.driver is not None:
            await machine.driver.close()
        for each in {id(p): p for p in pools}.values():
            await each.aclose()
        await machine.service.store.close()
        await commands.aclose()


def main() -> None:
    configure(_settings.log_format)
    try:
        import uvloop  # the event loop the API processes run on (none on Windows)
    except ImportError:
        asyncio.run(run())
    else:
        uvloop.run(run())
