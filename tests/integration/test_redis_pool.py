"""The lean connection pool hands out a clean idle connection at once, and never one with a
reply left unread on it."""

from __future__ import annotations

import asyncio

from redis.asyncio import Redis

from app.store.redis_pool import LeanPool, _clean


async def test_a_connection_with_an_unread_reply_is_not_handed_out(redis_url: str) -> None:
    pool = LeanPool.from_url(redis_url, max_connections=1, timeout=2)
    client = Redis(connection_pool=pool)
    try:
        await client.set("lean-pool:key", b"value")
        connection = await pool.get_connection()
        assert _clean(connection)
        await connection.send_command("PING")  # its reply is never read
        await asyncio.sleep(0.05)
        assert not _clean(connection)
        await pool.release(connection)
        assert await client.get("lean-pool:key") == b"value"
        again = await pool.get_connection()
        assert _clean(again)
        await pool.release(again)
    finally:
        await client.delete("lean-pool:key")
        await client.aclose()


async def test_callers_queued_for_a_connection_are_served_before_newcomers(
    redis_url: str,
) -> None:
    pool = LeanPool.from_url(redis_url, max_connections=2, timeout=2)
    client = Redis(connection_pool=pool)
    try:
        # far more callers than connections, arriving all the time: none waits past the timeout
        async def caller(n: int) -> None:
            for _ in range(20):
                await client.incr("lean-pool:count")
                await asyncio.sleep(0)

        await asyncio.gather(*(caller(n) for n in range(200)))
        assert int(await client.get("lean-pool:count") or 0) == 4000
    finally:
        await client.delete("lean-pool:count")
        await client.aclose()
