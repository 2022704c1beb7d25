"""Machine work in two lanes, so that a person never waits behind games of AIs alone.

Work for a game with a person at it (an AI's reply to a person, another AI's turn at that
table) and every timer (a turn clock, a Mondo round) goes in the first lane: it starts at
once. An AI turn of a game where only AIs sit is spare work: it starts only while fewer than
`slots` pieces of machine work, of either lane, are in flight in this process, in the order
the turns asked. So while the first lane is busy the event loop holds at most `slots` AI-only
turns besides it (each a few milliseconds of CPU), and when it is idle the games of AIs use
every slot: they get what is left.

Nothing here is the record of the work: a turn waiting for a slot is an in-process task of
`app.machine.driver`, and the game's due mark in Redis is what the sweep finds if the process
dies meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator

from app.base import metrics
from app.commands.table import Table

#: AI-only turns in flight at once when no other machine work runs (`MACHINE_SLOTS`).
SLOTS = 4


def with_people(table: Table) -> bool:
    """Whether a person plays at the table now (a seat no AI plays)."""
    return any(table.ai_level(seat) is None for seat in range(len(table.seats)))


def kind(table: Table) -> str:
    """The lane's name in measures: ``people`` (a person sits at the table) or ``ais``."""
    return "people" if with_people(table) else "ais"


class Lanes:
    """The two lanes of one process's machine work (one event loop)."""

    def __init__(self, slots: int = SLOTS) -> None:
        self.slots = max(1, slots)
        self.running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncIterator[None]:
        """Work that goes first: it starts now and holds a slot while it runs."""
        self.running += 1
        try:
            yield
        finally:
            self._release()

    @contextlib.asynccontextmanager
    async def spare(self) -> AsyncIterator[None]:
        """Work that waits for a free slot, behind the spare work that asked before it."""
        if self.running >= self.slots or self._waiting:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append(granted)
            metrics.SPARE_WAITING.set(len(self._waiting))
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._release()  # the slot came with the cancellation: pass it on
                elif granted in self._waiting:
                    self._waiting.remove(granted)
                    metrics.SPARE_WAITING.set(len(self._waiting))
                raise
        else:
            self.running += 1
        try:
            yield
        finally:
            self._release()

    def lane(self, table: Table) -> contextlib.AbstractAsyncContextManager[None]:
        """The lane of an AI turn at `table`."""
        return self.first() if with_people(table) else self.spare()

    def _release(self) -> None:
        self.running -= 1
        while self._waiting and self.running < self.slots:
            granted = self._waiting.popleft()
            if not granted.done():
                self.running += 1
                granted.set_result(None)
        metrics.SPARE_WAITING.set(len(self._waiting))
