"""Open tables in Redis: a table that forms before its game starts (who sits, who is awaited).

"Table" in the rest of `app/` names a game as the service has loaded it; here it is the table
people gather at, which becomes a game when it starts (`app.people.hosting`).

One hash per table, `table:{ID}:seats`, so a table lives on one cluster slot: `plan` (what
does not change, JSON: `Plan`), `status` (`forming`, `starting` while its game is being made,
with `since`, `started` with `game_id` and `at`, `closed`), `creator`, `closes` (ms), `n` and
`min` (seats, and the game's minimum), per seat i: `t:i` (open, ai or player), `r:i` (the
player a seat is reserved for), `p:i`/`pn:i` (the key and name of who sits), `d:i` (the
reservation was declined); and `v`, its version. Each move is decided in Python on the table
as read (`app.people.forming`) and written by one script only if `v` is still the one read
(`table_scripts.WRITE`), else decided again: two players racing for the last seat, the
second finds the table full. A forming table expires a day after it closes
(`TABLE_OPEN_MINUTES` after it opened); a started or closed one a day after that.

The indexes are hints, each read against the table itself (and pruned when wrong):
`tables:forming` (the lobby, score = when the table closes), `player:{KEY}:tables` (the
tables a player sits or is awaited at, the same score), `player:{KEY}:games` (the games a
player plays, score = when made); `tables:version` goes up with every change (the lobby's
stream watches it). `tables:starting` notes each start until all of it is written (the table
and, on other slots, the players' indexes): the sweep finishes what a stopped process left.
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import TypeVar

import msgspec
from redis.asyncio import Redis

from app.commands.errors import Busy
from app.commands.table import wall_ms
from app.people import forming
from app.people import table_scripts as lua
from app.people.forming import Plan, Stored
from app.people.names import player_key
from app.people.table_errors import refused

LOBBY_KEY = "tables:forming"
VERSION_KEY = "tables:version"
#: The tables whose start began and is not wholly written (score: when it began, ms).
STARTING_KEY = "tables:starting"
KEEP_MS = 86_400_000  # a started or closed table still answers for a day
#: How many times a move is decided again when another process wrote the table meanwhile.
ATTEMPTS = 32

T = TypeVar("T")


def table_key(table_id: str) -> str:
    return f"table:{{{table_id}}}:seats"


def valid_id(table_id: str) -> bool:
    return 0 < len(table_id) <= 64 and all(c.isalnum() or c in "-_" for c in table_id)


class Tables:
    """The open tables of the service, on `redis` (a bytes client); `clock`: ms."""

    def __init__(self, redis: Redis, clock: Callable[[], int] = wall_ms) -> None:
        self._redis = redis
        self.clock = clock
        self._create = redis.register_script(lua.CREATE)
        self._write = redis.register_script(lua.WRITE)
        self._forget_if = redis.register_script(lua.FORGET)

    async def create(
        self, plan: Plan, sitting: dict[int, tuple[str, str]], table_id: str | None = None
    ) -> str | None:
        """Open a table (`sitting`: seat -> key and name of who sits at once); its id, or
        None when a table of that `table_id` exists already."""
        table = forming.opened(table_id or secrets.token_hex(8), plan, sitting)
        fields = {"plan": msgspec.json.encode(plan).decode(), **table.fields}
        awaited = {s.reserved for s in plan.seats if s.reserved} | {k for k, _ in sitting.values()}
        await self.note(awaited, table.id, plan.closes_at)
        keep = plan.closes_at - self.clock() + KEEP_MS
        args: list[str | int] = [keep, *(item for pair in fields.items() for item in pair)]
        if not int(await self._create(keys=[table_key(table.id)], args=args)):
            return None
        await self._redis.zadd(LOBBY_KEY, {table.id: plan.closes_at})
        await self.changed()
        return table.id

    async def read(self, table_id: str) -> Stored | None:
        """The table, or None (an unknown id, or a table whose keys have expired)."""
        if not valid_id(table_id):
            return None
        raw = await self._redis.hgetall(table_key(table_id))  # type: ignore[misc]
        return _stored(table_id, raw)

    async def read_many(self, table_ids: Sequence[str]) -> list[Stored | None]:
        """Several tables in one round trip."""
        async with self._redis.pipeline(transaction=False) as pipe:
            for table_id in table_ids:
                pipe.hgetall(table_key(table_id))
            replies = await pipe.execute()
        return [_stored(t, raw) for t, raw in zip(table_ids, replies, strict=True)]

    async def join(
        self,
        table_id: str,
        key: str,
        name: str,
        seat: int | None,
        admit: Callable[[Stored], Awaitable[None]] | None = None,
    ) -> tuple[int, bool]:
        """Sit `key` at the table: at `seat`, else at the seat kept for them, else at the
        first open one. The seat, and whether the table is full now. `admit` may refuse
        them first, given the table as read."""
        stored = await self._read(table_id)
        if admit is not None:
            await admit(stored)
        await self.note({key}, table_id, stored.plan.closes_at)
        try:
            after, taken = await self._move(
                table_id, lambda t: forming.join(t, key, name, seat, self.clock())
            )
        except Exception:
            if key not in stored.players():
                await self.forget({key}, table_id)
            raise
        await self.changed()
        return taken, after.full()

    async def leave(self, table_id: str, key: str) -> bool:
        """Stand `key` up; True when that closed the table (its creator left)."""
        after, seat = await self._move(table_id, lambda t: forming.leave(t, key, self.clock()))
        await self._after_leaving(after, key)
        return seat is None

    async def decline(self, table_id: str, key: str) -> bool:
        """Drop the seat kept for `key`; whether the table is full now (False once closed)."""
        after, _ = await self._move(
            table_id, lambda t: (forming.decline(t, key, self.clock()), None)
        )
        await self._after_leaving(after, key)
        return after.kept_status == "forming" and after.full()

    async def freeze(self, table_id: str, asker: str | None) -> Stored:
        """Freeze the seats for the start, asked by `asker` (None: the table itself, which
        asked to start when full, and is): the table, `starting` (its game is to be made)
        or `started` already. The start is noted first in `STARTING_KEY`, for the sweep."""

        async def noted(before: Stored, after: Stored) -> None:
            if after.kept_status == "starting" != before.kept_status:
                await self._redis.zadd(STARTING_KEY, {table_id: int(after.fields["since"])})

        after, _ = await self._move(
            table_id, lambda t: (forming.freeze(t, asker, self.clock()), None), noted
        )
        return after

    async def thaw(self, table_id: str) -> None:
        """A starting table forms again (its game could not be made): back in the lobby and
        its players' indexes (a reader may have pruned them of it while it was starting)."""
        after, _ = await self._move(table_id, lambda t: (forming.thaw(t), None))
        if after.kept_status == "forming":
            await self.note(after.players(), table_id, after.plan.closes_at)
            await self._redis.zadd(LOBBY_KEY, {table_id: after.plan.closes_at})
        await self._redis.zrem(STARTING_KEY, table_id)
        await self.changed()

    async def finish(self, table_id: str, game_id: str) -> Stored:
        """The game of the starting table is made: the table has started (one write), then
        its players' indexes move from the table to the game (`settle`)."""
        after, _ = await self._move(
            table_id, lambda t: (forming.finish(t, game_id, self.clock()), None)
        )
        await self.settle(after)
        return after

    async def settle(self, started: Stored) -> None:
        """Write what follows a table's start, in the indexes of other slots: each seated
        player's games gain the game, their tables and the lobby lose the table; then the
        start is done (out of `STARTING_KEY`). Safe to do again: the sweep does it again
        for a start whose process stopped before it (`app.people.starting`)."""
        game_id, at = started.fields["game_id"], int(started.fields.get("at", "0"))
        async with self._redis.pipeline(transaction=False) as pipe:
            for number in range(len(started.plan.seats)):
                if (sitter := started.sitter(number)) is not None:
                    pipe.zadd(player_key(sitter[0], ":games"), {game_id: at})
            for key in started.players():
                pipe.zrem(player_key(key, ":tables"), started.id)
            pipe.zrem(LOBBY_KEY, started.id)
            await pipe.execute()
        await self._redis.zrem(STARTING_KEY, started.id)
        await self.changed()

    async def starts_left(self, limit: int = 100) -> list[tuple[str, int]]:
        """The starts noted `STUCK_MS` ago or more and not done: each table's id and when."""
        before = self.clock() - forming.STUCK_MS
        found = await self._redis.zrangebyscore(
            STARTING_KEY, "-inf", before, start=0, num=limit, withscores=True
        )
        return [(member.decode(), int(score)) for member, score in found]

    async def start_dropped(self, table_id: str, noted: int) -> None:
        """Forget the start of a table that forms again (or is gone), unless it was noted
        again meanwhile."""
        await self._forget_if(keys=[STARTING_KEY], args=[table_id, noted])

    async def forming(self, limit: int = 200) -> list[Stored]:
        """The forming tables, newest first (the lobby's index pruned of the others)."""
        return await self._indexed(LOBBY_KEY, limit, lambda stored: True)

    async def of_player(self, key: str, limit: int = 100) -> list[Stored]:
        """The forming tables `key` sits or is awaited at, newest first."""
        index = player_key(key, ":tables")
        return await self._indexed(index, limit, lambda stored: key in stored.players())

    async def games_of(self, key: str, limit: int = 200) -> list[str]:
        """The ids of the games `key` plays or played at a table's seat, newest first."""
        index = player_key(key, ":games")
        return [i.decode() for i in await self._redis.zrevrange(index, 0, limit - 1)]

    async def note(self, keys: set[str], table_id: str, closes_at: int) -> None:
        """Note the table in each player's index, before they are seated there: an index
        may say more than the tables, never less."""
        if keys:
            async with self._redis.pipeline(transaction=False) as pipe:
                for key in keys:
                    pipe.zadd(player_key(key, ":tables"), {table_id: closes_at})
                await pipe.execute()

    async def forget(self, keys: set[str], table_id: str) -> None:
        async with self._redis.pipeline(transaction=False) as pipe:
            for key in keys:
                pipe.zrem(player_key(key, ":tables"), table_id)
            await pipe.execute()

    async def version(self) -> int:
        """The count of changes to any table (what the lobby's streams watch)."""
        found = await self._redis.get(VERSION_KEY)
        return int(found) if found is not None else 0

    async def changed(self) -> None:
        await self._redis.incr(VERSION_KEY)

    async def _indexed(
        self, index: str, limit: int, belongs: Callable[[Stored], bool]
    ) -> list[Stored]:
        """The forming tables of an index that `belong` there, newest first; the index is
        pruned of the others (closed by time, started, gone)."""
        now = self.clock()
        await self._redis.zremrangebyscore(index, "-inf", now)
        ids = [i.decode() for i in await self._redis.zrevrange(index, 0, limit - 1)]
        found = await self.read_many(ids)
        kept = [s for s in found if s and s.status(now) == "forming" and belongs(s)]
        if gone := set(ids) - {s.id for s in kept}:
            await self._redis.zrem(index, *gone)
        return kept

    async def _after_leaving(self, after: Stored, key: str) -> None:
        """Once `key` stood up or declined: out of their index, unless a seat still waits for
        them; out of everyone's and the lobby's, if the table closed."""
        if after.kept_status == "closed":
            await self._redis.zrem(LOBBY_KEY, after.id)
            await self.forget(after.players() | {key}, after.id)
        elif key not in after.players():
            await self.forget({key}, after.id)
        await self.changed()

    async def _read(self, table_id: str) -> Stored:
        stored = await self.read(table_id)
        if stored is None:
            raise refused("unknown_table")
        return stored

    async def _move(
        self,
        table_id: str,
        move: Callable[[Stored], tuple[Stored, T]],
        first: Callable[[Stored, Stored], Awaitable[None]] | None = None,
    ) -> tuple[Stored, T]:
        """Read the table, decide the move on it (`app.people.forming`), and write the table
        it answers only if nobody wrote it meanwhile (its version); else read and decide
        again. The table as written, and what the move answered besides. `first(before,
        after)` is awaited before each write."""
        for _ in range(ATTEMPTS):
            before = await self._read(table_id)
            after, answer = move(before)
            if after is before:
                return after, answer
            if first is not None:
                await first(before, after)
            if await self._written(before, after):
                return after, answer
        raise Busy("This table changes too fast just now: try again.")

    async def _written(self, before: Stored, after: Stored) -> bool:
        """Write `after` over `before` if the table is still at `before`'s version."""
        drop = [k for k in before.fields if k not in after.fields and k != "v"]
        put = [
            item
            for k, value in after.fields.items()
            if k != "v" and before.fields.get(k) != value
            for item in (k, value)
        ]
        ending = ("started", "closed")
        ends = after.kept_status in ending and before.kept_status not in ending
        keep = KEEP_MS if ends else ""
        args = [before.version, keep, len(drop), *drop, *put]
        return bool(int(await self._write(keys=[table_key(before.id)], args=args)))


_plan = msgspec.json.Decoder(Plan)


def _stored(table_id: str, raw: dict[bytes, bytes]) -> Stored | None:
    if not raw or b"plan" not in raw:
        return None
    fields = {k.decode(): v.decode() for k, v in raw.items()}
    return Stored(table_id, _plan.decode(fields.pop("plan")), fields)
