"""Where each game is in its life, for the retention policy: running, ended, archived.

Four sorted sets, game id by time (ms): ``games:running`` (by creation), ``games:ended`` (by
the end, not yet archived), ``games:archived`` (by the end) and ``games:kept`` (archived games
that are never deleted, by the end: their players' records are made from them). The retention
job reads them in slices, so its cost grows with the games it has work for, never with all
games.

Archiving a finished game replaces its stream by one compressed string
``game:{ID}:archive`` (every record's time, cause and data), drops its idempotency keys'
worth of nothing (they expire a day after the last command) and marks its meta `archived`;
`read_archive` reads it back as stored events. The game's chat (``game:{ID}:chat``) is no
event: archiving leaves it readable, and deleting the game deletes it.
"""

from __future__ import annotations

import asyncio
import zlib

import msgspec
from redis.asyncio import Redis

from app.store.events import GONE, StoredEvent, news_channel
from app.store.pipe import Pipe

RUNNING, ENDED, ARCHIVED = "games:running", "games:ended", "games:archived"
KEPT = "games:kept"

# KEYS: version, events, archive, meta. ARGV: version, blob, archived meta field.
# Archives only a game still at `version`; replies 1 when done, 0 when the game moved on.
_ARCHIVE = """
if tonumber(redis.call('GET', KEYS[1])) ~= tonumber(ARGV[1]) then return 0 end
redis.call('SET', KEYS[3], ARGV[2])
redis.call('DEL', KEYS[2])
redis.call('HSET', KEYS[4], 'archived', ARGV[3])
return 1
"""

_records = msgspec.msgpack.Encoder()
_decode_records = msgspec.msgpack.Decoder(list[tuple[int, int | None, bytes]])


def _key(game_id: str, suffix: str) -> str:
    return f"game:{{{game_id}}}:{suffix}"


class Lifecycle:
    """The indexes of running, ended and archived games, and the archive itself."""

    def __init__(self, redis: Redis, pipe: Pipe | None = None) -> None:
        self._redis = redis
        self._archive = redis.register_script(_ARCHIVE)
        self._pipe = pipe  # a game's end goes through it when given (`app.store.pipe`)

    async def started(self, game_id: str, created: int) -> None:
        await self._redis.zadd(RUNNING, {game_id: created})

    async def ended(self, game_id: str, at: int) -> None:
        """The game moves from the running index to the ended one (on the command path: through
        the pipe, where a redis-py pipeline cost about 2% of a socket game's CPU)."""
        if self._pipe is not None:
            await asyncio.gather(
                self._pipe.call("ZREM", RUNNING, game_id),
                self._pipe.call("ZADD", ENDED, at, game_id),
            )
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(RUNNING, game_id)
            pipe.zadd(ENDED, {game_id: at})
            await pipe.execute()

    async def before(self, index: str, ms: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` (game id, time) of an index with a time before `ms`, oldest first."""
        found = await self._redis.zrangebyscore(
            index, "-inf", ms, start=0, num=limit, withscores=True
        )
        return [(member.decode(), int(score)) for member, score in found]

    async def forget(self, index: str, game_id: str) -> None:
        await self._redis.zrem(index, game_id)

    async def archive(self, game_id: str, version: int, stored: list[StoredEvent]) -> bool:
        """Replace the game's stream by its compressed archive, if it is still at `version`."""
        blob = zlib.compress(_records.encode([(s.at, s.by, s.data) for s in stored]), 6)
        keys = [_key(game_id, s) for s in ("version", "events", "archive", "meta")]
        done = bool(await self._archive(keys=keys, args=[version, blob, "true"]))
        if done:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.zrem(ENDED, game_id)
                pipe.zadd(ARCHIVED, {game_id: stored[-1].at if stored else 0})
                await pipe.execute()
        return done

    async def keep(self, game_id: str, ended: int) -> None:
        """Never delete this archived game: move it from the archived index to the kept one."""
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(ARCHIVED, game_id)
            pipe.zadd(KEPT, {game_id: ended})
            await pipe.execute()

    async def read_archive(
        self, game_id: str, after: int = 0, count: int | None = None
    ) -> list[StoredEvent]:
        """The archived events with version > `after` (at most `count`); [] if not archived."""
        blob = await self._redis.get(_key(game_id, "archive"))
        if blob is None:
            return []
        records = _decode_records.decode(zlib.decompress(blob))
        end = len(records) if count is None else min(len(records), after + count)
        return [
            StoredEvent(v, records[v - 1][2], *records[v - 1][:2])
            for v in range(after + 1, end + 1)
        ]

    async def delete(self, game_id: str, lobby: str) -> None:
        """Remove every key of the game and its entries in the indexes and the lobby, then
        announce it on the game's news channel (`GONE`): the processes that stream it end its
        streams and forget it (the others find it gone at their next load)."""
        keys = [_key(game_id, s) for s in ("version", "events", "archive", "meta", "chat")]
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.delete(*keys)
            for index in (RUNNING, ENDED, ARCHIVED, KEPT, lobby):
                pipe.zrem(index, game_id)
            pipe.execute_command("SPUBLISH", news_channel(game_id), GONE)
            await pipe.execute()
