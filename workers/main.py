"""arq settings for a separate worker process: `arq workers.main.WorkerSettings` (REDIS_URL)."""

from __future__ import annotations

from typing import Any

from arq.connections import RedisSettings

from app.config import Settings
from app.runtime import machine_service
from app.worker import worker_settings

_settings = Settings.from_env()


async def startup(ctx: dict[str, Any]) -> None:
    """The worker's own service, on the pool arq opened (bytes, not decoded)."""
    ctx["service"] = machine_service(ctx["redis"], _settings)


WorkerSettings = worker_settings(
    _settings,
    on_startup=startup,
    redis_settings=RedisSettings.from_dsn(_settings.redis_url or "redis://127.0.0.1:6379"),
)
