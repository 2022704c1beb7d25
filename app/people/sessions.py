"""Browser sessions, kept in Redis: an HttpOnly cookie holds the player's key and a random id,
Redis what they mean.

The cookie is `KEY.ID` (KEY the player's name in lower case, ID 43 random characters). All of a
session's keys carry the player's hash tag, so one script writes them together on one slot of a
cluster: `player:{KEY}:session:DIGEST` (DIGEST: the cookie's SHA-256, so that what Redis holds
opens no session) holds the player for `SESSION_DAYS`; `player:{KEY}:sessions` the digests of
the player's sessions, so that changing the password closes them all. A session is written with
its place in that index, and closing every session reads and deletes them in the same step: no
process that dies, and no login that races a password change, leaves a session that the next
change of password misses. A session is only ever made new (logging in, signing up, changing
the password): an id a browser brings is never given a player (no fixation). Closing a session
(logging out, a changed password) tells every API process, which ends the streams and sockets it
had opened (`app.store.ends`: its key, never the id).

Litestar's own server-side sessions were measured against this: they write the store on every
answer, make a stored session for each request without a cookie, and keep the id a request
brings when the session is set (a fixed id stays), so they are not used.
"""

from __future__ import annotations

import hashlib
import re
import secrets

import msgspec
from redis.asyncio import Redis

from app.people.accounts import Player
from app.people.names import player_key
from app.people.tokens import PersonalTokens
from app.store.ends import announce

COOKIE = "session"
_COOKIE = re.compile(r"([a-z0-9_-]{3,20})\.[A-Za-z0-9_-]{43}")
_decode = msgspec.json.Decoder(Player)

# KEYS: the session, the player's index. ARGV: the player, the session's digest, seconds.
_OPEN = """
redis.call('SET', KEYS[1], ARGV[1], 'EX', ARGV[3])
redis.call('SADD', KEYS[2], ARGV[2])
redis.call('EXPIRE', KEYS[2], ARGV[3])
return 1
"""
# KEYS: the session, the player's index. ARGV: the session's digest. Its player, or nil.
_CLOSE = """
local found = redis.call('GET', KEYS[1])
if not found then return false end
redis.call('DEL', KEYS[1])
redis.call('SREM', KEYS[2], ARGV[1])
return found
"""
# KEYS: the player's index. ARGV: the prefix of the player's sessions' keys (the same slot).
# Deletes every session of the index and the index; their digests.
_CLOSE_ALL = """
local digests = redis.call('SMEMBERS', KEYS[1])
for _, digest in ipairs(digests) do redis.call('DEL', ARGV[1] .. digest) end
redis.call('DEL', KEYS[1])
return digests
"""


def _sessions_of(key: str) -> str:
    """The prefix of a player's sessions' keys."""
    return player_key(key, ":session:")


def _keys_of(session_id: str | None) -> tuple[str, str, str] | None:
    """The session's key, its player's index and its digest; None for a malformed id."""
    if session_id is None or (found := _COOKIE.fullmatch(session_id)) is None:
        return None
    digest = hashlib.sha256(session_id.encode()).hexdigest()
    player = found.group(1)
    return _sessions_of(player) + digest, player_key(player, ":sessions"), digest


def identity_of(session_id: str, player: Player) -> tuple[str, ...]:
    """The keys of a session's identity (`app.store.ends`): the session's, then its player's."""
    keys = _keys_of(session_id)
    assert keys is not None, "a session's identity is asked only of a session found"
    return (keys[0], player_key(player.name))


class Sessions:
    def __init__(self, redis: Redis, seconds: int) -> None:
        self._redis = redis
        self.seconds = seconds
        self._open = redis.register_script(_OPEN)
        self._close = redis.register_script(_CLOSE)
        self._close_all = redis.register_script(_CLOSE_ALL)

    async def open(self, player: Player) -> str:
        """A new session of the player: its id, for the cookie (and nowhere else)."""
        session_id = f"{player.key}.{secrets.token_urlsafe(32)}"
        keys = _keys_of(session_id)
        assert keys is not None, "a player's key is a name in lower case"
        key, index, digest = keys
        await self._open(
            keys=[key, index], args=[msgspec.json.encode(player), digest, self.seconds]
        )
        return session_id

    async def player(self, session_id: str | None) -> Player | None:
        """Whose session this is; None for an id that is malformed, closed or too old."""
        keys = _keys_of(session_id)
        if keys is None:
            return None
        found = await self._redis.get(keys[0])
        return None if found is None else _decode.decode(found)

    async def close(self, session_id: str | None) -> None:
        keys = _keys_of(session_id)
        if keys is None:
            return
        key, index, digest = keys
        if await self._close(keys=[key, index], args=[digest]) is not None:
            await announce(self._redis, [key])

    async def close_all(self, player: Player) -> None:
        """Close every session of the player (a changed password)."""
        prefix = _sessions_of(player.key)
        index = player_key(player.key, ":sessions")
        digests = await self._close_all(keys=[index], args=[prefix])
        await announce(self._redis, [prefix + d.decode() for d in digests])


async def end_player(sessions: Sessions, tokens: PersonalTokens, player: Player) -> None:
    """End every identity of the player, in every API process: its sessions, its personal
    tokens, and the streams and sockets opened with any of them. What a ban or the deletion
    of an account is to call (neither exists yet)."""
    await sessions.close_all(player)
    await tokens.revoke_all(player)
    await announce(sessions._redis, [player_key(player.name)])
