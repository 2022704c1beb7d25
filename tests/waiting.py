"""Waiting for what must happen, never for a length of time.

A test waits for an event that must come (a game over, a message shown, a count reached) by
asking again and again; it sets no deadline of its own, so that a busy machine makes it slower,
never wrong. A wait that never ends is ended by the test's timeout (pyproject's `timeout`),
whose report shows the line that waited.
"""

from __future__ import annotations

import asyncio
import inspect
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

#: Seconds between two looks.
POLL = 0.05


async def until(check: Callable[[], T | Awaitable[T]], poll: float = POLL) -> T:
    """What `check` answers first that is true (it may be a coroutine function)."""
    while True:
        found = check()
        if inspect.isawaitable(found):
            found = await found
        if found:
            return found
        await asyncio.sleep(poll)


def until_now(check: Callable[[], T], poll: float = POLL) -> T:
    """`until` for a test that is not a coroutine."""
    while not (found := check()):
        time.sleep(poll)
    return found
