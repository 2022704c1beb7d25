"""The limits per client address count in one-minute windows that start at the first request
they count, by a clock the test moves (`app.api.guard`): no edge of the clock's minute resets a
count, and no test waits for one."""

from __future__ import annotations

import pytest
import redis.asyncio

from app.api.guard import Guard
from app.base.config import Settings
from app.commands.errors import RateLimited

EDGE = 1_800_000_000.0  # a minute's edge of the clock


class Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


def guard_on(redis_client: redis.asyncio.Redis, clock: Clock) -> Guard:
    return Guard(redis_client, Settings(create_per_minute=3), clock=clock)


async def test_a_burst_across_the_clock_s_minute_is_one_window(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock(EDGE - 0.5)
    guard = guard_on(redis_client, clock)
    for _ in range(3):
        await guard.admit("create", "10.0.0.1")
    clock.now = EDGE + 0.5  # the clock's next minute: the window runs on
    with pytest.raises(RateLimited) as refused:
        await guard.admit("create", "10.0.0.1")
    assert refused.value.retry_after == 59
    assert "at most 3 a minute" in refused.value.message
    assert await guard.admit("create", "10.0.0.2")  # another address has its own window
    clock.now = EDGE + 59.5  # a minute after the first request: a new window
    assert await guard.admit("create", "10.0.0.1")
