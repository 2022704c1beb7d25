"""The event store: one Redis stream per game, appended atomically by Lua scripts.

Keys of one game all carry the game id as a hash tag, so a game lives on one Redis Cluster slot:
``game:{ID}:events`` (stream, entry id ``0-<version>``, fields ``d``: the encoded event, ``at``:
the server time of its append in ms, ``by``: the seat that caused it, empty for the system),
``game:{ID}:version`` (string int), ``game:{ID}:meta`` (hash) and ``game:{ID}:cmd:KEY``
(idempotency, ``first:last``); every create and append publishes the new version on the
shard channel ``game:{ID}:news`` (SPUBLISH, `app.live.hub` listens), and a deletion publishes
`GONE` there (`app.store.lifecycle`). The lobby index
``games:lobby`` (sorted set, score = creation time in ms) is a key of its own (one slot of a
cluster). No command touches two slots and no transaction spans keys of two games, so the
store runs on a Redis Cluster as on one Redis.
"""

from __future__ import annotations

from collections.abc import Awaitable, Sequence
from typing import cast

import msgspec
from redis.asyncio import Redis

from app.store.pipe import Pipe

LOBBY_KEY = "games:lobby"
#: The version a game's news carries once the game is deleted: it is gone, in every process.
GONE = -1

# KEYS: version, meta, events. ARGV: n_meta, k1, v1, ..., kn, vn, then for each event its
# data, time and cause (d1, at1, by1, d2, ...), or (`Packed`) one JSON array of them all.
_CREATE = """
if redis.call('EXISTS', KEYS[1], KEYS[2], KEYS[3]) > 0 then return {0} end
local n_meta = tonumber(ARGV[1])
local first_event = 2 + 2 * n_meta
local rows, first = ARGV, first_event
if ARGV[first_event] == 'packed' then rows, first = cjson.decode(ARGV[first_event + 1]), 1 end
local v = 0
for i = first, #rows, 3 do
  v = v + 1
  local id = string.format('0-%d', v)
  redis.call('XADD', KEYS[3], id, 'd', rows[i], 'at', rows[i + 1], 'by', rows[i + 2])
end
redis.call('SET', KEYS[1], v)
if n_meta > 0 then redis.call('HSET', KEYS[2], unpack(ARGV, 2, first_event - 1)) end
redis.call('SPUBLISH', string.sub(KEYS[1], 1, -8) .. 'news', v)
return {1, v}
"""

# KEYS: version, events, meta[, cmd]. ARGV: expected, ttl, at, by, n_meta, k1, v1, ..., event1,
# ... Replies {2, "first:last"} on a replay, {0, current} on a conflict, {-1} for an unknown
# game, {1, first, last} on success. The XADDs come first: only the first one can fail (a
# stream ahead of its version key), and a failing script keeps the writes it made before the
# error.
_APPEND = """
if #KEYS == 4 then
  local seen = redis.call('GET', KEYS[4])
  if seen then return {2, seen} end
end
local current = tonumber(redis.call('GET', KEYS[1]))
if not current then return {-1} end
if current ~= tonumber(ARGV[1]) then return {0, current} end
local n_meta = tonumber(ARGV[5])
local first_event = 6 + 2 * n_meta
local v = current
for i = first_event, #ARGV do
  v = v + 1
  redis.call('XADD', KEYS[2], string.format('0-%d', v), 'd', ARGV[i], 'at', ARGV[3], 'by', ARGV[4])
end
redis.call('SET', KEYS[1], v)
if n_meta > 0 then redis.call('HSET', KEYS[3], unpack(ARGV, 6, first_event - 1)) end
if #KEYS == 4 then redis.call('SET', KEYS[4], (current + 1) .. ':' .. v, 'EX', ARGV[2]) end
redis.call('SPUBLISH', string.sub(KEYS[1], 1, -8) .. 'news', v)
return {1, current + 1, v}
"""
_APPEND_SOURCE = _APPEND.encode()


