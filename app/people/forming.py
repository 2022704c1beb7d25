"""What an open table is, and every rule of it, pure (no I/O): its plan (as opened,
unchanging), the table as read from Redis (`Stored`: the plan, who sits where, its status and
version), its moves (`join`, `leave`, `decline`, `freeze`, `finish`, `thaw`: each takes the table
as read and answers it as it is to be written, or raises its refusal), and the table as every
client sees it (`OpenTableView`, `docs/api.md`, "Tables").

A table is `forming` (seats change), then `closed` (by time, or its creator left) or
`starting` (its seats frozen while its game is made under the table's id), then `started`.
A table `starting` for `STUCK_MS` was left so by a process that stopped: the next reader or
the sweep finishes its start, or reopens it (`app.people.starting`). Only a `forming` table is
listed, or joined.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, Literal

import msgspec

from app.commands.setup import casual
from app.people.records import Rating
from app.people.table_errors import refused

SeatType = Literal["open", "ai", "player"]
Status = Literal["forming", "starting", "started", "closed"]

#: How long a table may be `starting` before its start counts as left midway (ms): making a
#: game takes milliseconds, a job's time limit is 10 s.
STUCK_MS = 15_000


class SeatPlan(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat as the table was opened with: open, an AI (its level) or kept for a player."""

    type: SeatType
    level: str | None = None
    reserved: str | None = None  # the player's key
    reserved_name: str | None = None


class Plan(msgspec.Struct, frozen=True):
    """What a table is, as opened; it does not change."""

    game: str
    title: str
    creator: str  # the creator's key
    creator_name: str
    seats: list[SeatPlan]
    options: dict[str, Any]
    seed: int | None
    rated: bool
    start_when_full: bool
    created: int
    closes_at: int
    min_seats: int
    rematch_of: str | None = None
    rating_min: int | None = None  # the ratings (at its game) of who may sit, both ends in
    rating_max: int | None = None

    @property
    def casual(self) -> bool:
        return casual(self.seed is not None, (s.type for s in self.seats))


