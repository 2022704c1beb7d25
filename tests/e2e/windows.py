"""The rate limits count in fixed windows (`app.api.guard`: a minute, and 15 minutes for failed
logins to one account). A test of a limit first waits, when it must, until enough of every window
it counts in is left for all its requests to fall in one window; else a boundary crossed halfway
would reset a count and the test would fail now and then."""

from __future__ import annotations

import asyncio
import time

MINUTE = 60
LOGINS_PER_NAME = 900  # `_WINDOW["login_name"]`


def wait_before(
    needed: float, lengths: tuple[int, ...] = (MINUTE,), now: float | None = None
) -> float:
    """Seconds to wait from `now` until each window of `lengths` has at least `needed` s left."""
    start = time.time() if now is None else now
    at = start
    while True:
        short = [length - at % length for length in lengths if length - at % length < needed]
        if not short:
            return at - start
        at += min(short) + 0.5  # just past the nearest boundary; look again from there


async def in_one_window(needed: float = 15, lengths: tuple[int, ...] = (MINUTE,)) -> None:
    await asyncio.sleep(wait_before(needed, lengths))


def in_one_window_now(needed: float = 15, lengths: tuple[int, ...] = (MINUTE,)) -> None:
    """`in_one_window` for a test that is not a coroutine."""
    time.sleep(wait_before(needed, lengths))