# KEYS: lobby. ARGV: start, stop. Replies {total, ids} read at one instant (one key: one slot,
# where a transaction would be refused by a cluster client).
_LOBBY_PAGE = """
return {redis.call('ZCARD', KEYS[1]), redis.call('ZREVRANGE', KEYS[1], ARGV[1], ARGV[2])}
"""


class StoredEvent(msgspec.Struct, frozen=True):
    """One event of a game's log, with when it was appended and who caused it."""

    version: int  # 1-based position of the event in its game's log
    data: bytes  # the encoded event, opaque to the store
    at: int = 0  # server time of the append, ms since the epoch
    by: int | None = None  # the seat whose command made it; None for the system


class Packed(msgspec.Struct, frozen=True):
    """A game's first events packed for `EventStore.create` as one JSON array of their data,
    time and cause (strings; an empty cause for the system), made apart from the event loop
    (an imported log's events: encoding 15,000 of them as arguments held the loop half a
    second). `tail`: the last event of each cause, in order, which says where each seat
    stands (`Table.followed`)."""

    rows: bytes
    tail: tuple[StoredEvent, ...]

    @classmethod
    def of(cls, events: Sequence[StoredEvent]) -> Packed:
        rows = [
            field
            for e in events
            for field in (e.data.decode(), str(e.at), "" if e.by is None else str(e.by))
        ]
        last = {e.by: e for e in events}
        tail = tuple(sorted(last.values(), key=lambda e: e.version))
        return cls(msgspec.json.encode(rows), tail)


class AppendResult(msgspec.Struct, frozen=True):
    """The outcome of an append (or of a create)."""

    first: int  # version of the first event written (of the original append, on a replay)
    last: int  # version after the append
    replayed: bool  # True when the idempotency key had been seen: nothing was written


class VersionConflict(Exception):
    """The expected version is not the game's current version; nothing was written."""

    def __init__(self, game_id: str, expected: int, actual: int) -> None:
        super().__init__(f"game {game_id}: expected version {expected}, current is {actual}")
        self.game_id = game_id
        self.expected = expected
        self.actual = actual


class GameExists(Exception):
    """A game with this id already exists; nothing was written."""


class GameNotFound(LookupError):
    """Append to a game that was never created; nothing was written."""


def news_channel(game_id: str) -> str:
    """The shard channel on which every append of the game publishes its new version."""
    return f"game:{{{game_id}}}:news"


def _check_id(value: str, what: str) -> str:
    if not value or "{" in value or "}" in value:
        raise ValueError(f"invalid {what} {value!r}: must be non-empty, without braces")
    return value


def _flatten(meta: dict[str, str] | None) -> list[str]:
    return [item for pair in (meta or {}).items() for item in pair]


def _stored(stream_id: bytes, fields: dict[bytes, bytes]) -> StoredEvent:
    """An entry as stored: entries from before events carried their time read as time 0."""
    by = fields.get(b"by")
    return StoredEvent(
        int(stream_id.split(b"-", 1)[1]),
        fields[b"d"],
        int(fields.get(b"at", 0)),
        int(by) if by else None,
    )


_WRITTEN = [b"d", b"at", b"by"]  # an entry's fields, in the order the scripts write them


def _entry(stream_id: bytes, fields: list[bytes]) -> StoredEvent:
    """An entry as XRANGE answers it (fields and values in turn): read in place when its
    fields are the scripts' in their order, else by name."""
    if fields[0::2] == _WRITTEN:
        by = fields[5]
        return StoredEvent(
            int(stream_id.split(b"-", 1)[1]), fields[1], int(fields[3]), int(by) if by else None
        )
    return _stored(stream_id, dict(zip(fields[::2], fields[1::2], strict=True)))


