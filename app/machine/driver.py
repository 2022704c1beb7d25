"""AI turns played in process: the worker that played a game's AI turn goes on playing that
game while an AI is to move, instead of a queue round trip (enqueue, poll, take, finish) for
every turn.

It holds one task per game it drives, at most `limit` of them (beyond that, work goes to the
queue). Each turn, once its think time is over, waits for its lane (`app.machine.lanes`): a
turn at a table with a person starts at once, a turn of a game of AIs alone when a slot is
free. Nothing here is the record of the work: before each append the service marks the game
in its queue's index of waiting games (`app.machine.due`), so a process that dies while it drives a
game leaves work that the sweep asks for again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.base import metrics
from app.commands.errors import StoreUnavailable
from app.commands.table import Table
from app.machine.lanes import Lanes, with_people
from app.machine.work import AiTurn, work_of

log = logging.getLogger(__name__)

#: What a game's driving meets when Redis is away: then every game driven fails at once.
AWAY = (RedisConnectionError, RedisTimeoutError, ConnectionError, TimeoutError, StoreUnavailable)
#: An AI turn due later than this (ms) goes to the queue instead (a slow AI's pace).
HORIZON_MS = 5_000


#: Plays one AI turn of a table as loaded here: (table, seat, key) -> the turn's outcome, "played"
#: when it sent a command (`app.machine.jobs.play_ai_turn`, bound to the service by the bootstrap).
Play = Callable[[Table, int, str], Awaitable[str]]


class Driver:
    """The games whose AI turns this process plays itself, by `play`, each at its due time on
    `clock` (ms), with `think_ms` for the AI turns of games that set no pace."""

    def __init__(
        self,
        play: Play,
        clock: Callable[[], int],
        think_ms: int,
        limit: int = 5_000,
        lanes: Lanes | None = None,
    ) -> None:
        self.play = play
        self.lanes = lanes or Lanes()
        self.clock = clock
        self.think_ms = think_ms
        self.limit = limit
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._next: dict[str, Table] = {}

    @property
    def driven(self) -> int:
        return len(self._tasks)

    def drives(self, game_id: str) -> bool:
        """Whether this process plays the game's AI turns now."""
        return game_id in self._tasks

    def take(self, table: Table, turns: list[AiTurn]) -> bool:
        if min(t.due for t in turns) - table.at > HORIZON_MS:
            return False
        if table.id in self._tasks:
            self._next[table.id] = table  # its task plays on from here
            return True
        if len(self._tasks) >= self.limit:
            return False
        try:
            task = asyncio.get_running_loop().create_task(self._drive(table), name=f"ai:{table.id}")
        except RuntimeError:
            return False
        self._tasks[table.id] = task
        metrics.DRIVEN_GAMES.set(len(self._tasks))
        return True

    async def _drive(self, table: Table | None) -> None:
        game_id = table.id if table is not None else ""
        try:
            while table is not None:
                self._next.pop(game_id, None)
                played = False
                work = work_of(table, self.think_ms)
                for turn in sorted(work.ai_turns if work else [], key=lambda t: t.due):
                    wait = turn.due - self.clock()
                    if wait > 0:
                        await asyncio.sleep(wait / 1000)
                    people = with_people(table)
                    async with self.lanes.first() if people else self.lanes.spare():
                        if people:
                            self.lanes.late((self.clock() - turn.due) / 1000)
                        outcome = await self.play(table, turn.seat, turn.key)
                    played = outcome == "played"
                    if played:
                        break  # the state changed: its next turns come through `take`
                table = self._next.pop(game_id, None) if played else None
        except asyncio.CancelledError:
            raise
        except Exception as error:
            failed(game_id, error)
        finally:
            self._tasks.pop(game_id, None)
            self._next.pop(game_id, None)
            metrics.DRIVEN_GAMES.set(len(self._tasks))

    async def close(self) -> None:
        tasks = list(self._tasks.values())
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.wait(tasks, timeout=5)


def failed(game_id: str, error: Exception) -> None:
    """Log a game whose driving failed: one line without a traceback when Redis is away (a
    line per game driven, not a traceback each), else the traceback."""
    if isinstance(error, AWAY):
        log.warning(
            "driving the AI of game %s stopped, Redis is away (%s); the sweep takes it over",
            game_id,
            type(error).__name__,
        )
    else:
        log.error("driving the AI of game %s; the sweep takes it over", game_id, exc_info=error)
