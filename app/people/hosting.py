"""Open tables as a service: open one, take a seat, leave it, decline it, start the game.

Every rule of a table is in `app.people.forming`; its start, safe against a process that
stops midway, in `app.people.starting`: whoever reads a table left `starting` finishes it.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from app.commands import setup
from app.commands.catalogue import Catalogue, Kind
from app.commands.errors import UnknownPlayer
from app.commands.service import GameService, Seed
from app.commands.setup import kind_of
from app.people.accounts import Accounts, Player
from app.people.forming import OpenTableView, Plan, SeatPlan, Stored
from app.people.starting import Starts
from app.people.table_errors import NotFull, TableClosed, TooFewPlayers, refused
from app.people.table_ratings import TableRatings, checked_range
from app.people.tables import Tables
from domain.errors import SetupError


class OpenSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="open"):
    """A seat any player may take."""


class AiSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="ai"):
    level: str | None = None


class PlayerSeat(msgspec.Struct, frozen=True, forbid_unknown_fields=True, tag="player"):
    """A seat kept for the player of this name."""

    name: str


#: A rating a table may ask for, at one end of its range.
RatingBound = Annotated[int, msgspec.Meta(ge=0, le=10_000)]


class OpenTable(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body that opens a table."""

    game: str
    seats: list[OpenSeat | AiSeat | PlayerSeat]
    options: dict[str, Any] = {}
    seed: Seed | None = None
    rated: bool = False
    start_when_full: bool = False
    sit: bool = True
    rating_min: RatingBound | None = None
    rating_max: RatingBound | None = None


