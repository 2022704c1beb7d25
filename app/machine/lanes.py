"""Machine work in two lanes, so that a person never waits behind games of AIs alone.

Work for a game with a person at it (an AI's reply to a person, another AI's turn at that
table), every timer (a turn clock, a Mondo round) and every job taken from the queue go in the
first lane: it starts at once. An AI turn of a game where only AIs sit is spare work: it starts
only while no work of the first lane is in flight in this process, at most `slots` at once, in
the order the turns asked. So the event loop holds no new AI-only turn while a person's work
is under way, and when there is none the games of AIs use every slot: they get what is left.

On a machine with no CPU to spare that is not enough: the games of AIs also load the API
processes (their streams), Redis and the operating system's run queue, and the queue's jobs
start late although this process's lanes are in order. So lateness is fed back: work of the
first lane that starts more than `LATE_S` after it was due holds every new AI-only turn back
for `HOLD_S`, until people's work starts on time again.

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
#: Work of the first lane this late (s) after it was due holds AI-only turns back for `HOLD_S`.
LATE_S = 0.25
HOLD_S = 1.0


def with_people(table: Table) -> bool:
    """Whether a person plays at the table now (a seat no AI plays)."""
    return any(table.ai_level(seat) is None for seat in range(len(table.seats)))


def kind(table: Table) -> str:
    """The lane's name in measures: ``people`` (a person sits at the table) or ``ais``."""
    return "people" if with_people(table) else "ais"


class Lanes:
    """The two lanes of one process's machine work (one event loop)."""

    def __init__(self, slots: int = SLOTS, *, late_s: float = LATE_S, hold_s: float = HOLD_S):
        self.slots = max(1, slots)
        self.late_s, self.hold_s = late_s, hold_s
        self.first_running = 0
        self.spare_running = 0
        self._waiting: deque[asyncio.Future[None]] = deque()
        self._held_until = 0.0  # the event loop's time until which AI-only turns are held
        self._wake: asyncio.TimerHandle | None = None

    @property
    def waiting(self) -> int:
        return len(self._waiting)

    @property
    def running(self) -> int:
        return self.first_running + self.spare_running

    def _free(self) -> bool:
        if self.first_running or self.spare_running >= self.slots:
            return False
        return asyncio.get_running_loop().time() >= self._held_until

    def late(self, seconds: float) -> None:
        """Work of the first lane started `seconds` after it was due: when that is more than
        `late_s`, no AI-only turn starts for `hold_s`."""
        if seconds <= self.late_s:
            return
        loop = asyncio.get_running_loop()
        if loop.time() >= self._held_until:
            metrics.SPARE_HELD.inc()
        self._held_until = loop.time() + self.hold_s
        if self._wake is None:
            self._wake = loop.call_at(self._held_until, self._woken)

    def _woken(self) -> None:
        """The hold's end as it was set: look again (a later report may have lengthened it)."""
        loop = asyncio.get_running_loop()
        self._wake = None
        if loop.time() < self._held_until:
            self._wake = loop.call_at(self._held_until, self._woken)
        else:
            self._grant()

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
