"""Machine work on arq: the scheduler that queues what a table waits for (`app.machine.work`).

Each piece of work has a job id made of the game and what names the work, so that it is
queued once however many processes see the same state (`tag` is the hash tag of the game's
queue, `app.machine.queues`):

- an AI turn: ``{tag}ai:{game}:{seat}:{key}``, where the key is the game's `ai_key` for the seat
  (the version for turn-based games; the seat's own progress where seats act at once);
- a timer: ``{tag}timer:{game}:{timer key}``, deferred until the timer is due;
- the record of a finished game for its players: ``{tag}record:{game}``.

The sweep asks again with a suffix (``...:retry:{stamp}``) when work is overdue: a job that
runs twice does nothing the second time (AI commands and timers carry idempotency keys).
"""

from __future__ import annotations

from datetime import UTC, datetime

from arq.connections import ArqRedis

from app.commands.table import Table
from app.machine.driver import Driver
from app.machine.due import DueIndex
from app.machine.queues import QueueSet
from app.machine.work import Work, work_of

#: Games whose `expect` may wait for its `schedule` at once (more: a command's append failed).
_EXPECTED = 4096


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
        #: The work `waits` or `expect` found for each game's table, for its `schedule`
        #: (commands on other games run in between, while the append is awaited).
        self._expected: dict[str, tuple[Table, Work]] = {}

    def waits(self, table: Table) -> bool:
        return self._work(table) is not None

    def _work(self, table: Table, *, scheduling: bool = False) -> Work | None:
        """`work_of` the table, worked out once for the `waits`, `expect` and `schedule` of a
        command (only work is kept: a table that waits for none is not scheduled)."""
        expected = self._expected
        kept = expected.pop(table.id, None) if scheduling else expected.get(table.id)
        if kept is not None and kept[0] is table:
            return kept[1]
        work = work_of(table, self.think_ms)
        if work is not None and not scheduling:
            if len(expected) >= _EXPECTED:  # appends that failed: their schedule never came
                expected.clear()
            expected[table.id] = (table, work)
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
        work = self._work(table, scheduling=True)
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
        if work.record:
            await pool.enqueue_job(
                "record_game",
                table.id,
                _job_id=self.queues.job_id(number, f"record:{table.id}{suffix}"),
                _queue_name=name,
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
