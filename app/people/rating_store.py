"""Where the players' records live in Redis: one cluster slot per game title.

Every key of a title carries the hash tag ``{rate:TITLE}``, so that one Lua script writes a
game's record, its players and the leaderboard at once:

- ``g:ID``: a recorded game (`GameResult`, JSON);
- ``games``: every recorded game, scored by its end (ms); ``rated``: the rated ones;
- ``p:PLAYER``: a player's hash (``name``, ``mu``, ``sigma``, ``rated``, ``games``, ``wins``,
  ``total``, ``best``); ``h:PLAYER``: the player's games, ``r:PLAYER`` the rated ones, by end;
- ``board``: established players by shown rating; ``keys``: every key written (for a rebuild);
- ``lock``: who writes now: redis-py's `Lock` (a writer's token, with an expiry).

Every write is one script that first checks the writer's token in ``lock``: a writer whose hold
lapsed (another took the lock since) writes and deletes nothing, and is told so with redis-py's
`LockNotOwnedError`. Nothing here is a source of truth: all of it is rebuilt from the games'
logs.
"""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import Sequence

import msgspec
from redis.asyncio import Redis
from redis.asyncio.lock import Lock
from redis.exceptions import LockNotOwnedError

from app.people.results import GameResult, Skill

# KEYS: lock, keys, then the keys the operations name. ARGV: token, operations (JSON list of
# [op, key index, args...]: set, hset, zadd, zrem). Writes nothing unless `token` holds the lock.
_WRITE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for _, op in ipairs(cjson.decode(ARGV[2])) do
  local key = KEYS[op[2]]
  if op[1] == 'set' then redis.call('SET', key, op[3])
  elseif op[1] == 'hset' then redis.call('HSET', key, unpack(op, 3))
  elseif op[1] == 'zadd' then redis.call('ZADD', key, op[3], op[4])
  elseif op[1] == 'zrem' then redis.call('ZREM', key, op[3]) end
  if op[1] ~= 'zrem' then redis.call('SADD', KEYS[2], key) end
end
return 1
"""
# KEYS: lock, keys, then keys of the title to delete. ARGV: token. Deletes nothing unless
# `token` holds the lock.
_CLEAR = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
for i = 3, #KEYS do
  redis.call('DEL', KEYS[i])
  redis.call('SREM', KEYS[2], KEYS[i])
end
return 1
"""
#: Keys a clear deletes in one script.
CLEAR_BATCH = 500

_result = msgspec.json.Decoder(GameResult)
_encode = msgspec.json.Encoder()


class RatingsBusy(Exception):
    """Another writer held a title's records for too long; the work is tried again later."""


def title_key(game: str, suffix: str) -> str:
    return f"rate:{{rate:{game}}}:{suffix}"


class PlayerLine(msgspec.Struct):
    """A player's line at one title, as kept in ``p:PLAYER``."""

    name: str
    mu: float
    sigma: float
    rated: int = 0  # rated games
    games: int = 0  # every game recorded
    wins: int = 0
    total: int = 0  # the sum of the scores, for the mean
    best: int | None = None

    @property
    def skill(self) -> Skill:
        return Skill(self.mu, self.sigma)


def _line(fields: dict[bytes, bytes]) -> PlayerLine | None:
    if not fields:
        return None
    get = {k.decode(): v.decode() for k, v in fields.items()}
    best = get.get("best", "")
    return PlayerLine(
        get["name"], float(get["mu"]), float(get["sigma"]), int(get["rated"]),
        int(get["games"]), int(get["wins"]), int(get["total"]), int(best) if best else None,
    )  # fmt: skip


class Writes:
    """The operations of one write, gathered before the script runs."""

    def __init__(self, game: str) -> None:
        self.game = game
        self.keys: list[str] = []
        self.ops: list[list[object]] = []
        self._places: dict[str, int] = {}  # each key's place in `keys`

    def _at(self, suffix: str) -> int:
        key = title_key(self.game, suffix)
        place = self._places.get(key)
        if place is None:
            place = self._places[key] = len(self.keys)
            self.keys.append(key)
        return place + 3  # after the lock and `keys`; Lua counts from 1

    def record(self, result: GameResult) -> None:
        self.ops.append(["set", self._at(f"g:{result.id}"), _encode.encode(result).decode()])
        self.ops.append(["zadd", self._at("games"), result.ended, result.id])
        if result.rated:
            self.ops.append(["zadd", self._at("rated"), result.ended, result.id])
        for player in result.players:
            self.ops.append(["zadd", self._at(f"h:{player}"), result.ended, result.id])
            if result.rated:
                self.ops.append(["zadd", self._at(f"r:{player}"), result.ended, result.id])

    def player(self, key: str, line: PlayerLine, board: int | None) -> None:
        fields: list[object] = []
        for name in PlayerLine.__struct_fields__:
            value = getattr(line, name)
            fields += [
                name,
                repr(value) if isinstance(value, float) else ("" if value is None else value),
            ]
        self.ops.append(["hset", self._at(f"p:{key}"), *fields])
        if board is None:
            self.ops.append(["zrem", self._at("board"), key])
        else:
            self.ops.append(["zadd", self._at("board"), board, key])


