"""Open tables as a service: open one, take a seat, leave it, decline it, start the game.

A table's start is safe against a process that dies midway: the seats are frozen first (the
table is `starting`), then the game is made under the table's own id (a start made again finds
or makes that same game: `GameService.create(game_id=...)`), then the table says `started`.
Whoever reads a table left `starting` finishes its start.
"""

from __future__ import annotations

import contextlib
import functools
from collections.abc import Sequence
from typing import Annotated, Any

import msgspec

from app.commands.catalogue import Catalogue, Kind
from app.commands.errors import ServiceError, Unprocessable
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService, Seed
from app.people.accounts import Accounts, Player
from app.people.forming import OpenTableView, Plan, SeatPlan, Stored
from app.people.table_errors import NotFull, TableClosed, TooFewPlayers, refused
from app.people.table_ratings import TableRatings, checked_range
from app.people.tables import Tables
from domain.errors import RuleError
from domain.game import Setup


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

    @property
    def catalogue(self) -> Catalogue:
        return self.service.catalogue

    async def open(self, player: Player, asked: OpenTable) -> OpenTableView:
        """A new table as `asked`, its creator seated unless asked not to be."""
        kind = self._kind(asked.game)
        checked_range(asked.rating_min, asked.rating_max)
        seats: list[SeatPlan] = []
        for seat in asked.seats:
            if isinstance(seat, AiSeat):
                seats.append(SeatPlan("ai", level=seat.level or "normal"))
            elif isinstance(seat, PlayerSeat):
                found = await self.accounts.find(seat.name)
                if found is None:
                    raise Unprocessable(
                        f"There is no player called {seat.name!r}.", code="unknown_player"
                    )
                seats.append(SeatPlan("player", reserved=found.key, reserved_name=found.name))
            else:
                seats.append(SeatPlan("open"))
        options = checked(kind, seats, asked.options, asked.seed)
        plan = self.plan(
            kind, player, seats, options, asked.seed, asked.rated, asked.start_when_full,
            rating_range=(asked.rating_min, asked.rating_max),
        )  # fmt: skip
        sitting = {}
        if asked.sit:
            mine = [n for n, s in enumerate(seats) if s.reserved == player.key]
            free = mine or [n for n, s in enumerate(seats) if s.type == "open"]
            if not free:
                raise Unprocessable(
                    "No seat of this table is open to you: add an open seat, or do not sit.",
                    code="bad_setup",
                )
            sitting[free[0]] = (player.key, player.name)
        await self.ratings.opening(plan, player.key, bool(sitting))
        table_id = await self.tables.create(plan, sitting)
        assert table_id is not None
        return await self.opened(table_id)

    def plan(
        self,
        kind: Kind,
        creator: Player,
        seats: list[SeatPlan],
        options: dict[str, Any],
        seed: int | None,
        rated: bool,
        start_when_full: bool,
        *,
        rematch_of: str | None = None,
        rating_range: tuple[int | None, int | None] = (None, None),
    ) -> Plan:
        """A table's plan, opened now by `creator`: rated only if asked and not casual."""
        game, now = kind.game, self.tables.clock()
        casual = seed is not None or any(s.type == "ai" for s in seats)
        return Plan(
            game.name,
            game.title,
            creator.key,
            creator.name,
            seats,
            options,
            seed,
            rated and not casual,
            start_when_full,
            now,
            now + self.open_ms,
            game.min_seats,
            rematch_of,
            *rating_range,
        )

    async def opened(self, table_id: str) -> OpenTableView:
        """A table just made: started at once when it asked to be when full, and is."""
        stored = await self._read(table_id)
        if stored.plan.start_when_full and stored.full():
            await self._start_when_full(table_id)
        return await self.view(table_id)

    async def view(self, table_id: str) -> OpenTableView:
        """The table as everyone sees it; one left `starting` by a process that stopped
        midway is started first."""
        stored = await self._read(table_id)
        if stored.kept_status == "starting":
            with contextlib.suppress(RuleError, ServiceError):  # else it forms again
                await self._make_game(table_id)
            stored = await self._read(table_id)
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
        if await self.tables.freeze(table_id, player.key) is None:
            await self._make_game(table_id)
        return await self.view(table_id)

    async def _start_when_full(self, table_id: str) -> None:
        """Start a full table that asked to start when full; nothing if it did not, or is no
        longer full, or has too few players (every seat declined)."""
        stored = await self._read(table_id)
        if not stored.plan.start_when_full:
            return
        try:
            started = await self.tables.freeze(table_id, None, full=True)
        except (NotFull, TooFewPlayers, TableClosed):
            return
        if started is None:
            await self._make_game(table_id)

    async def _make_game(self, table_id: str) -> None:
        """Make the game of a frozen table, under the table's id, and start the table."""
        stored = await self._read(table_id)
        requests: list[SeatRequest] = []
        players: list[str | None] = []
        for number, seat in enumerate(stored.plan.seats):
            sitter = stored.sitter(number)
            if seat.type == "ai":
                requests.append(SeatRequest("ai", None, seat.level))
                players.append(None)
            elif sitter is not None:
                requests.append(SeatRequest("human", sitter[1]))
                players.append(sitter[0])
        plan = stored.plan
        asked = CreateGame(plan.game, requests, plan.options, plan.seed)
        try:
            game, _ = await self.service.create(asked, players, game_id=table_id, rated=plan.rated)
        except (RuleError, ServiceError):
            await self.tables.thaw(table_id)
            raise
        await self.tables.finish(stored, game.id)

    async def _read(self, table_id: str) -> Stored:
        stored = await self.tables.read(table_id)
        if stored is None:
            raise refused("unknown_table")
        return stored

    def _kind(self, name: str) -> Kind:
        kind = self.catalogue.kind(name)
        if kind is None:
            known = ", ".join(self.catalogue.names)
            raise Unprocessable(
                f"There is no game called {name!r} ({known}).", code="unknown_game_type"
            )
        return kind


def checked(
    kind: Kind, seats: list[SeatPlan], options: dict[str, Any], seed: int | None
) -> dict[str, Any]:
    """The options with their defaults, once the game takes these seats, levels and options
    (the refusals of `POST /api/games`: `bad_setup`, `unknown_level`, `bad_option.<name>`...)."""
    game = kind.game
    if not game.min_seats <= len(seats) <= game.max_seats:
        raise Unprocessable(
            f"{game.title} takes {game.min_seats} to {game.max_seats} seats, not {len(seats)}.",
            code="bad_setup",
        )
    reserved = [s.reserved for s in seats if s.reserved is not None]
    if len(set(reserved)) < len(reserved):
        raise Unprocessable("A player can be kept one seat only.", code="bad_setup")
    for seat in seats:
        if seat.type == "ai" and seat.level not in game.policies:
            levels = ", ".join(sorted(game.policies))
            raise Unprocessable(
                f"No AI level {seat.level!r}: choose one of {levels}.", code="unknown_level"
            )
    names = tuple(f"Player {n + 1}" for n in range(len(seats)))
    machines = tuple(n for n, s in enumerate(seats) if s.type == "ai")
    setup = Setup(seed=seed or 0, players=names, options=options, ai_seats=machines)
    game.start(setup, 0)  # every option, as the game will be made
    taken: dict[str, Any] = msgspec.to_builtins(game.options(setup))
    return taken
