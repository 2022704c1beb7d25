"""Personal API tokens: a program plays as its player with one (`Authorization: Bearer`).

A token is `bgp_` and 43 random characters, shown once when it is made. Redis keeps its
SHA-256 only: `ptoken:DIGEST` names the player and the token's id; `player:{KEY}:tokens` (a
hash) each token's label, when it was made and its digest, `player:{KEY}:used` when each was
last used (written at most once a minute per token and process). Revoking deletes both: the
next request with it is refused, and every API process ends the streams and sockets opened
with it (`app.store.ends`: its key `ptoken:DIGEST`, never the token).

The two keys lie on two slots of a cluster, so no one step writes both. The list is written
first and its key deleted last: a token that acts is always listed, so revoking every token
of a player finds it. Making a token counts and lists it in one script on the list (the limit
holds however many makes race), then writes its key; a process that dies between the two (or
between a revoke's two deletes) leaves a listed token without a key, which nobody ever saw or
can use: listing the tokens, or a make that finds the list full, takes it off the list once
it is older than `grace_ms` (until then its key may still be on its way).
"""

from __future__ import annotations

import hashlib
import re
import secrets
import time

import msgspec
from redis.asyncio import Redis

from app.commands.errors import Busy, Conflict, InvalidInput, NotFound
from app.commands.seats import PERSONAL_PREFIX
from app.people.accounts import Player
from app.people.names import player_key
from app.store.ends import announce

PREFIX = PERSONAL_PREFIX
TOKEN = re.compile(rf"{PREFIX}[A-Za-z0-9_-]{{43}}")
MAX_TOKENS = 20
LABEL_LENGTH = 40
_USE_EVERY_MS = 60_000
#: How old a listed token without its key must be to be taken off the list (ms).
GRACE_MS = 60_000

# KEYS: the player's tokens. ARGV: the token's id, its `Kept`, the limit. Lists the token
# unless the player has the limit already: 1 if listed, else 0.
_LIST = """
if redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1
"""


class NoSuchToken(NotFound):
    """A token id that is none of the player's (never made, or revoked already)."""


class BadLabel(InvalidInput):
    """A token's label that is blank, too long or not printable."""

    code = "bad_label"


class TooManyTokens(Conflict):
    """A player who has `MAX_TOKENS` tokens asks for one more."""

    code = "too_many_tokens"


class Owner(msgspec.Struct, frozen=True):
    player: Player
    id: str


class Kept(msgspec.Struct, frozen=True):
    label: str
    created: int
    digest: str


class TokenInfo(msgspec.Struct, frozen=True):
    """A token as its player sees it listed: never the token itself."""

    id: str
    label: str
    created: int
    last_used: int | None


class MadeToken(msgspec.Struct, frozen=True):
    id: str
    label: str
    created: int
    token: str  # shown this once


def is_personal(token: str) -> bool:
    return token.startswith(PREFIX)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def identity_of(token: str, player: Player) -> tuple[str, ...]:
    """The keys of a personal token's identity (`app.store.ends`): the token's, then its
    player's."""
    return (f"ptoken:{_digest(token)}", player_key(player.name))


