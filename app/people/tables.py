"""Open tables in Redis: a table that forms before its game starts (who sits, who is awaited).

"Table" in the rest of `app/` names a game as the service has loaded it; here it is the table
people gather at, which becomes a game when it starts (`app.people.hosting`).

One hash per table, `table:{ID}:seats`, so a table lives on one cluster slot and each move is
one Lua script: `plan` (what does not change, JSON: `Plan`), `status` (`forming`, `starting`
while its game is being made, `started`, `closed`), `creator`, `closes` (ms), `n` and `min`
(seats, and the game's minimum), and per seat i: `t:i` (open, ai or player), `r:i` (the
player a seat is reserved for), `p:i`/`pn:i` (the key and name of who sits), `d:i` (the
reservation was declined). Two players racing for the last seat: the first script to run
takes it, the other finds the table full. A forming table expires a day after it closes
(`TABLE_OPEN_MINUTES` after it opened); a started or closed one a day after that.

The indexes are hints, each read against the table itself (and pruned when wrong):
`tables:forming` (the lobby, score = when the table closes), `player:{KEY}:tables` (the
tables a player sits or is awaited at, the same score), `player:{KEY}:games` (the games a
player plays, score = when made); `tables:version` goes up with every change (the lobby's
stream watches it).
"""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import msgspec
from redis.asyncio import Redis

from app.commands.table import wall_ms
from app.people import table_scripts as lua
from app.people.forming import Plan, Stored
from app.people.names import player_key
from app.people.table_errors import refused

LOBBY_KEY = "tables:forming"
VERSION_KEY = "tables:version"
KEEP_MS = 86_400_000  # a started or closed table still answers for a day


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
        self._join = redis.register_script(lua.JOIN)
        self._leave = redis.register_script(lua.LEAVE)
        self._decline = redis.register_script(lua.DECLINE)
        self._freeze = redis.register_script(lua.FREEZE)
        self._finish = redis.register_script(lua.FINISH)
        self._thaw = redis.register_script(lua.THAW)

    async def create(
        self, plan: Plan, sitting: dict[int, tuple[str, str]], table_id: str | None = None
    ) -> str | None:
        """Open a table (`sitting`: seat -> key and name of who sits at once); its id, or
        None when a table of that `table_id` exists already."""
        table_id = table_id or secrets.token_hex(8)
        fields: dict[str, str | int] = {
            "plan": msgspec.json.encode(plan).decode(),
            "status": "forming",
            "creator": plan.creator,
            "closes": plan.closes_at,
            "n": len(plan.seats),
            "min": plan.min_seats,
        }
        for number, seat in enumerate(plan.seats):
            fields[f"t:{number}"] = seat.type
            if seat.reserved is not None:
                fields[f"r:{number}"] = seat.reserved
        for number, (key, name) in sitting.items():
            fields[f"p:{number}"], fields[f"pn:{number}"] = key, name
        awaited = {s.reserved for s in plan.seats if s.reserved} | {k for k, _ in sitting.values()}
        await self.note(awaited, table_id, plan.closes_at)
        keep = plan.closes_at - self.clock() + KEEP_MS
        args = [keep, *(item for pair in fields.items() for item in pair)]
        if not int(await self._create(keys=[table_key(table_id)], args=args)):
            return None
        await self._redis.zadd(LOBBY_KEY, {table_id: plan.closes_at})
        await self.changed()
        return table_id

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
        stored = await self.read(table_id)
        if stored is None:
            raise refused("unknown_table")
        if admit is not None:
            await admit(stored)
        await self.note({key}, table_id, stored.plan.closes_at)
        chosen = -1 if seat is None else seat
        reply = await self._run(self._join, table_id, key, name, chosen, self.clock())
        if reply[0] != "ok":
            if key not in stored.players():
                await self.forget({key}, table_id)
            raise refused(reply[0])
        await self.changed()
        return int(reply[1]), reply[2] == "1"

    async def leave(self, table_id: str, key: str) -> bool:
        """Stand `key` up; True when that closed the table (its creator left)."""
        reply = await self._run(self._leave, table_id, key, self.clock(), KEEP_MS)
        if reply[0] not in ("ok", "closed"):
            raise refused(reply[0])
        await self._after_leaving(table_id, key)
        return reply[0] == "closed"

    async def decline(self, table_id: str, key: str) -> bool:
        """Drop the seat kept for `key`; whether the table is full now (False once closed)."""
        reply = await self._run(self._decline, table_id, key, self.clock(), KEEP_MS)
        if reply[0] not in ("ok", "closed"):
            raise refused(reply[0])
        await self._after_leaving(table_id, key)
        return reply[0] == "ok" and reply[2] == "1"

    async def freeze(self, table_id: str, asker: str | None, *, full: bool = False) -> str | None:
        """Freeze the seats for the start, asked by `asker` (None: the table itself, which
        must then be `full`): None, and the game is to be made; or the game's id when it
        has started already."""
        asked, must = "" if asker is None else asker, "1" if full else "0"
        reply = await self._run(self._freeze, table_id, asked, self.clock(), must)
        if reply[0] == "started":
            return reply[1]
        if reply[0] != "starting":
            raise refused(reply[0])
        return None

    async def thaw(self, table_id: str) -> None:
        """A frozen table forms again (its game could not be made)."""
        await self._thaw(keys=[table_key(table_id)])

    async def finish(self, stored: Stored, game_id: str) -> None:
        """The game of the frozen table `stored` is made: the table has started, and its
        players' indexes move from the table to the game."""
        await self._finish(keys=[table_key(stored.id)], args=[game_id, KEEP_MS])
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.zrem(LOBBY_KEY, stored.id)
            for key in stored.players():
                pipe.zrem(player_key(key, ":tables"), stored.id)
            for number in range(len(stored.plan.seats)):
                if (sitter := stored.sitter(number)) is not None:
                    pipe.zadd(player_key(sitter[0], ":games"), {game_id: self.clock()})
            await pipe.execute()
        await self.changed()

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

    async def _after_leaving(self, table_id: str, key: str) -> None:
        """Once `key` stood up or declined: out of their index, unless a seat still waits for
        them; out of everyone's and the lobby's, if the table closed."""
        stored = await self.read(table_id)
        if stored is not None and stored.kept_status == "closed":
            await self._redis.zrem(LOBBY_KEY, table_id)
            await self.forget(stored.players() | {key}, table_id)
        elif stored is None or key not in stored.players():
            await self.forget({key}, table_id)
        await self.changed()

    async def _run(self, script: Any, table_id: str, *args: str | int) -> list[str]:
        if not valid_id(table_id):
            raise refused("unknown_table")
        reply = await script(keys=[table_key(table_id)], args=list(args))
        return [r.decode() if isinstance(r, bytes) else str(r) for r in reply]


_plan = msgspec.json.Decoder(Plan)


def _stored(table_id: str, raw: dict[bytes, bytes]) -> Stored | None:
    if not raw or b"plan" not in raw:
        return None
    fields = {k.decode(): v.decode() for k, v in raw.items()}
    return Stored(table_id, _plan.decode(fields.pop("plan")), fields)
