"""The players' stores, their process killed (-9) after each answer from Redis in turn: a
session, opened in one step with its place in the player's index, never outlives a change of
password; a personal token acts only while it is listed (so revoking every token finds it),
and once the player lists them, it is listed only while it acts."""

from __future__ import annotations

from collections.abc import AsyncIterator

import msgspec
import pytest
import redis.asyncio
from faults.dying import killed_after

from app.people.accounts import Player
from app.people.names import player_key
from app.people.sessions import Sessions
from app.people.tokens import PersonalTokens
from tests.processes import RedisServer


@pytest.fixture
async def client(store: RedisServer) -> AsyncIterator[redis.asyncio.Redis]:
    found = redis.asyncio.Redis.from_url(store.url)
    yield found
    await found.aclose()


async def test_a_login_killed_at_any_point_leaves_no_session_a_new_password_misses(
    store: RedisServer, client: redis.asyncio.Redis
) -> None:
    kills = 0
    for answers in range(1, 10):
        ann = Player(f"ann{answers}", f"ann{answers}")
        kept = msgspec.json.encode(ann)  # what a session of Ann's holds
        made = killed_after(store.url, answers, "open", ann.key)
        await Sessions(client, 3600).close_all(ann)  # the password changes
        held = [k async for k in client.scan_iter(_type="STRING") if await client.get(k) == kept]
        assert held == [], f"killed after answer {answers}: a session survives"
        if made is not None:
            break
        kills += 1
    assert kills >= 1, "no kill landed inside the login"


async def test_a_token_made_by_a_process_killed_at_any_point_acts_only_while_listed(
    store: RedisServer, client: redis.asyncio.Redis
) -> None:
    kills = 0
    for answers in range(1, 10):
        bob = Player(f"bob{answers}", f"bob{answers}")
        made = killed_after(store.url, answers, "make", bob.key)
        keys = await token_keys(client, bob)
        listed = await client.hgetall(player_key(bob.key, ":tokens"))  # type: ignore[misc]
        # Every token that acts is listed: revoking every token of the player finds it.
        assert set(keys.values()) <= {k.decode() for k in listed}
        await PersonalTokens(client).revoke_all(bob)
        assert await token_keys(client, bob) == {}
        if made is not None:
            assert len(keys) == 1
            break
        kills += 1
    assert kills >= 2, "no kill landed between the make's writes"


async def test_a_listed_token_left_without_its_key_is_taken_off_the_list(
    store: RedisServer, client: redis.asyncio.Redis
) -> None:
    """A make killed between its two writes, then the player's list once the grace is over."""
    cy = Player("cy", "cy")
    for answers in range(1, 10):
        killed_after(store.url, answers, "make", cy.key)
        left = await client.hlen(player_key(cy.key, ":tokens"))  # type: ignore[misc]
        if left and not await token_keys(client, cy):
            break
        await PersonalTokens(client).revoke_all(cy)
    else:
        pytest.fail("no kill left a listed token without its key")
    assert await PersonalTokens(client, grace_ms=0).listed(cy) == []
    assert await client.hlen(player_key(cy.key, ":tokens")) == 0  # type: ignore[misc]


async def test_a_revoke_killed_at_any_point_leaves_a_token_that_acts_exactly_if_listed(
    store: RedisServer, client: redis.asyncio.Redis
) -> None:
    kills = 0
    for answers in range(1, 10):
        dee = Player(f"dee{answers}", f"dee{answers}")
        made = await PersonalTokens(client).make(dee, "my bot")
        done = killed_after(store.url, answers, "revoke", dee.key, made.id)
        tokens = PersonalTokens(client, grace_ms=0)
        acts = await tokens.player(made.token) is not None
        listed = [t.id for t in await tokens.listed(dee)] == [made.id]
        assert acts == listed, f"killed after answer {answers}: acts {acts}, listed {listed}"
        if done is not None:
            assert not acts
            break
        kills += 1
    assert kills >= 1, "no kill landed inside the revoke"


async def token_keys(client: redis.asyncio.Redis, player: Player) -> dict[bytes, str]:
    """The player's `ptoken:` keys, each with the id of its token."""
    found = {}
    async for key in client.scan_iter(match="ptoken:*"):
        raw = await client.get(key)
        if raw is None:
            continue
        owner = msgspec.json.decode(raw)
        if owner["player"]["key"] == player.key:
            found[key] = owner["id"]
    return found
