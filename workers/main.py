"""arq settings for a separate worker process: `arq workers.main.WorkerSettings` (REDIS_URL)."""

from __future__ import annotations

import os
from typing import Any, ClassVar

from arq.connections import RedisSettings
from arq.cron import cron

from app.config import Settings
from app.machine import ArqScheduler
from app.service import GameService
from app.store import EventStore
from workers.ai import ai_turn
from workers.sweep import sweep


async def startup(ctx: dict[str, Any]) -> None:
    """The worker's own service, on the pool arq opened (bytes, not decoded)."""
    settings = Settings.from_env()
    scheduler = ArqScheduler(ctx["redis"], settings.think_seconds)
    ctx["service"] = GameService(EventStore(ctx["redis"]), scheduler)


class WorkerSettings:
    functions: ClassVar[list[Any]] = [ai_turn]
    cron_jobs: ClassVar[list[Any]] = [cron(sweep, second={0, 30})]
    on_startup = startup
    redis_settings = RedisSettings.from_dsn(os.environ.get("REDIS_URL", "redis://127.0.0.1:6379"))
    poll_delay = float(os.environ.get("WORKER_POLL_SECONDS", "0.05"))
    keep_result = 60
    max_jobs = 50
    health_check_interval = 10  # for `arq --check` (compose health check)
