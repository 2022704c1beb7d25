"""The one place that registers the worker's jobs and settings.

Both the worker inside an API process (embedded mode, `app.runtime`) and a separate worker
process (`arq workers.main.WorkerSettings`) take their functions, cron jobs and options from
`worker_settings`.
"""

from __future__ import annotations

from typing import Any

from arq.cron import cron

from app.config import Settings
from app.jobs import ai_turn, fire_timer, sweep

FUNCTIONS: list[Any] = [ai_turn, fire_timer]
#: The sweep runs every two seconds (on one worker at a time: arq's cron job ids are unique).
CRON_JOBS: list[Any] = [cron(sweep, second=set(range(0, 60, 2)), run_at_startup=True)]


def worker_settings(settings: Settings, **extra: Any) -> dict[str, Any]:
    """arq `Worker` keyword arguments: the jobs, the cron jobs and the options, plus `extra`
    (the Redis pool or settings, start-up hooks, signal handling)."""
    return {
        "functions": FUNCTIONS,
        "cron_jobs": CRON_JOBS,
        "poll_delay": settings.poll_seconds,
        "keep_result": 60,
        "max_jobs": 50,
        "health_check_interval": 10,
        **extra,
    }
