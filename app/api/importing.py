"""Checking an imported log off the event loop.

Replaying a log of 1 MB against the rules takes a few tenths of a second of CPU: on the event
loop it would hold every other request of the process that long. `LogChecks` runs the check
in a pool of processes (started with `spawn`: the server's threads are not forked), each of
which reads the log, replays it and hands back its events packed for the store (one
string, which the store's script unpacks) and the state they reach; the event loop only
stores them. `docs/benchmarks.md` ("A view while logs are
imported") measures a view meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import multiprocessing
import os
from collections.abc import AsyncIterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from app.api import logfile
from app.commands.catalogue import Catalogue
from app.commands.errors import ServiceError
from app.commands.seats import SeatRequest
from app.store.events import Packed
from domain.game import Setup

#: The processes that check imports at once (more wait their turn in the pool's queue).
WORKERS = 2
#: How much lower their priority is than the API's: checking an import never takes a core from
#: the event loop that serves the players.
NICE = 10


@functools.cache
def _catalogue(extras: tuple[str, ...]) -> Catalogue:
    return Catalogue.with_extras(extras)


class Checked(NamedTuple):
    """A log that replays, as the event loop stores it: its game's name, setup, seats, events
    packed for the store, the state they reach and the salt of its commitment (all of it
    picklable, and quick to unpickle: the events are one string)."""

    game: str
    setup: Setup
    seats: list[SeatRequest]
    events: Packed
    state: Any
    salt: str | None = None


def check(extras: tuple[str, ...], data: bytes) -> Checked | tuple[type[ServiceError], str]:
    """In a pool's process: the log read and replayed, or its refusal as (kind, message), since
    a refusal's own pickling would not make it again (its message is not all it is made of)."""
    try:
        log, game, stored, state = logfile.read(_catalogue(extras), data)
    except ServiceError as refusal:
        return type(refusal), refusal.message
    seats = [SeatRequest(s.type, s.name, s.level) for s in log.seats]
    return Checked(game.name, log.setup, seats, Packed.of(stored), state, log.salt)


class LogChecks:
    """A pool of processes that read and check imported logs; made in the app's lifespan."""

    def __init__(self, extras: Sequence[str], workers: int = WORKERS) -> None:
        self.extras = tuple(extras)
        context = multiprocessing.get_context("spawn")
        self._pool = ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=os.nice, initargs=(NICE,)
        )

    async def check(self, data: bytes) -> Checked:
        """The log `data` read and replayed against the rules, else its refusal."""
        loop = asyncio.get_running_loop()
        found = await loop.run_in_executor(self._pool, check, self.extras, data)
        if isinstance(found, Checked):
            return found
        kind, message = found
        raise kind(message)

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


@contextlib.asynccontextmanager
async def log_checks(extras: Sequence[str]) -> AsyncIterator[LogChecks]:
    """A pool of log checks for as long as the app runs."""
    checks = LogChecks(extras)
    try:
        yield checks
    finally:
        checks.close()
