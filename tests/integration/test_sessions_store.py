"""Sessions on a real Redis, fakeredis and a Redis Cluster: a session is written with its place
in its player's index in one step, so that however logins and a change of password interleave,
no session outlives the change that should have closed it."""

from __future__ import annotations

import asyncio
import secrets

import redis.asyncio

from app.people.accounts import Player
from app.people.sessions import Sessions


def a_player() -> Player:
    key = "ann_" + secrets.token_hex(4)
    return Player(key, key.capitalize())


async def test_logins_racing_a_change_of_password_leave_no_session_the_next_change_misses(
    redis_client: redis.asyncio.Redis,
) -> None:
    ann, sessions = a_player(), Sessions(redis_client, 3600)
    for _ in range(3):
        logins = [asyncio.create_task(sessions.open(ann)) for _ in range(40)]
        await asyncio.sleep(0)  # the logins under way
        await sessions.close_all(ann)  # a change of password, between their writes
        opened = await asyncio.gather(*logins)
        await sessions.close_all(ann)  # the next change closes every session the first missed
        assert [await sessions.player(s) for s in opened] == [None] * len(opened)
    assert [k async for k in redis_client.scan_iter(match=f"*{ann.key}*")] == []


async def test_a_session_lies_on_its_players_slot(redis_client: redis.asyncio.Redis) -> None:
    ann, sessions = a_player(), Sessions(redis_client, 3600)
    session = await sessions.open(ann)
    keys = sorted([k.decode() async for k in redis_client.scan_iter(match=f"*{ann.key}*")])
    assert len(keys) == 2 and all(k.startswith(f"player:{{{ann.key}}}:session") for k in keys)
    assert await sessions.player(session) == ann
    await sessions.close(session)
    assert [k async for k in redis_client.scan_iter(match=f"*{ann.key}*")] == []
