"""Machine work: what a game's state waits for (AI turns, timers), and putting it on arq.

Each piece of work has a job id made of the game and what names the work, so that it is
queued once however many processes see the same state:

- an AI turn: ``ai:{game}:{seat}:{key}``, where the key is the game's `ai_key` for the seat
  (the version for turn-based games; the seat's own progress where seats act at once);
- a timer: ``timer:{game}:{timer key}``, deferred until the timer is due.

The sweep asks again with a suffix (``...:retry:{stamp}``) when work is overdue: a job that
runs twice does nothing the second time (AI commands and timers carry idempotency keys).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, NamedTuple, Protocol

from arq.connections import ArqRedis

from app.due import DueIndex

if TYPE_CHECKING:
    from app.service import Table


class AiTurn(NamedTuple):
    seat: int
    key: str
    due: int  # when the AI acts: the state's time plus its think time or pace (ms)


class Work(NamedTuple):
    """What a state waits for, and when the earliest of it is due (ms)."""

    ai_turns: list[AiTurn]
    timers: list[tuple[str, int]]  # (timer key, due)
    due: int


def work_of(table: Table, think_ms: int) -> Work | None:
    """The machine work a table waits for, or None."""
    if table.over:
        return None
    game = table.game
    turns = []
    for seat in sorted(game.to_act(table.state)):
        level = table.ai_level(seat)
        if level is None:
            continue
        pace = game.ai_delay(table.state, seat, level)
        delay = think_ms if pace is None else round(pace * 1000)
        turns.append(AiTurn(seat, game.ai_key(table.state, seat, table.version), table.at + delay))
    timers = [(t.key, t.due) for t in game.timers(table.state)]
    if not turns and not timers:
        return None
    dues = [due for _, due in timers] + [turn.due for turn in turns]
    return Work(turns, timers, min(dues))


class Scheduler(Protocol):
    """Where machine work goes: an arq queue, or nowhere (tests of the service alone)."""

    async def expect(self, table: Table) -> None:
        """Mark the game in the due index if `table` waits for work (before its append)."""

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        """Queue the work `table` waits for (after its append)."""


class ArqScheduler:
    """Machine work as arq jobs, with the due index that lets the sweep find lost ones."""

    def __init__(self, pool: ArqRedis, index: DueIndex, think_seconds: float = 0.0) -> None:
        self.pool = pool
        self.index = index
        self.think_ms = round(think_seconds * 1000)

    async def expect(self, table: Table) -> None:
        work = work_of(table, self.think_ms)
        if work is not None:
            await self.index.mark(table.id, work.due)

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        work = work_of(table, self.think_ms)
        if work is None:
            return
        suffix = f":retry:{retry}" if retry else ""
        for turn in work.ai_turns:
            await self.pool.enqueue_job(
                "ai_turn",
                table.id,
                turn.seat,
                turn.key,
                _job_id=f"ai:{table.id}:{turn.seat}:{turn.key}{suffix}",
                _defer_until=None if retry else _instant(turn.due),
            )
        for key, due in work.timers:
            await self.pool.enqueue_job(
                "fire_timer",
                table.id,
                key,
                _job_id=f"timer:{table.id}:{key}{suffix}",
                _defer_until=_instant(due),
            )


def _instant(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)
