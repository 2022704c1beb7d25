"""Machine work: what a game's state waits for (AI turns, timers), and putting it on arq.

Each piece of work has a job id made of the game and what names the work, so that it is
queued once however many processes see the same state (`tag` is the hash tag of the game's
queue, `app.queues`):

- an AI turn: ``{tag}ai:{game}:{seat}:{key}``, where the key is the game's `ai_key` for the seat
  (the version for turn-based games; the seat's own progress where seats act at once);
- a timer: ``{tag}timer:{game}:{timer key}``, deferred until the timer is due.

The sweep asks again with a suffix (``...:retry:{stamp}``) when work is overdue: a job that
runs twice does nothing the second time (AI commands and timers carry idempotency keys).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, NamedTuple, Protocol

from arq.connections import ArqRedis

from app.due import DueIndex
from app.queues import QueueSet

if TYPE_CHECKING:
    from app.service import Table


class AiTurn(NamedTuple):
    seat: int
    key: str
    #: When the AI acts (ms): its think time or pace after its decision began (`Table.since`:
    #: where seats act at once, its own last action, so that each AI keeps its own pace).
    due: int


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
        key = game.ai_key(table.state, seat, table.version)
        turns.append(AiTurn(seat, key, table.since(seat) + delay))
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


class Driver(Protocol):
    """Plays AI turns in this process (`app.driver`)."""

    def take(self, table: Table, turns: list[AiTurn]) -> bool:
        """Whether it plays these AI turns of the game (else they go to the queue)."""


class ArqScheduler:
    """Machine work as arq jobs on the game's queue, with the index of waiting games (one per
    queue) that lets the sweep find lost work.

    With a `driver` (a worker process), AI turns that follow one it played are played in
    process instead of going through the queue: the index mark, written before each append,
    is what keeps that work in Redis (a process that dies leaves it to the sweep).
    """

    def __init__(
        self,
        queues: QueueSet,
        pools: list[ArqRedis],
        indexes: list[DueIndex],
        think_seconds: float = 0.0,
        *,
        driver: Driver | None = None,
    ) -> None:
        self.queues = queues
        self.pools = pools
        self.indexes = indexes
        self.think_seconds = think_seconds
        self.think_ms = round(think_seconds * 1000)
        self.driver = driver
        self._last: tuple[Table, Work | None] | None = None  # `expect`'s, for `schedule`

    def _work(self, table: Table) -> Work | None:
        """`work_of` the table, worked out once for the `expect` and `schedule` of a command."""
        last = self._last
        if last is not None and last[0] is table:
            return last[1]
        work = work_of(table, self.think_ms)
        self._last = (table, work)
        return work

    @property
    def pool(self) -> ArqRedis:
        return self.pools[0]

    def index_of(self, game_id: str) -> DueIndex:
        return self.indexes[self.queues.of(game_id)]

    async def expect(self, table: Table) -> None:
        work = self._work(table)
        if work is not None:
            await self.index_of(table.id).mark(table.id, work.due)

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        work = self._work(table)
        if work is None:
            return
        suffix = f":retry:{retry}" if retry else ""
        number = self.queues.of(table.id)
        pool, name = self.pools[number], self.queues.name(number)
        turns = work.ai_turns
        if turns and not retry and self.driver is not None and self.driver.take(table, turns):
            turns = []
        for turn in turns:
            await pool.enqueue_job(
                "ai_turn",
                table.id,
                turn.seat,
                turn.key,
                _job_id=self.queues.job_id(number, f"ai:{table.id}:{turn.seat}:{turn.key}{suffix}"),
                _queue_name=name,
                _defer_until=None if retry else _instant(turn.due),
            )
        for key, due in work.timers:
            await pool.enqueue_job(
                "fire_timer",
                table.id,
                key,
                _job_id=self.queues.job_id(number, f"timer:{table.id}:{key}{suffix}"),
                _queue_name=name,
                _defer_until=_instant(due),
            )

    async def depths(self) -> dict[str, int]:
        """Jobs waiting in each queue."""
        return {
            self.queues.name(n): int(await self.pools[n].zcard(self.queues.name(n)))
            for n in range(self.queues.count)
        }


def _instant(ms: int) -> datetime:
    return datetime.fromtimestamp(ms / 1000, tz=UTC)
