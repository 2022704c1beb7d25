"""Machine work in two lanes, so that a person never waits behind games of AIs alone.

Work for a game with a person at it (an AI's reply to a person, another AI's turn at that
table), every timer (a turn clock, a Mondo round) and every job taken from the queue go in the
first lane: it starts at once. An AI turn of a game where only AIs sit is spare work: it starts
only while no work of the first lane is in flight in this process, at most `slots` at once, in
the order the turns asked. So the event loop holds no new AI-only turn while a person's work
is under way, and when there is none the games of AIs use every slot: they get what is left.

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

#: AI-only turns in flight at once while no other machine work runs (`MACHINE_SLOTS`).
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
        self.first_running = 0
        self.spare_running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def running(self) -> int:
        return self.first_running + self.spare_running

    def _free(self) -> bool:
        return self.first_running == 0 and self.spare_running < self.slots

    @contextlib.asynccontextmanager
    async def first(self) -> AsyncIterator[None]:
        """Work that goes first: it starts now, and no spare work starts while it runs."""
        self.first_running += 1
        try:
            yield
        finally:
            self.first_running -= 1
            self._grant()

    @contextlib.asynccontextmanager
    async def spare(self) -> AsyncIterator[None]:
        """Work that waits until no work of the first lane runs and a slot is free, behind the
        spare work that asked before it."""
        if not self._free() or self._waiting:
            granted: asyncio.Future[None] = asyncio.get_running_loop().create_future()
            self._waiting.append(granted)
            metrics.SPARE_WAITING.set(len(self._waiting))
            try:
                await granted
            except asyncio.CancelledError:
                if granted.done() and not granted.cancelled():
                    self._done()  # the slot came with the cancellation: pass it on
                elif granted in self._waiting:
                    self._waiting.remove(granted)
                    metrics.SPARE_WAITING.set(len(self._waiting))
                raise
        else:
            self.spare_running += 1
        try:
            yield
        finally:
            self._done()

    def lane(self, table: Table) -> contextlib.AbstractAsyncContextManager[None]:
        """The lane of an AI turn at `table`."""
        return self.first() if with_people(table) else self.spare()

    def _done(self) -> None:
        self.spare_running -= 1
        self._grant()

    def _grant(self) -> None:
        while self._waiting and self._free():
            granted = self._waiting.popleft()
            if not granted.done():
                self.spare_running += 1
                granted.set_result(None)
        metrics.SPARE_WAITING.set(len(self._waiting))
