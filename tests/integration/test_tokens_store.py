"""Personal tokens on a real Redis, fakeredis and a Redis Cluster: the limit of a player's tokens
holds against makes that race, and a token that lost its key (a process died between the two
writes of a make or a revoke) is taken off the list when the player next lists or makes one."""

from __future__ import annotations

import asyncio
import hashlib
import secrets

import pytest
import redis.asyncio

from app.commands.errors import Conflict
from app.people.accounts import Player
from app.people.names import player_key
from app.people.tokens import MAX_TOKENS, PersonalTokens, TooManyTokens


def a_player() -> Player:
    key = "ann_" + secrets.token_hex(4)
    return Player(key, key)


async def test_makes_that_race_never_pass_the_limit(redis_client: redis.asyncio.Redis) -> None:
    player, tokens = a_player(), PersonalTokens(redis_client)
    made = await asyncio.gather(
        *(tokens.make(player, f"bot {n}") for n in range(2 * MAX_TOKENS)), return_exceptions=True
    )
    kept = [m for m in made if not isinstance(m, BaseException)]
    refused = [m for m in made if isinstance(m, BaseException)]
    assert len(kept) == MAX_TOKENS
    assert {type(r) for r in refused} <= {TooManyTokens} and len(refused) == MAX_TOKENS
    assert all(r.code == "too_many_tokens" for r in refused)
    assert sorted(t.id for t in await tokens.listed(player)) == sorted(m.id for m in kept)
    assert [await tokens.player(m.token) for m in kept] == [player] * MAX_TOKENS


def key_of(token: str) -> str:
    return "ptoken:" + hashlib.sha256(token.encode()).hexdigest()


async def test_a_listed_token_without_its_key_is_taken_off_the_list(
    redis_client: redis.asyncio.Redis,
) -> None:
    """As a process killed between a make's two writes leaves it (`tests/faults`): the player's
    list has the token, Redis has no key for it, and nobody ever saw the token."""
    player, tokens = a_player(), PersonalTokens(redis_client, grace_ms=0)
    made = [await tokens.make(player, f"bot {n}") for n in range(3)]
    assert await redis_client.delete(key_of(made[1].token)) == 1
    # Within the grace its key may still be on its way (a make between its writes): kept.
    assert len(await PersonalTokens(redis_client).listed(player)) == 3
    assert sorted(t.id for t in await tokens.listed(player)) == sorted([made[0].id, made[2].id])
    assert await redis_client.hlen(player_key(player.name, ":tokens")) == 2  # type: ignore[misc]


async def test_a_token_without_its_key_frees_its_place_for_a_new_one(
    redis_client: redis.asyncio.Redis,
) -> None:
    player, tokens = a_player(), PersonalTokens(redis_client, grace_ms=0)
    made = [await tokens.make(player, f"bot {n}") for n in range(MAX_TOKENS)]
    assert await redis_client.delete(key_of(made[5].token)) == 1
    again = await tokens.make(player, "one more")
    with pytest.raises(Conflict):
        await tokens.make(player, "too many")
    listed = [t.id for t in await tokens.listed(player)]
    assert made[5].id not in listed and again.id in listed and len(listed) == MAX_TOKENS
