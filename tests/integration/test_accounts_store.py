"""Accounts, sessions and personal tokens on a real Redis, fakeredis and a Redis Cluster."""

from __future__ import annotations

import hashlib
import secrets

import argon2
import pytest
import redis.asyncio

from app.people.accounts import (
    Accounts,
    BadPassword,
    NameTaken,
    PasswordIsName,
    PasswordTooLong,
    WrongLogin,
    WrongPassword,
)
from app.people.names import BadAccountName
from app.people.sessions import Sessions
from app.people.tokens import NoSuchToken, PersonalTokens

#: A cheap argon2id for the tests' many hashes (the service uses argon2-cffi's defaults).
CHEAP = argon2.PasswordHasher(time_cost=1, memory_cost=1024, parallelism=1)


def a_name() -> str:
    return "Ann_" + secrets.token_hex(4)


async def test_a_player_signs_up_and_logs_in_with_any_case_of_the_name(
    redis_client: redis.asyncio.Redis,
) -> None:
    accounts = Accounts(redis_client, CHEAP)
    name = a_name()
    made = await accounts.sign_up(name, "correct horse")
    assert (made.key, made.name) == (name.lower(), name)
    assert await accounts.log_in(name.upper(), "correct horse") == made
    with pytest.raises(NameTaken):
        await accounts.sign_up(name.lower(), "another password")


async def test_the_password_is_kept_as_an_argon2id_hash_only(
    redis_client: redis.asyncio.Redis,
) -> None:
    accounts = Accounts(redis_client)  # the service's own hasher
    name = a_name()
    await accounts.sign_up(name, "correct horse")
    kept = await redis_client.hgetall(f"player:{{{name.lower()}}}")  # type: ignore[misc]
    assert kept[b"hash"].startswith(b"$argon2id$")
    assert b"correct horse" not in b"".join([*kept.keys(), *kept.values()])


async def test_a_wrong_password_and_an_unknown_name_get_the_same_refusal(
    redis_client: redis.asyncio.Redis,
) -> None:
    accounts = Accounts(redis_client, CHEAP)
    name = a_name()
    await accounts.sign_up(name, "correct horse")
    with pytest.raises(WrongLogin) as wrong:
        await accounts.log_in(name, "battery staple")
    with pytest.raises(WrongLogin) as unknown:
        await accounts.log_in(a_name(), "correct horse")
    assert wrong.value.message == unknown.value.message
    assert wrong.value.code == unknown.value.code == "wrong_login"


@pytest.mark.parametrize("name", ["ab", "a" * 21, "Ann Lee", "Ann!", "Änn", "", "ann\n"])
async def test_names_are_three_to_twenty_letters_digits_underscores_or_hyphens(
    redis_client: redis.asyncio.Redis, name: str
) -> None:
    with pytest.raises(BadAccountName):
        await Accounts(redis_client, CHEAP).sign_up(name, "correct horse")


@pytest.mark.parametrize(
    ("password", "refusal"),
    [("short", BadPassword), ("x" * 257, PasswordTooLong), ("SAME_NAME_1", PasswordIsName)],
)
async def test_passwords_are_eight_to_256_characters_and_not_the_name(
    redis_client: redis.asyncio.Redis, password: str, refusal: type[Exception]
) -> None:
    with pytest.raises(refusal):
        await Accounts(redis_client, CHEAP).sign_up("same_name_1", password)


async def test_a_changed_password_replaces_the_old_one(redis_client: redis.asyncio.Redis) -> None:
    accounts = Accounts(redis_client, CHEAP)
    player = await accounts.sign_up(a_name(), "correct horse")
    with pytest.raises(WrongPassword) as wrong:
        await accounts.change_password(player, "not the password", "battery staple")
    assert (wrong.value.code, wrong.value.message) == (
        "wrong_password",
        "Your current password is not right.",
    )
    await accounts.change_password(player, "correct horse", "battery staple")
    with pytest.raises(WrongLogin):
        await accounts.log_in(player.name, "correct horse")
    assert await accounts.log_in(player.name, "battery staple") == player