class RatingStore:
    """The records of every title, on `redis` (a bytes client)."""

    def __init__(self, redis: Redis, lock_ms: int = 15_000, wait_s: float = 5.0) -> None:
        self.redis = redis
        self.lock_ms = lock_ms
        self.wait_s = wait_s  # how long a writer waits for another's lock
        self._write = redis.register_script(_WRITE)
        self._clear = redis.register_script(_CLEAR)

    async def lock(
        self, game: str, wait_s: float | None = None, hold_ms: int | None = None
    ) -> Lock:
        """Take the title's lock (waiting up to `wait_s`, by default `self.wait_s`), held for
        `hold_ms` (by default `self.lock_ms`) unless renewed (`Lock.reacquire`)."""
        held = Lock(
            self.redis,
            title_key(game, "lock"),
            timeout=(hold_ms or self.lock_ms) / 1000,
            sleep=0.02,
            blocking_timeout=self.wait_s if wait_s is None else wait_s,
            thread_local=False,  # one event loop: the token is the lock object's own
        )
        if not await held.acquire(token=secrets.token_hex(8)):
            raise RatingsBusy(f"the records of {game} are busy")
        return held

    async def unlock(self, held: Lock) -> None:
        """Let the lock go; one whose hold lapsed leaves the lock of whoever took it since."""
        with contextlib.suppress(LockNotOwnedError):
            await held.release()

    async def write(self, held: Lock, writes: Writes) -> None:
        keys = [title_key(writes.game, "lock"), title_key(writes.game, "keys"), *writes.keys]
        if not await self._write(keys=keys, args=[_token(held), _encode.encode(writes.ops)]):
            raise _lapsed(f"the lock of {writes.game}'s records lapsed: nothing written")

    async def result(self, game: str, game_id: str) -> GameResult | None:
        raw = await self.redis.get(title_key(game, f"g:{game_id}"))
        return None if raw is None else _result.decode(raw)

    async def results(self, game: str, ids: Sequence[str]) -> list[GameResult]:
        if not ids:
            return []
        raws = await self.redis.mget([title_key(game, f"g:{i}") for i in ids])
        return [_result.decode(raw) for raw in raws if raw is not None]

    async def line(self, game: str, player: str) -> PlayerLine | None:
        return _line(await self.redis.hgetall(title_key(game, f"p:{player}")))  # type: ignore[misc]

    async def lines(self, game: str, players: Sequence[str]) -> dict[str, PlayerLine]:
        found = {}
        for player in dict.fromkeys(players):
            line = await self.line(game, player)
            if line is not None:
                found[player] = line
        return found

    async def after(self, game: str, index: str, order: tuple[int, str]) -> list[str]:
        """The games of an index (``rated``, ``h:P``...) that come after `order`, in order."""
        found = await self.redis.zrangebyscore(
            title_key(game, index), order[0], "+inf", withscores=True
        )
        return [m.decode() for m, s in found if (int(s), m.decode()) > order]

    async def last_before(self, game: str, index: str, order: tuple[int, str]) -> str | None:
        """The last game of an index that comes before `order`."""
        found = await self.redis.zrevrangebyscore(
            title_key(game, index), order[0], "-inf", start=0, num=64, withscores=True
        )
        return next((m.decode() for m, s in found if (int(s), m.decode()) < order), None)

    async def newest(self, game: str, index: str, count: int) -> list[str]:
        return [
            m.decode() for m in await self.redis.zrevrange(title_key(game, index), 0, count - 1)
        ]

    async def board(self, game: str, count: int) -> list[tuple[str, int]]:
        found = await self.redis.zrevrange(title_key(game, "board"), 0, count - 1, withscores=True)
        return [(m.decode(), int(s)) for m, s in found]

    async def place(self, game: str, player: str) -> int | None:
        """The player's place on the title's leaderboard (1 is first), or None."""
        found = await self.redis.zrevrank(title_key(game, "board"), player)
        return None if found is None else int(found) + 1

    async def clear(self, game: str, held: Lock) -> None:
        """Delete every record of the title, its lock `held`: `CLEAR_BATCH` keys a script,
        each checking the token (`LockNotOwnedError` once it no longer holds)."""
        lock, index = title_key(game, "lock"), title_key(game, "keys")
        while True:
            batch = await self.redis.srandmember(index, CLEAR_BATCH)  # type: ignore[misc]
            if not await self._clear(keys=[lock, index, *batch], args=[_token(held)]):
                raise _lapsed(f"the lock of {game}'s records lapsed: nothing cleared")
            if len(batch) < CLEAR_BATCH:
                return


def _token(held: Lock) -> bytes:
    """The token of a lock taken (`RatingStore.lock`)."""
    token: bytes | None = held.local.token
    if token is None:
        raise _lapsed("the lock was let go")
    return token


def _lapsed(what: str) -> LockNotOwnedError:
    return LockNotOwnedError(what)  # type: ignore[no-untyped-call]