class SeatView(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    type: SeatType
    name: str | None = None
    level: str | None = None
    player: str | None = None  # who sits there (their key)
    reserved: str | None = None  # the name of the player it is kept for
    declined: bool = False
    rating: int | None = None  # who sits there: their rating at the table's game
    provisional: bool | None = None


class OpenTableView(msgspec.Struct, frozen=True, omit_defaults=True):
    """A table as every client sees it (`docs/api.md`, "Tables")."""

    id: str
    game: str
    title: str
    status: Status
    creator: str
    seats: list[SeatView]
    options: dict[str, Any]
    casual: bool
    rated: bool
    start_when_full: bool
    created: int
    closes_at: int
    seed: int | None = None
    game_id: str | None = None
    rematch_of: str | None = None
    rating_min: int | None = None
    rating_max: int | None = None


class Stored(msgspec.Struct, frozen=True):
    """A table as read: its plan, its fields (`t:i`, `p:i`, ...: `app.people.tables`), its
    status as kept and its version `v` (each write adds one)."""

    id: str
    plan: Plan
    fields: dict[str, str]

    @property
    def kept_status(self) -> str:
        return self.fields.get("status", "")

    @property
    def version(self) -> int:
        return int(self.fields.get("v", "0"))

    def status(self, now: int) -> Status:
        """`forming` until `closes_at` (then `closed`), `starting` while its game is being
        made, `started` once it is, `closed` when its creator left."""
        kept = self.kept_status
        if kept in ("started", "closed", "starting"):
            return kept  # type: ignore[return-value]
        return "closed" if now >= self.plan.closes_at else "forming"

    def stuck(self, now: int) -> bool:
        """Whether the table has been `starting` for `STUCK_MS`: the process making its game
        stopped midway, and whoever reads it next finishes its start (or reopens it)."""
        since = int(self.fields.get("since", "0"))
        return self.kept_status == "starting" and now - since >= STUCK_MS

    def sitter(self, seat: int) -> tuple[str, str] | None:
        """The key and name of who sits at `seat`."""
        key = self.fields.get(f"p:{seat}")
        return None if key is None else (key, self.fields.get(f"pn:{seat}", key))

    def declined(self, seat: int) -> bool:
        return f"d:{seat}" in self.fields

    def full(self) -> bool:
        """Whether no seat waits any more: each is an AI's, taken, or declined."""
        return all(
            asked.type == "ai" or self.sitter(n) is not None or self.declined(n)
            for n, asked in enumerate(self.plan.seats)
        )

    def players(self) -> set[str]:
        """Everyone at the table: who sits, and who is awaited (not declined)."""
        found = {s[0] for n in range(len(self.plan.seats)) if (s := self.sitter(n))}
        found |= {
            asked.reserved
            for n, asked in enumerate(self.plan.seats)
            if asked.reserved is not None and not self.declined(n)
        }
        return found

    def seated(self) -> list[str]:
        """The keys of who sits, in seat order."""
        return [s[0] for n in range(len(self.plan.seats)) if (s := self.sitter(n))]

    def with_fields(self, put: Mapping[str, str] = {}, drop: Iterable[str] = ()) -> Stored:
        """The table with the fields `put` set and those named in `drop` gone."""
        fields = {k: v for k, v in self.fields.items() if k not in set(drop)}
        return Stored(self.id, self.plan, {**fields, **put})

    def view(self, now: int, ratings: Mapping[str, Rating] | None = None) -> OpenTableView:
        """The table as every client sees it; `ratings`: of who sits (by key), at its game."""
        plan, seats = self.plan, []
        for number, asked in enumerate(plan.seats):
            sitter = self.sitter(number)
            if sitter is not None:
                key, name = sitter
                rated = (ratings or {}).get(key)
                seat = SeatView(number, "player", name, player=key, reserved=asked.reserved_name)
                if rated is not None:
                    seat = msgspec.structs.replace(
                        seat, rating=rated.rating, provisional=rated.provisional
                    )
                seats.append(seat)
            elif asked.type == "player":
                declined = self.declined(number)
                seats.append(
                    SeatView(number, "player", reserved=asked.reserved_name, declined=declined)
                )
            else:
                seats.append(SeatView(number, asked.type, level=asked.level))
        return OpenTableView(
            self.id,
            plan.game,
            plan.title,
            self.status(now),
            plan.creator_name,
            seats,
            plan.options,
            plan.casual,
            plan.rated,
            plan.start_when_full,
            plan.created,
            plan.closes_at,
            plan.seed,
            self.fields.get("game_id"),
            plan.rematch_of,
            plan.rating_min,
            plan.rating_max,
        )


# -- the moves of a table: each takes the table as read and answers it as it is to be written
# (`app.people.tables` writes it only if nobody wrote it meanwhile), or raises its refusal.


def opened(table_id: str, plan: Plan, sitting: Mapping[int, tuple[str, str]]) -> Stored:
    """A new table of `plan`, with who sits at once (`sitting`: seat -> key and name)."""
    fields = {
        "status": "forming",
        "creator": plan.creator,
        "closes": str(plan.closes_at),
        "n": str(len(plan.seats)),
        "min": str(plan.min_seats),
        "v": "1",
    }
    for number, seat in enumerate(plan.seats):
        fields[f"t:{number}"] = seat.type
        if seat.reserved is not None:
            fields[f"r:{number}"] = seat.reserved
    for number, (key, name) in sitting.items():
        fields[f"p:{number}"], fields[f"pn:{number}"] = key, name
    return Stored(table_id, plan, fields)


def _gate(stored: Stored, now: int) -> None:
    """A table whose seats may still change: forming, and not closed by time."""
    status = stored.status(now)
    if status in ("starting", "started"):
        raise refused("table_started")
    if status == "closed":
        raise refused("table_closed")


def join(stored: Stored, key: str, name: str, seat: int | None, now: int) -> tuple[Stored, int]:
    """Sit `key` at `seat`, else at the seat kept for them, else at the first open one; the
    table, and the seat taken."""
    _gate(stored, now)
    seats = stored.plan.seats
    mine = None
    for number, asked in enumerate(seats):
        sitter = stored.sitter(number)
        if sitter is not None and sitter[0] == key:
            raise refused("already_seated")
        if asked.reserved == key and not stored.declined(number):
            mine = number
    if seat is not None:
        if not 0 <= seat < len(seats):
            raise refused("no_such_seat")
        if mine is not None and seat != mine:
            raise refused("already_seated")
        asked = seats[seat]
        if asked.type == "ai" or stored.sitter(seat) is not None or stored.declined(seat):
            raise refused("seat_taken")
        if asked.type == "player" and asked.reserved != key:
            raise refused("seat_reserved")
    elif mine is not None:
        seat = mine
    else:
        free = (n for n, s in enumerate(seats) if s.type == "open" and stored.sitter(n) is None)
        seat = next(free, None)
        if seat is None:
            raise refused("table_full")
    return stored.with_fields({f"p:{seat}": key, f"pn:{seat}": name}), seat


def leave(stored: Stored, key: str, now: int) -> tuple[Stored, int | None]:
    """Stand `key` up: the table, and the seat they left (None: they were its creator, and
    the table is closed)."""
    _gate(stored, now)
    if key == stored.plan.creator:
        return stored.with_fields({"status": "closed"}), None
    for number in range(len(stored.plan.seats)):
        sitter = stored.sitter(number)
        if sitter is not None and sitter[0] == key:
            return stored.with_fields(drop=(f"p:{number}", f"pn:{number}")), number
    raise refused("not_at_table")


def decline(stored: Stored, key: str, now: int) -> Stored:
    """Drop the seat kept for `key`: it stays empty (the creator declining closes it)."""
    _gate(stored, now)
    for number, asked in enumerate(stored.plan.seats):
        if asked.type == "player" and asked.reserved == key and not stored.declined(number):
            if key == stored.plan.creator:
                return stored.with_fields({"status": "closed"})
            return stored.with_fields({f"d:{number}": "1"}, drop=(f"p:{number}", f"pn:{number}"))
    raise refused("not_reserved")


def freeze(stored: Stored, asker: str | None, now: int) -> Stored:
    """Freeze the seats for the start (`starting`), asked by `asker`, or by the table itself
    (None) when it asked to start when full, and is. A table starting already is answered as
    it is; a started one too (its game is `game_id`)."""
    kept = stored.kept_status
    if kept == "started":
        return stored
    if kept == "closed":
        raise refused("table_closed")
    if asker is not None and asker != stored.plan.creator:
        raise refused("not_creator")
    if kept == "starting":
        return stored
    if now >= stored.plan.closes_at:
        raise refused("table_closed")
    seated = sum(
        asked.type == "ai" or stored.sitter(n) is not None
        for n, asked in enumerate(stored.plan.seats)
    )
    if seated < stored.plan.min_seats:
        raise refused("too_few_players")
    if asker is None and not (stored.plan.start_when_full and stored.full()):
        raise refused("not_full")
    return stored.with_fields({"status": "starting", "since": str(now)})


def finish(stored: Stored, game_id: str, now: int) -> Stored:
    """The game of a starting table is made: it has started. A table started already (by
    another process finishing the same start) is answered as it is."""
    if stored.kept_status == "started" and stored.fields.get("game_id") == game_id:
        return stored
    if stored.kept_status != "starting":
        raise NotStarting(f"table {stored.id} is {stored.kept_status}, not starting")
    return stored.with_fields({"status": "started", "game_id": game_id, "at": str(now)})


def thaw(stored: Stored) -> Stored:
    """The game of a starting table could not be made (its rules refused the seats): it
    forms again. Any other table is answered as it is."""
    if stored.kept_status != "starting":
        return stored
    return stored.with_fields({"status": "forming"}, drop=("since",))


class NotStarting(Exception):
    """A table is finished that is neither starting nor started with that game."""