class Hosting:
    """The open tables of the service, and the games they become."""

    def __init__(
        self,
        tables: Tables,
        service: GameService,
        accounts: Accounts,
        open_minutes: float,
        ratings: TableRatings,
    ) -> None:
        self.tables = tables
        self.service = service
        self.accounts = accounts
        self.open_ms = round(open_minutes * 60_000)
        self.ratings = ratings
        self.starts = Starts(tables, service)

    @property
    def catalogue(self) -> Catalogue:
        return self.service.catalogue

    async def open(self, player: Player, asked: OpenTable) -> OpenTableView:
        """A new table as `asked`, its creator seated unless asked not to be."""
        checked_range(asked.rating_min, asked.rating_max)
        plan = await self.plan(player, asked)
        sitting = {}
        if asked.sit:
            mine = [n for n, s in enumerate(plan.seats) if s.reserved == player.key]
            free = mine or [n for n, s in enumerate(plan.seats) if s.type == "open"]
            if not free:
                raise SetupError(
                    "No seat of this table is open to you: add an open seat, or do not sit.",
                )
            sitting[free[0]] = (player.key, player.name)
        await self.ratings.opening(plan, player.key, bool(sitting))
        table_id = await self.tables.create(plan, sitting)
        assert table_id is not None
        return await self.opened(table_id)

    async def plan(self, creator: Player, asked: OpenTable, rematch_of: str | None = None) -> Plan:
        """The plan of a table `asked` for, opened now by `creator`, once its game takes these
        seats and options (`app.commands.setup`); rated only if asked and not casual."""
        kind = kind_of(self.catalogue, asked.game)
        seats = await self.seats(asked.seats)
        options = checked(kind, seats, asked.options, asked.seed)
        game, now = kind.game, self.tables.clock()
        casual = setup.casual(asked.seed is not None, (s.type for s in seats))
        return Plan(
            game.name,
            game.title,
            creator.key,
            creator.name,
            seats,
            options,
            asked.seed,
            asked.rated and not casual,
            asked.start_when_full,
            now,
            now + self.open_ms,
            game.min_seats,
            rematch_of,
            asked.rating_min,
            asked.rating_max,
        )

    async def seats(self, asked: Sequence[OpenSeat | AiSeat | PlayerSeat]) -> list[SeatPlan]:
        """The seats of a table as asked for: a player's seat names an account (422
        `unknown_player`), and is kept for one player only (422 `bad_setup`)."""
        seats: list[SeatPlan] = []
        for seat in asked:
            if isinstance(seat, AiSeat):
                seats.append(SeatPlan("ai", level=seat.level or "normal"))
            elif isinstance(seat, PlayerSeat):
                found = await self.accounts.find(seat.name)
                if found is None:
                    raise UnknownPlayer(f"There is no player called {seat.name!r}.")
                seats.append(SeatPlan("player", reserved=found.key, reserved_name=found.name))
            else:
                seats.append(SeatPlan("open"))
        reserved = [s.reserved for s in seats if s.reserved is not None]
        if len(set(reserved)) < len(reserved):
            raise SetupError("A player can be kept one seat only.")
        return seats

    async def opened(self, table_id: str) -> OpenTableView:
        """A table just made: started at once when it asked to be when full, and is."""
        stored = await self._read(table_id)
        if stored.plan.start_when_full and stored.full():
            await self._start_when_full(table_id)
        return await self.view(table_id)

    async def view(self, table_id: str) -> OpenTableView:
        """The table as everyone sees it; one left `starting` by a process that stopped
        midway is started first (or forms again)."""
        stored = await self.starts.resume(await self._read(table_id))
        return (await self.views([stored]))[0]

    async def lobby(self) -> list[OpenTableView]:
        """The forming tables, newest first."""
        return await self.views(await self.tables.forming())

    async def views(self, tables: Sequence[Stored]) -> list[OpenTableView]:
        """The tables as everyone sees them, with the ratings of who sits (one read for all)."""
        now = self.tables.clock()
        found = await self.ratings.of((t.plan.game, p) for t in tables for p in t.seated())
        return [
            stored.view(now, {p: found[stored.plan.game, p] for p in stored.seated()})
            for stored in tables
        ]

    async def join(self, player: Player, table_id: str, seat: int | None) -> OpenTableView:
        admit = functools.partial(self.ratings.joining, player.key, self.tables.clock)
        _, full = await self.tables.join(table_id, player.key, player.name, seat, admit)
        if full:
            await self._start_when_full(table_id)
        return await self.view(table_id)

    async def leave(self, player: Player, table_id: str) -> OpenTableView:
        await self.tables.leave(table_id, player.key)
        return await self.view(table_id)

    async def decline(self, player: Player, table_id: str) -> OpenTableView:
        if await self.tables.decline(table_id, player.key):
            await self._start_when_full(table_id)
        return await self.view(table_id)

    async def start(self, player: Player, table_id: str) -> OpenTableView:
        """The creator starts the table with those seated (and its AI seats)."""
        frozen = await self.tables.freeze(table_id, player.key)
        if frozen.kept_status == "starting":
            await self.starts.make_game(frozen)
        return await self.view(table_id)

    async def _start_when_full(self, table_id: str) -> None:
        """Start a full table that asked to start when full; nothing if it did not, or is no
        longer full, or has too few players (every seat declined)."""
        try:
            frozen = await self.tables.freeze(table_id, None)
        except (NotFull, TooFewPlayers, TableClosed):
            return
        if frozen.kept_status == "starting":
            await self.starts.make_game(frozen)

    async def _read(self, table_id: str) -> Stored:
        stored = await self.tables.read(table_id)
        if stored is None:
            raise refused("unknown_table")
        return stored


def checked(
    kind: Kind, seats: list[SeatPlan], options: dict[str, Any], seed: int | None
) -> dict[str, Any]:
    """The options with their defaults, once the game takes these seats, levels and options
    (the one setup check of every new game: `app.commands.setup`)."""
    levels = [s.level if s.type == "ai" else None for s in seats]
    names = [f"Player {n + 1}" for n in range(len(seats))]
    made, _ = setup.checked_setup(kind.game, levels, names, options, seed or 0)
    return dict(made.options)