class PersonalTokens:
    def __init__(self, redis: Redis, grace_ms: int = GRACE_MS) -> None:
        self._redis = redis
        self.grace_ms = grace_ms
        self._list = redis.register_script(_LIST)
        self._written: dict[str, int] = {}  # token id -> when this process last wrote its use

    async def make(self, player: Player, label: str) -> MadeToken:
        label = label.strip()
        if not 1 <= len(label) <= LABEL_LENGTH or not label.isprintable():
            raise BadLabel(f"A token's label is 1 to {LABEL_LENGTH} printable characters.")
        index = player_key(player.name, ":tokens")
        token = PREFIX + secrets.token_urlsafe(32)
        token_id, now, digest = secrets.token_hex(6), int(time.time() * 1000), _digest(token)
        listing: list[bytes | str | int] = [
            token_id, msgspec.json.encode(Kept(label, now, digest)), MAX_TOKENS
        ]  # fmt: skip
        listed = await self._list(keys=[index], args=listing)
        if not listed and await self._without_keys(player):
            listed = await self._list(keys=[index], args=listing)
        if not listed:
            raise TooManyTokens(f"You have {MAX_TOKENS} tokens: revoke one first.")
        key = f"ptoken:{digest}"
        await self._redis.set(key, msgspec.json.encode(Owner(player, token_id)))
        if not await self._redis.hexists(index, token_id):  # type: ignore[misc]
            # Revoked (every token of the player) between the two writes: it never acts.
            await self._redis.delete(key)
            raise Busy("Your tokens changed while this one was made: make it again.")
        return MadeToken(token_id, label, now, token)

    async def listed(self, player: Player) -> list[TokenInfo]:
        kept = await self._redis.hgetall(player_key(player.name, ":tokens"))  # type: ignore[misc]
        for gone in await self._without_keys(player, kept):
            del kept[gone]
        used = await self._redis.hgetall(player_key(player.name, ":used"))  # type: ignore[misc]
        listed = []
        for raw_id, raw in kept.items():
            token_id, info = raw_id.decode(), msgspec.json.decode(raw, type=Kept)
            last = used.get(raw_id)
            listed.append(
                TokenInfo(token_id, info.label, info.created, int(last) if last else None)
            )
        return sorted(listed, key=lambda t: t.created)

    async def _without_keys(
        self, player: Player, kept: dict[bytes, bytes] | None = None
    ) -> list[bytes]:
        """Take off the player's list (`kept`, if read already) the tokens older than the grace
        whose keys are gone (a process died between a make's or a revoke's two writes); their
        ids."""
        index = player_key(player.name, ":tokens")
        if kept is None:
            kept = await self._redis.hgetall(index)  # type: ignore[misc]
        oldest = int(time.time() * 1000) - self.grace_ms
        old = {}
        for raw_id, raw in kept.items():
            info = msgspec.json.decode(raw, type=Kept)
            if info.created <= oldest:
                old[raw_id] = info.digest
        if not old:
            return []
        async with self._redis.pipeline(transaction=False) as pipe:
            for digest in old.values():  # one key each: tokens lie on many slots of a cluster
                pipe.exists(f"ptoken:{digest}")
            found = await pipe.execute()
        gone = [raw_id for raw_id, there in zip(old, found, strict=True) if not there]
        if gone:
            ids = [g.decode() for g in gone]
            await self._redis.hdel(index, *ids)  # type: ignore[misc]
            await self._redis.hdel(player_key(player.name, ":used"), *ids)  # type: ignore[misc]
        return gone

    async def revoke(self, player: Player, token_id: str) -> None:
        index = player_key(player.name, ":tokens")
        raw = await self._redis.hget(index, token_id) if len(token_id) <= 32 else None  # type: ignore[misc]
        if raw is None:
            raise NoSuchToken("You have no token with that id.")
        kept = msgspec.json.decode(raw, type=Kept)
        await self._redis.delete(f"ptoken:{kept.digest}")
        await self._redis.hdel(index, token_id)  # type: ignore[misc]
        await self._redis.hdel(player_key(player.name, ":used"), token_id)  # type: ignore[misc]
        await announce(self._redis, [f"ptoken:{kept.digest}"])

    async def revoke_all(self, player: Player) -> None:
        """Revoke every token of the player (a ban, a deleted account)."""
        index = player_key(player.name, ":tokens")
        kept = await self._redis.hgetall(index)  # type: ignore[misc]
        digests = [msgspec.json.decode(raw, type=Kept).digest for raw in kept.values()]
        for digest in digests:  # one key each: tokens lie on many slots of a cluster
            await self._redis.delete(f"ptoken:{digest}")
        await self._redis.delete(index, player_key(player.name, ":used"))
        await announce(self._redis, [f"ptoken:{d}" for d in digests])

    async def player(self, token: str) -> Player | None:
        """Whose token this is (its use noted); None for one that is unknown or revoked."""
        if TOKEN.fullmatch(token) is None:
            return None
        raw = await self._redis.get(f"ptoken:{_digest(token)}")
        if raw is None:
            return None
        owner = msgspec.json.decode(raw, type=Owner)
        now = int(time.time() * 1000)
        if now - self._written.get(owner.id, 0) >= _USE_EVERY_MS:
            self._written[owner.id] = now
            if len(self._written) > 10_000:
                self._written.clear()
            await self._redis.hset(player_key(owner.player.name, ":used"), owner.id, str(now))  # type: ignore[misc]
        return owner.player
