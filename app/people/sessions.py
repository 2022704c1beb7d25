"""Browser sessions, kept in Redis: an HttpOnly cookie holds a random id, Redis what it means.

`session:DIGEST` (DIGEST: the id's SHA-256, so that what Redis holds opens no session) holds the
player for `SESSION_DAYS`; `player:{KEY}:sessions` the digests of the player's sessions, so that
changing the password closes them all. A session is only ever made new (logging in, signing
up, changing the password): an id a browser brings is never given a player (no fixation).
Closing a session (logging out, a changed password) tells every API process, which ends the
streams and sockets it had opened (`app.store.ends`: its key `session:DIGEST`, never the id).

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
_ID = re.compile(r"[A-Za-z0-9_-]{43}")
_decode = msgspec.json.Decoder(Player)


def _digest(session_id: str) -> str:
    return hashlib.sha256(session_id.encode()).hexdigest()


def identity_of(session_id: str, player: Player) -> tuple[str, ...]:
    """The keys of a session's identity (`app.store.ends`): the session's, then its player's."""
    return (f"session:{_digest(session_id)}", player_key(player.name))


class Sessions:
    def __init__(self, redis: Redis, seconds: int) -> None:
        self._redis = redis
        self.seconds = seconds

    async def open(self, player: Player) -> str:
        """A new session of the player: its id, for the cookie (and nowhere else)."""
        session_id = secrets.token_urlsafe(32)
        digest = _digest(session_id)
        await self._redis.set(f"session:{digest}", msgspec.json.encode(player), ex=self.seconds)
        index = player_key(player.name, ":sessions")
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.sadd(index, digest)
            pipe.expire(index, self.seconds)
            await pipe.execute()
        return session_id

    async def player(self, session_id: str | None) -> Player | None:
        """Whose session this is; None for an id that is malformed, closed or too old."""
        if session_id is None or _ID.fullmatch(session_id) is None:
            return None
        found = await self._redis.get(f"session:{_digest(session_id)}")
        return None if found is None else _decode.decode(found)

    async def close(self, session_id: str | None) -> None:
        if session_id is None or _ID.fullmatch(session_id) is None:
            return
        digest = _digest(session_id)
        found = await self._redis.getdel(f"session:{digest}")
        if found is not None:
            player = _decode.decode(found)
            await self._redis.srem(player_key(player.name, ":sessions"), digest)  # type: ignore[misc]
            await announce(self._redis, [f"session:{digest}"])

    async def close_all(self, player: Player) -> None:
        """Close every session of the player (a changed password)."""
        index = player_key(player.name, ":sessions")
        digests = [d.decode() for d in await self._redis.smembers(index)]  # type: ignore[misc]
        for digest in digests:  # one key each: sessions lie on many slots of a cluster
            await self._redis.delete(f"session:{digest}")
        await self._redis.delete(index)
        await announce(self._redis, [f"session:{d}" for d in digests])


async def end_player(sessions: Sessions, tokens: PersonalTokens, player: Player) -> None:
    """End every identity of the player, in every API process: its sessions, its personal
    tokens, and the streams and sockets opened with any of them. What a ban or the deletion
    of an account is to call (neither exists yet)."""
    await sessions.close_all(player)
    await tokens.revoke_all(player)
    await announce(sessions._redis, [player_key(player.name)])
