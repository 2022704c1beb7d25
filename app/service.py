"""The command service: load a game's state, decide, append with the expected version, retry.

States are cached per process by game id and version, and caught up from the stream when the
stream is ahead; a miss folds the whole stream. Nothing here is the source of truth.
"""

from __future__ import annotations

import secrets
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

import msgspec

from app.errors import BadCommand, Conflict, UnknownGame, Unprocessable, from_rule
from app.seats import PublicSeat, Seat, SeatRequest, new_token, seats_decoder, seats_encoder
from app.seats import token_hash as hash_of
from app.store import EventStore, StoredEvent, VersionConflict
from domain.errors import RuleError
from domain.game import Game, Setup
from domain.registry import GAMES

AnyGame = Game[Any, Any, Any, Any]
_encoder = msgspec.json.Encoder()
_decoders = {name: msgspec.json.Decoder(game.event_type) for name, game in GAMES.items()}


class Scheduler(Protocol):
    """Where machine work goes: an arq queue, or nothing (tests of the service alone)."""

    async def ai_turn(self, game_id: str, version: int, seat: int) -> None: ...


class Table(NamedTuple):
    """A game as loaded: its rules, seats, state and version."""

    id: str
    game: AnyGame
    seats: list[Seat]
    state: Any
    version: int

    @property
    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def visible(self, event: Any, viewer: int | None) -> Any:
        """An event as the viewer may see it: everything once the game is over."""
        return event if self.over else self.game.redact(event, viewer)


class Outcome(NamedTuple):
    version: int
    events: list[tuple[int, Any]]  # (version, event), not yet redacted
    replayed: bool


class CreateGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body that creates a game."""

    game: str
    seats: list[SeatRequest]
    options: dict[str, Any] = {}
    seed: int | None = None


def encode_event(event: Any) -> bytes:
    return _encoder.encode(event)


class GameService:
    """Creates games and runs commands against them; safe to share within one process."""

    def __init__(
        self,
        store: EventStore,
        scheduler: Scheduler | None = None,
        *,
        cache_size: int = 4096,
        attempts: int = 16,
    ) -> None:
        self.store = store
        self.scheduler = scheduler
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._cache_size = cache_size
        self._attempts = attempts

    # -- creating -------------------------------------------------------------------------

    async def create(self, request: CreateGame, now: float) -> tuple[Table, list[PublicSeat]]:
        """A new game; the human seats' tokens are in the returned seats, and nowhere else."""
        game = GAMES.get(request.game)
        if game is None:
            known = ", ".join(sorted(GAMES))
            raise Unprocessable(
                f"There is no game called {request.game!r} ({known}).", code="unknown_game_type"
            )
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        names = tuple(_name(asked, n) for n, asked in enumerate(request.seats))
        setup = Setup(seed=seed, players=names, options=request.options)
        try:
            events = game.start(setup)
        except RuleError as error:
            raise from_rule(error) from error
        return await self.open(game, setup, request.seats, events, now)

    async def open(
        self,
        game: AnyGame,
        setup: Setup,
        requests: Sequence[SeatRequest],
        events: list[Any],
        now: float,
    ) -> tuple[Table, list[PublicSeat]]:
        """Store a new game from its first events (a fresh start, or an imported log)."""
        self._check_levels(game, requests)
        seats, public = _seat(requests, setup.players)
        game_id = secrets.token_hex(8)
        table = Table(game_id, game, seats, game.replay(events), len(events))
        meta = {
            "game": game.name,
            "created": repr(now),
            "status": "over" if table.over else "active",
            "seats": seats_encoder.encode(seats).decode(),
            "setup": _encoder.encode(setup).decode(),
        }
        await self.store.create(game_id, meta, [encode_event(e) for e in events], now)
        self._remember(table)
        await self.schedule(table)
        return table, public

    async def setup_of(self, game_id: str) -> Setup:
        """How a game was set up, seed included: for exports of finished games only."""
        return msgspec.json.decode((await self.store.meta(game_id))["setup"], type=Setup)

    @staticmethod
    def _check_levels(game: AnyGame, requests: Sequence[SeatRequest]) -> None:
        for asked in requests:
            level = asked.level or "normal"
            if asked.type == "ai" and level not in game.policies:
                levels = ", ".join(sorted(game.policies))
                raise Unprocessable(
                    f"No AI level {level!r}: choose one of {levels}.", code="unknown_level"
                )

    # -- loading --------------------------------------------------------------------------

    async def load(self, game_id: str) -> Table:
        """The game's latest state: the cached one caught up from the stream, or a full fold."""
        cached = self._cache.get(game_id)
        if cached is None:
            return await self._load_fresh(game_id)
        newer = await self.store.read(game_id, after=cached.version)
        if not newer:
            self._cache.move_to_end(game_id)
            return cached
        return self._remember(self._caught_up(cached, newer))

    async def _load_fresh(self, game_id: str) -> Table:
        if not _valid_id(game_id):
            raise UnknownGame("There is no game with that id.")
        meta = await self.store.meta(game_id)
        if not meta:
            raise UnknownGame("There is no game with that id.")
        game = GAMES[meta["game"]]
        seats = seats_decoder.decode(meta["seats"])
        table = Table(game_id, game, seats, game.initial(), 0)
        return self._remember(self._caught_up(table, await self.store.read(game_id)))

    def _caught_up(self, table: Table, stored: list[StoredEvent]) -> Table:
        decoder = _decoders[table.game.name]
        state = table.game.fold(table.state, (decoder.decode(s.data) for s in stored))
        return table._replace(state=state, version=stored[-1].version if stored else table.version)

    def _remember(self, table: Table) -> Table:
        cached = self._cache.get(table.id)
        if cached is None or cached.version <= table.version:
            self._cache[table.id] = table
            self._cache.move_to_end(table.id)
            while len(self._cache) > self._cache_size:
                self._cache.popitem(last=False)
        return table

    def decode(self, table: Table, stored: Sequence[StoredEvent]) -> list[tuple[int, Any]]:
        decoder = _decoders[table.game.name]
        return [(s.version, decoder.decode(s.data)) for s in stored]

    async def events(self, game_id: str, after: int = 0) -> tuple[Table, list[tuple[int, Any]]]:
        """The game and its events after a version (not yet redacted)."""
        table = await self.load(game_id)
        if after >= table.version:
            return table, []
        return table, self.decode(table, await self.store.read(game_id, after=max(after, 0)))

    async def state_at(self, game_id: str, version: int) -> tuple[Table, Any]:
        """The game, and its state as it was at a version."""
        table = await self.load(game_id)
        if not 0 < version <= table.version:
            raise BadCommand(
                f"Versions of this game go from 1 to {table.version}.", code="bad_version"
            )
        stored = await self.store.read(game_id, count=version)
        return table, table.game.fold(
            table.game.initial(), (e for _, e in self.decode(table, stored))
        )

    # -- commanding -----------------------------------------------------------------------

    async def execute(
        self,
        game_id: str,
        seat: int | None,
        command: Any,
        *,
        expected_version: int | None = None,
        idempotency_key: str | None = None,
        loaded: Table | None = None,
    ) -> tuple[Table, Outcome]:
        """Decide and append a seat's command, retrying on a concurrent write.

        An idempotency key belongs to the seat that sends it: the same key from another seat
        names another command. `loaded` (the game just loaded by the caller) saves the first
        attempt a read; a conflict reloads.
        """
        if idempotency_key is not None:
            idempotency_key = f"seat{'-' if seat is None else seat}:{idempotency_key}"
        for _ in range(self._attempts):
            table = loaded if loaded is not None else await self.load(game_id)
            loaded = None
            if idempotency_key is not None:
                seen = await self.store.recall(game_id, idempotency_key)
                if seen is not None:
                    return await self._replayed(table, seen.first, seen.last)
            if expected_version is not None and expected_version != table.version:
                raise Conflict(
                    f"The game is at version {table.version}, not {expected_version}.",
                    code="stale_version",
                )
            try:
                events = table.game.decide(table.state, seat, command)
            except RuleError as error:
                raise from_rule(error) from error
            after = table._replace(
                state=table.game.fold(table.state, events), version=table.version + len(events)
            )
            try:
                result = await self.store.append(
                    game_id,
                    table.version,
                    [encode_event(e) for e in events],
                    idempotency_key=idempotency_key,
                    meta={"status": "over"} if after.over else None,
                )
            except VersionConflict:
                continue
            if result.replayed:
                return await self._replayed(await self.load(game_id), result.first, result.last)
            self._remember(after)
            await self.schedule(after)
            numbered = list(enumerate(events, start=result.first))
            return after, Outcome(result.last, numbered, replayed=False)
        raise Conflict("The game is too busy right now; send the command again.", code="busy")

    async def _replayed(self, table: Table, first: int, last: int) -> tuple[Table, Outcome]:
        stored = await self.store.read(table.id, after=first - 1, count=last - first + 1)
        return table, Outcome(last, self.decode(table, stored), replayed=True)

    async def schedule(self, table: Table) -> None:
        """Ask for the AI turns the table waits for (at most once per version, by job id)."""
        if self.scheduler is None or table.over:
            return
        for seat in sorted(table.game.to_act(table.state)):
            if table.seats[seat].type == "ai":
                await self.scheduler.ai_turn(table.id, table.version, seat)


def _valid_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and all(c.isalnum() or c in "-_" for c in game_id)


def _name(asked: SeatRequest, number: int) -> str:
    default = f"AI {number + 1}" if asked.type == "ai" else f"Player {number + 1}"
    return (asked.name or default).strip()[:40] or default


def _seat(
    requests: Sequence[SeatRequest], names: Sequence[str]
) -> tuple[list[Seat], list[PublicSeat]]:
    """Seats with fresh tokens for the people; the tokens go back to the creator only."""
    seats, public = [], []
    for number, (asked, name) in enumerate(zip(requests, names, strict=True)):
        if asked.type == "ai":
            seat = Seat(number, "ai", name, level=asked.level or "normal")
            public.append(seat.public())
        else:
            token = new_token()
            seat = Seat(number, "human", name, token_hash=hash_of(token))
            public.append(PublicSeat(number, "human", name, token=token))
        seats.append(seat)
    return seats, public
