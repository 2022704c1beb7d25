"""The limits on password guesses count in 15-minute windows of a clock the test moves (no
test waits for a window's edge): per name and address, per account for password changes, and
a growing wait per name from anywhere that never refuses."""

from __future__ import annotations

import pytest
import redis.asyncio

from app.api.guard import Guard
from app.base.config import Settings
from app.commands.errors import RateLimited

START = 1_800_000_000.0  # the start of a 15-minute window


class Clock:
    def __init__(self) -> None:
        self.now = START

    def __call__(self) -> float:
        return self.now


def guard_on(redis_client: redis.asyncio.Redis, clock: Clock) -> Guard:
    settings = Settings(logins_per_name=3, login_delay_max=2.0)
    return Guard(redis_client, settings, clock=clock)


async def test_failed_logins_to_a_name_count_per_address_until_the_window_ends(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    guard = guard_on(redis_client, clock)
    for _ in range(3):
        await guard.admit("login_name", "ann 10.0.0.1")
    clock.now += 899
    with pytest.raises(RateLimited) as refused:
        await guard.admit("login_name", "ann 10.0.0.1")
    assert refused.value.retry_after == 1
    assert await guard.admit("login_name", "ann 10.0.0.2")  # another address is not refused
    clock.now += 1  # the next window
    assert await guard.admit("login_name", "ann 10.0.0.1")


async def test_wrong_current_passwords_count_per_account(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    guard = guard_on(redis_client, clock)
    for _ in range(3):
        await guard.admit("password", "ann")
    with pytest.raises(RateLimited) as refused:
        await guard.admit("password", "ann")
    assert refused.value.retry_after == 900 and "this account" in refused.value.message
    assert await guard.admit("password", "bob")
    clock.now += 900
    assert await guard.admit("password", "ann")


async def test_a_name_failed_from_anywhere_waits_longer_and_a_right_one_gives_its_place_back(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    guard = guard_on(redis_client, clock)
    waits = [(await guard.slowed("ann"))[0] for _ in range(6)]
    assert waits == [0.0, 0.0, 0.0, 0.5, 1.0, 2.0]
    wait, window = await guard.slowed("ann")  # the right password: not a failure
    assert wait == 2.0
    await guard.refund(window)
    assert (await guard.slowed("bob"))[0] == 0.0
    clock.now += 900
    assert (await guard.slowed("ann"))[0] == 0.0
