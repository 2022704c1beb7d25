"""AI turns played in process: the worker that played a game's AI turn goes on playing that
game while an AI is to move, instead of a queue round trip (enqueue, poll, take, finish) for
every turn.

It holds one task per game it drives, at most `limit` of them (beyond that, work goes to the
queue). Nothing here is the record of the work: before each append the service marks the game
in its queue's index of waiting games (`app.due`), so a process that dies while it drives a
game leaves work that the sweep asks for again.
"""

from __future__ import annotations

import asyncio
import logging
from typing import TYPE_CHECKING, Any

from app import metrics
from app.machine import AiTurn

if TYPE_CHECKING:
    from app.service import GameService, Table

log = logging.getLogger(__name__)

#: An AI turn due later than this (ms) goes to the queue instead (a slow AI's pace).
HORIZON_MS = 5_000


class Driver:
    """The games whose AI turns this process plays itself."""

    def __init__(self, limit: int = 5_000) -> None:
        self.limit = limit
        self.service: GameService | None = None
        self._tasks: dict[str, asyncio.Task[None]] = {}
        self._next: dict[str, Table] = {}

    @property
    def driven(self) -> int:
        return len(self._tasks)

    def take(self, table: Table, turns: list[AiTurn]) -> bool:
        if self.service is None or min(t.due for t in turns) - table.at > HORIZON_MS:
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
        from app.jobs import play_ai_turn

        assert self.service is not None
        service = self.service
        game_id = table.id if table is not None else ""
        try:
            while table is not None:
                self._next.pop(game_id, None)
                played = False
                for turn in sorted(_turns(service, table), key=lambda t: t.due):
                    wait = turn.due - service.clock()
                    if wait > 0:
                        await asyncio.sleep(wait / 1000)
                    outcome = await play_ai_turn(service, game_id, turn.seat, turn.key, table)
                    played = outcome == "played"
                    if played:
                        break  # the state changed: its next turns come through `take`
                table = self._next.pop(game_id, None) if played else None
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("driving the AI of game %s; the sweep takes it over", game_id)
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


def _turns(service: Any, table: Table) -> list[AiTurn]:
    from app.machine import work_of

    work = work_of(table, service.scheduler.think_ms)
    return [] if work is None else work.ai_turns
