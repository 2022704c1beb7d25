"""Machine work goes to arq: one job per AI turn, its id made from the game and its version."""

from __future__ import annotations

from arq.connections import ArqRedis


class ArqScheduler:
    """Enqueues AI turns; the job id makes each (game, version, seat) run at most once."""

    def __init__(self, pool: ArqRedis, think_seconds: float = 0.0) -> None:
        self.pool = pool
        self.think_seconds = think_seconds

    async def ai_turn(self, game_id: str, version: int, seat: int) -> None:
        await self.pool.enqueue_job(
            "ai_turn",
            game_id,
            version,
            seat,
            _job_id=f"ai:{game_id}:{version}:{seat}",
            _defer_by=self.think_seconds or None,
        )
