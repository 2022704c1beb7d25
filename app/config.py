"""Settings from the environment, read once at start-up."""

from __future__ import annotations

import os
from dataclasses import dataclass


@dataclass(frozen=True)
class Settings:
    """`redis_url` None means embedded: fakeredis in process and the worker as a task."""

    redis_url: str | None = None
    port: int = 8000
    host: str = "127.0.0.1"
    worker_in_process: bool = True
    think_seconds: float = 0.6
    poll_seconds: float = 0.05
    keep_alive_seconds: float = 15.0
    extra_games: tuple[str, ...] = ()

    @property
    def embedded(self) -> bool:
        return self.redis_url is None

    @classmethod
    def from_env(cls) -> Settings:
        url = os.environ.get("REDIS_URL") or None
        in_process = os.environ.get("WORKER_IN_PROCESS")
        return cls(
            redis_url=url,
            port=int(os.environ.get("PORT", "8000")),
            host=os.environ.get("HOST", "127.0.0.1"),
            worker_in_process=url is None if in_process is None else in_process == "1",
            think_seconds=float(os.environ.get("AI_THINK_SECONDS", "0.6")),
            poll_seconds=float(os.environ.get("WORKER_POLL_SECONDS", "0.05")),
            keep_alive_seconds=float(os.environ.get("SSE_KEEP_ALIVE_SECONDS", "15")),
            extra_games=tuple(g for g in os.environ.get("EXTRA_GAMES", "").split(",") if g.strip()),
        )