async def test_a_session_names_its_player_until_it_is_closed(
    redis_client: redis.asyncio.Redis,
) -> None:
    player = await Accounts(redis_client, CHEAP).sign_up(a_name(), "correct horse")
    sessions = Sessions(redis_client, 3600)
    first, second = await sessions.open(player), await sessions.open(player)
    assert first != second
    assert await sessions.player(first) == player == await sessions.player(second)
    await sessions.close(first)
    assert await sessions.player(first) is None
    assert await sessions.player(second) == player
    key = f"player:{{{player.key}}}:session:{_digest(second)}"
    assert 3500 < await redis_client.ttl(key) <= 3600


async def test_closing_every_session_of_a_player_leaves_others_open(
    redis_client: redis.asyncio.Redis,
) -> None:
    accounts = Accounts(redis_client, CHEAP)
    ann, bob = (
        await accounts.sign_up(a_name(), "correct horse"),
        await accounts.sign_up(a_name(), "correct horse"),
    )
    sessions = Sessions(redis_client, 3600)
    anns = [await sessions.open(ann) for _ in range(3)]
    bobs = await sessions.open(bob)
    await sessions.close_all(ann)
    assert [await sessions.player(s) for s in anns] == [None, None, None]
    assert await sessions.player(bobs) == bob


async def test_an_id_the_browser_made_up_opens_no_session(
    redis_client: redis.asyncio.Redis,
) -> None:
    sessions = Sessions(redis_client, 3600)
    for made_up in ["x" * 43, "null", "", "../" * 20, secrets.token_urlsafe(32)]:
        assert await sessions.player(made_up) is None


async def test_redis_keeps_no_session_id_and_no_token(redis_client: redis.asyncio.Redis) -> None:
    player = await Accounts(redis_client, CHEAP).sign_up(a_name(), "correct horse")
    session = await Sessions(redis_client, 3600).open(player)
    made = await PersonalTokens(redis_client).make(player, "my bot")
    await PersonalTokens(redis_client).player(made.token)  # its use is noted
    keys = [k async for k in redis_client.scan_iter(match="*")]
    dumped = b"".join(keys)
    for key in keys:
        kind = await redis_client.type(key)
        if kind == b"string":
            dumped += await redis_client.get(key) or b""
        elif kind == b"hash":
            fields = await redis_client.hgetall(key)  # type: ignore[misc]
            dumped += b"".join([*fields.keys(), *fields.values()])
        elif kind == b"set":
            dumped += b"".join(await redis_client.smembers(key))  # type: ignore[misc]
    assert session.encode() not in dumped
    assert made.token.encode() not in dumped


async def test_a_personal_token_acts_until_it_is_revoked(
    redis_client: redis.asyncio.Redis,
) -> None:
    player = await Accounts(redis_client, CHEAP).sign_up(a_name(), "correct horse")
    tokens = PersonalTokens(redis_client)
    made = await tokens.make(player, "my bot")
    assert made.token.startswith("bgp_")
    assert await tokens.player(made.token) == player
    listed = await tokens.listed(player)
    assert [(t.id, t.label) for t in listed] == [(made.id, "my bot")]
    assert listed[0].last_used is not None
    await tokens.revoke(player, made.id)
    assert await tokens.player(made.token) is None
    assert await tokens.listed(player) == []
    with pytest.raises(NoSuchToken):
        await tokens.revoke(player, made.id)


async def test_a_player_cannot_revoke_another_players_token(
    redis_client: redis.asyncio.Redis,
) -> None:
    accounts = Accounts(redis_client, CHEAP)
    ann = await accounts.sign_up(a_name(), "correct horse")
    bob = await accounts.sign_up(a_name(), "correct horse")
    tokens = PersonalTokens(redis_client)
    anns = await tokens.make(ann, "ann's bot")
    with pytest.raises(NoSuchToken):
        await tokens.revoke(bob, anns.id)
    assert await tokens.player(anns.token) == ann


async def test_a_token_that_looks_right_but_was_never_made_names_nobody(
    redis_client: redis.asyncio.Redis,
) -> None:
    tokens = PersonalTokens(redis_client)
    assert await tokens.player("bgp_" + secrets.token_urlsafe(32)) is None
    assert await tokens.player("bgp_short") is None


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()
