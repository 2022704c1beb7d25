"""Passwords are hashed in a bounded pool of their own: at most its workers at once, at most its
queue waiting, and anything past that refused at once (`BusyHashing`), never queued."""

from __future__ import annotations

import asyncio
import threading

import pytest

from app.commands.errors import BusyHashing
from app.people.hashing import HashPool


async def test_at_most_the_workers_hash_at_once_and_past_the_queue_one_is_refused() -> None:
    pool = HashPool(workers=2, queue=3, retry_after=5)
    release, lock = threading.Event(), threading.Lock()
    running, most = 0, 0

    def hash_slowly() -> str:
        nonlocal running, most
        with lock:
            running += 1
            most = max(most, running)
        release.wait(5)
        with lock:
            running -= 1
        return "hashed"

    asked = [asyncio.create_task(pool.run(hash_slowly)) for _ in range(5)]
    await asyncio.sleep(0.2)
    assert pool.asked == 5
    with pytest.raises(BusyHashing) as refused:
        await pool.run(hash_slowly)
    assert refused.value.retry_after == 5 and refused.value.code == "busy_hashing"
    release.set()
    assert await asyncio.gather(*asked) == ["hashed"] * 5
    assert most == 2 and pool.asked == 0
    assert await pool.run(hash_slowly) == "hashed"  # room again


async def test_a_hash_given_up_while_waiting_leaves_its_place() -> None:
    pool = HashPool(workers=1, queue=1)
    release = threading.Event()
    first = asyncio.create_task(pool.run(release.wait, 5))
    waiting = asyncio.create_task(pool.run(release.wait, 5))
    await asyncio.sleep(0.1)
    waiting.cancel()  # its client went away
    await asyncio.sleep(0.05)
    assert pool.asked == 1
    second = asyncio.create_task(pool.run(release.wait, 5))
    await asyncio.sleep(0.05)
    release.set()
    assert await first and await second