class EventStore:
    """Event logs of games in Redis.

    `redis` must be a client WITHOUT ``decode_responses`` (events are bytes). The Lua scripts are
    registered once per store; redis-py loads them again by itself after a server restart.
    """

    def __init__(
        self, redis: Redis, *, idempotency_ttl: int = 86400, pipe: Pipe | None = None
    ) -> None:
        if idempotency_ttl <= 0:
            raise ValueError("idempotency_ttl must be positive")
        self._redis = redis
        self._pipe = pipe  # appends go through it when given (`app.store.pipe`)
        self._ttl = idempotency_ttl
        self._create = redis.register_script(_CREATE)
        self._append = redis.register_script(_APPEND)
        self._lobby_page = redis.register_script(_LOBBY_PAGE)

    @property
    def client(self) -> Redis:
        return self._redis

    @property
    def pipe(self) -> Pipe | None:
        """The store's shared connection, when it has one (a single Redis)."""
        return self._pipe

    async def close(self) -> None:
        """Close the store's own connection (its pipe); the client is the caller's."""
        if self._pipe is not None:
            await self._pipe.aclose()

    @staticmethod
    def _key(game_id: str, suffix: str) -> str:
        return f"game:{{{_check_id(game_id, 'game id')}}}:{suffix}"

    async def create(
        self,
        game_id: str,
        meta: dict[str, str],
        events: Sequence[bytes | StoredEvent] | Packed,
        created: int,
    ) -> AppendResult:
        """Create a game: its meta fields, its first events (versions 1..n) and its version.

        Plain `bytes` are stamped `created` and caused by the system; a `StoredEvent` keeps its
        own time and cause, as do `Packed` events (an imported log). Atomic (one script);
        raises `GameExists` if any key of the game exists. `events` may be empty (the game
        starts at version 0; the result is then first=1, last=0). The lobby entry (score
        `created`) is added afterwards, separately: the lobby key is not hash-tagged, so a
        crash in between leaves a game that is not listed.
        """
        keys = [self._key(game_id, "version"), self._key(game_id, "meta")]
        keys.append(self._key(game_id, "events"))
        args: list[bytes | str | int] = [len(meta), *_flatten(meta)]
        if isinstance(events, Packed):
            args += ["packed", events.rows]
            events = ()
        for event in events:
            if isinstance(event, StoredEvent):
                args += [event.data, event.at, "" if event.by is None else str(event.by)]
            else:
                args += [event, created, ""]
        reply = await self._create(keys=keys, args=args)
        if reply[0] == 0:
            raise GameExists(game_id)
        await self._redis.zadd(LOBBY_KEY, {game_id: created})
        return AppendResult(first=1, last=int(reply[1]), replayed=False)

    async def append(
        self,
        game_id: str,
        expected_version: int,
        events: list[bytes],
        *,
        at: int = 0,
        by: int | None = None,
        idempotency_key: str | None = None,
        meta: dict[str, str] | None = None,
    ) -> AppendResult:
        """Append `events`, stamped `at` and caused by seat `by` (None: the system), if the game
        is at `expected_version`, atomically (one script).

        With an `idempotency_key` already seen (within `idempotency_ttl` seconds) nothing is
        written and the original outcome is returned with ``replayed=True``, whatever the
        expected version. Otherwise raises `VersionConflict` if the version moved on, or
        `GameNotFound` for a game never created. `meta` fields are set with the events.
        """
        if not events:
            raise ValueError("nothing to append")
        game = f"game:{{{_check_id(game_id, 'game id')}}}:"
        keys = [f"{game}version", f"{game}events", f"{game}meta"]
        if idempotency_key is not None:
            keys.append(f"{game}cmd:{_check_id(idempotency_key, 'idempotency key')}")
        cause = "" if by is None else str(by)
        if meta:
            args: list[bytes | str | int] = [expected_version, self._ttl, at, cause, len(meta)]
            args += [*_flatten(meta), *events]
        else:
            args = [expected_version, self._ttl, at, cause, 0, *events]
        if self._pipe is None:
            reply = await self._append(keys=keys, args=args)
        else:
            reply = await self._pipe.script(_APPEND_SOURCE, self._append.sha, keys, args)
        status = reply[0]
        if status == 1:
            return AppendResult(first=int(reply[1]), last=int(reply[2]), replayed=False)
        if status == 2:
            first, last = bytes(reply[1]).split(b":")
            return AppendResult(first=int(first), last=int(last), replayed=True)
        if status == 0:
            raise VersionConflict(game_id, expected_version, int(reply[1]))
        raise GameNotFound(game_id)

    async def recall(self, game_id: str, idempotency_key: str) -> AppendResult | None:
        """The outcome of an earlier append made with this idempotency key, if any."""
        _check_id(idempotency_key, "idempotency key")
        seen = await self._redis.get(self._key(game_id, f"cmd:{idempotency_key}"))
        if seen is None:
            return None
        first, last = bytes(seen).split(b":")
        return AppendResult(first=int(first), last=int(last), replayed=True)

    async def version(self, game_id: str) -> int:
        """The game's current version (its number of events); 0 for an unknown game."""
        value = await self._redis.get(self._key(game_id, "version"))
        return int(value) if value is not None else 0

    async def ping(self) -> None:
        """Raises unless Redis answers."""
        await self._redis.ping()

    async def exists(self, game_id: str) -> bool:
        """Whether the game was created."""
        return bool(await self._redis.exists(self._key(game_id, "version")))

    async def meta(self, game_id: str) -> dict[str, str]:
        """The game's meta fields; {} for an unknown game."""
        pending = self._redis.hgetall(self._key(game_id, "meta"))
        raw = await cast("Awaitable[dict[bytes, bytes]]", pending)
        return {k.decode(): v.decode() for k, v in raw.items()}

    async def metas(self, game_ids: list[str]) -> list[dict[str, str]]:
        """The meta fields of several games in one round trip ({} for an unknown one)."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hgetall(self._key(game_id, "meta"))
            replies = await pipe.execute()
        return [{k.decode(): v.decode() for k, v in raw.items()} for raw in replies]

    async def read(
        self, game_id: str, after: int = 0, *, count: int | None = None
    ) -> list[StoredEvent]:
        """The game's events with version > `after`, in order (at most `count` of them)."""
        key, low = self._key(game_id, "events"), f"0-{after + 1}"
        if self._pipe is not None:
            more = () if count is None else ("COUNT", count)
            flat = await self._pipe.call("XRANGE", key, low, "+", *more)
            return [_entry(sid, fields) for sid, fields in flat]
        entries = await self._redis.xrange(key, min=low, max="+", count=count)
        return [_stored(sid, fields) for sid, fields in entries]

    async def since(self, game_id: str, version: int) -> list[StoredEvent] | None:
        """The game's events after `version`, read with event `version` itself (one read, as
        `read`): None when the stream does not hold that event (the game was deleted or its
        stream archived, or it has no events at all), where `read` would answer [] as for a
        game with nothing new."""
        stored = await self.read(game_id, after=max(version - 1, 0))
        if version == 0:
            return stored or None
        if not stored or stored[0].version != version:
            return None
        return stored[1:]

    async def wait(self, game_id: str, after: int, timeout_ms: int) -> list[StoredEvent]:
        """Events with version > `after`, waiting up to `timeout_ms` for some; [] on timeout.

        Note for callers: a blocking XREAD holds its connection for the whole wait. Give the
        waiting side (SSE subscribers) its own client and pool, so waiters never starve the
        appends of connections, and make sure that client's `socket_timeout` (if any) is longer
        than `timeout_ms`. ``timeout_ms=0`` would block forever: it is refused.
        """
        if timeout_ms <= 0:
            raise ValueError("timeout_ms must be positive")
        key = self._key(game_id, "events")
        reply = await self._redis.xread({key: f"0-{after}"}, block=timeout_ms)
        if not reply:
            return []
        # RESP2: [[key, entries]]; RESP3: {key: [entries]} (redis-py's parsers).
        groups = reply.values() if isinstance(reply, dict) else ([e] for _, e in reply)
        return [_stored(sid, f) for group in groups for entries in group for sid, f in entries]

    async def lobby(self, offset: int, limit: int) -> tuple[int, list[str]]:
        """(total number of games, ids of a page of them, newest first)."""
        if offset < 0 or limit < 0:
            raise ValueError("offset and limit must not be negative")
        if limit == 0:
            return int(await self._redis.zcard(LOBBY_KEY)), []
        total, ids = await self._lobby_page(keys=[LOBBY_KEY], args=[offset, offset + limit - 1])
        return int(total), [bytes(i).decode() for i in ids]
