"""The command service: load a game's state, decide, append with the expected version, retry.

The service stamps every command with the server's time (ms since the epoch, never earlier
than the game's last event) and passes it to the rules. States are cached per process by game
id and version, and caught up from the stream when the stream is ahead; a miss folds the whole
stream. Nothing here is the source of truth: a game deleted elsewhere is forgotten when the hub
hears of it (`forget`), or at the next load, whose read finds the stream gone.
"""

from __future__ import annotations

import secrets
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from typing import Annotated, Any

import msgspec

from app.base import metrics
from app.commands.catalogue import Catalogue
from app.commands.commitment import dealt, new_salt
from app.commands.errors import BadVersion, Busy, StaleVersion, UnknownGame
from app.commands.meta import GameMeta, Status, from_fields, status_field, to_fields
from app.commands.ports import Scheduler
from app.commands.seats import PublicSeat, Seat, SeatRequest, check_name, clean_name, new_token
from app.commands.seats import token_hash as hash_of
from app.commands.setup import check_levels, checked_setup, kind_of
from app.commands.table import Entry, Outcome, Table, marked, wall_ms
from app.store.events import (
    EventStore,
    GameExists,
    GameNotFound,
    Packed,
    StoredEvent,
    VersionConflict,
)
from app.store.lifecycle import Lifecycle
from domain.errors import RuleError
from domain.game import AnyGame, Setup

_encoder = msgspec.json.Encoder()


#: The seed of a game's chance, as a creator may give it.
Seed = Annotated[int, msgspec.Meta(ge=0, le=2**63 - 1)]


class CreateGame(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body that creates a game."""

    game: str
    seats: list[SeatRequest]
    options: dict[str, Any] = {}
    seed: Seed | None = None


def encode_event(event: Any) -> bytes:
    return _encoder.encode(event)


#: Called after each append of this process: (the table after, its entries, `answering`).
Watcher = Callable[[Table, list[Entry], object], None]


class GameService:
    """Creates games and runs commands against them; safe to share within one process."""

    def __init__(
        self,
        store: EventStore,
        catalogue: Catalogue,
        scheduler: Scheduler | None = None,
        *,
        lifecycle: Lifecycle | None = None,
        clock: Callable[[], int] = wall_ms,
        cache_size: int = 4096,
        attempts: int = 16,
    ) -> None:
        self.store = store
        self.catalogue = catalogue
        self.scheduler = scheduler
        self.lifecycle = lifecycle
        self.clock = clock
        self._cache: OrderedDict[str, Table] = OrderedDict()
        self._archived: set[str] = set()  # cached games read whole from their archive
        self._cache_size = cache_size
        self._attempts = attempts
        self._watchers: list[Watcher] = []
        self._settled: list[Callable[[str], None]] = []
        self._appending: dict[str, int] = {}  # this process's appends in flight, by game

    def watch(self, watcher: Watcher, settled: Callable[[str], None] | None = None) -> None:
        """Call `watcher(after, entries, answering)` after each append this process makes, at
        once and in the appending task (the hub passes a process's own appends on without a
        read); `answering` is what the caller of `execute` gave as such. `settled(game_id)` is
        called once each append this process tries is over, whether it went in (then after
        the watchers) or not (a conflict, a failure)."""
        self._watchers.append(watcher)
        if settled is not None:
            self._settled.append(settled)

    def appending(self, game_id: str) -> bool:
        """Whether this process is appending to the game just now (its `settled` is to come)."""
        return game_id in self._appending

    def _settle(self, game_id: str) -> None:
        left = self._appending[game_id] - 1
        if left:
            self._appending[game_id] = left
        else:
            del self._appending[game_id]
        for settled in self._settled:
            settled(game_id)

    # -- creating -------------------------------------------------------------------------

    async def create(
        self,
        request: CreateGame,
        players: Sequence[str | None] = (),
        *,
        game_id: str | None = None,
        rated: bool = False,
    ) -> tuple[Table, list[PublicSeat]]:
        """A new game; the human seats' tokens are in the returned seats, and nowhere else.
        `players` binds seats to player accounts (by key, seat by seat; None: a guest's seat
        with a token): such a seat has no token, its player acts for it (an open table).
        `game_id` (derived by the caller, e.g. from an open table's id) makes the creation
        safe to repeat: the game of that id, if it exists already, is the answer."""
        game = kind_of(self.catalogue, request.game).game
        seed = request.seed if request.seed is not None else secrets.randbits(63)
        names = tuple(_name(asked, n) for n, asked in enumerate(request.seats))
        levels = [_level(asked) for asked in request.seats]
        now = self.clock()
        setup, events = checked_setup(game, levels, names, request.options, seed, now)
        encoded = [encode_event(e) for e in events]
        seeded = request.seed is not None
        salt = None if seeded else new_salt()  # of the commitment every seat is shown
        return await self.open(
            game,
            setup,
            request.seats,
            encoded,
            now,
            players,
            seeded=seeded,
            game_id=game_id,
            rated=rated,
            salt=salt,
        )

    async def open(
        self,
        game: AnyGame,
        setup: Setup,
        requests: Sequence[SeatRequest],
        events: Sequence[bytes | StoredEvent] | Packed,
        now: int,
        players: Sequence[str | None] = (),
        *,
        seeded: bool = False,
        game_id: str | None = None,
        rated: bool = False,
        state: Any = None,
        salt: str | None = None,
    ) -> tuple[Table, list[PublicSeat]]:
        """Store a new game from its first events: encoded ones (stamped `now`, caused by the
        system), or stored ones that keep their times and causes (an imported log, with the
        `state` they reach when it was replayed already; or `Packed`, with the `state`).
        `seeded`: its creator chose the seed (then everyone is told it); `salt`: that of the
        commitment to a seed the service drew (`app.commands.commitment`). With a `game_id` of the
        caller's, a game stored under it already is loaded instead (its lives and machine
        work asked for again: the first creation may have stopped before them)."""
        self._check_levels(game, requests)
        for name in setup.players:
            check_name(name)
        seats, public = _seat(requests, setup.players, players)
        derived, game_id = game_id is not None, game_id or secrets.token_hex(8)
        public_seed = setup.seed if seeded else None
        deal = dealt(setup.seed, salt)
        table = Table(game_id, game, seats, game.initial(), 0, now, seed=public_seed, deal=deal)
        stored: Sequence[StoredEvent] | Packed
        if isinstance(events, Packed):
            stored, table = events, table.followed(state, events.tail)
        else:
            stored = [
                e if isinstance(e, StoredEvent) else StoredEvent(n, e, now, None)
                for n, e in enumerate(events, start=1)
            ]
            table = (
                self._caught_up(table, stored) if state is None else table.followed(state, stored)
            )
        status: Status = "over" if table.over else "active"
        meta = GameMeta(game.name, status, now, setup, seats, seeded=seeded, rated=rated, salt=salt)
        scheduling = self._scheduling(table)
        if scheduling is not None:
            await scheduling.expect(table)
        try:
            await self.store.create(game_id, to_fields(meta), stored, now)
        except GameExists:
            if not derived:
                raise
            table = await self.load(game_id)
            public = [seat.public() for seat in table.seats]
            if table.over:  # its end was recorded with it
                return table, public
            now = (await self.meta(game_id)).created
        if self.lifecycle is not None:
            if table.over:
                await self.lifecycle.ended(game_id, now)
            else:
                await self.lifecycle.started(game_id, now)
        self._remember(table)
        if scheduling is not None:
            await scheduling.schedule(table)
        return table, public

    async def meta(self, game_id: str) -> GameMeta:
        """How a game was set up (its seed included: for exports of finished games only)."""
        meta = from_fields(await self.store.meta(game_id)) if _valid_id(game_id) else None
        if meta is None:
            raise UnknownGame("There is no game with that id.")
        return meta

    @staticmethod
    def _check_levels(game: AnyGame, requests: Sequence[SeatRequest]) -> None:
        check_levels(game, (_level(asked) for asked in requests))

    # -- loading --------------------------------------------------------------------------

    async def load(self, game_id: str) -> Table:
        """The game's latest state: the cached one caught up from the stream, or a full fold.

        The read of a cached game takes its last known event too (`EventStore.since`, still
        one read): a stream without it is gone. Then the game was archived (read afresh, from
        its archive, once; after that only its existence is checked) or deleted: forgotten,
        and `UnknownGame`."""
        cached = self._cache.get(game_id)
        if cached is None:
            return await self._load_fresh(game_id)
        if game_id in self._archived:  # nothing more is appended to an archived game
            if not await self.store.exists(game_id):
                raise self._gone(game_id)
            newer: list[StoredEvent] | None = []
        else:
            newer = await self.store.since(game_id, cached.version)
        if newer is None:
            if not await self.store.exists(game_id):
                raise self._gone(game_id)
            return await self._load_fresh(game_id)
        if not newer:
            if game_id in self._cache:  # other loads may have evicted it while this one read
                self._cache.move_to_end(game_id)
            return cached
        return self._remember(self._caught_up(cached, newer))

    def forget(self, game_id: str) -> None:
        """Drop the game from this process's cache (it was deleted: `app.live.hub`)."""
        self._cache.pop(game_id, None)
        self._archived.discard(game_id)

    def _gone(self, game_id: str) -> UnknownGame:
        self.forget(game_id)
        return UnknownGame("There is no game with that id.")

    def cached(self, game_id: str) -> Table | None:
        """The game as this process last saw it, if it has it (`current` without a read)."""
        return self._cache.get(game_id)

    async def current(self, game_id: str) -> Table:
        """The game as this process last saw it, with no read when it is cached: it may be
        behind the store. For a command (`execute(loaded=...)`), whose append checks the
        version and whose refusals are judged again on a fresh load; and for who sits where."""
        cached = self._cache.get(game_id)
        return cached if cached is not None else await self.load(game_id)

    async def _load_fresh(self, game_id: str) -> Table:
        meta = await self.meta(game_id)
        table = await self.folded(game_id, meta)
        if meta.archived and self.lifecycle is not None:
            self._archived.add(game_id)
        return self._remember(table)

    async def folded(self, game_id: str, meta: GameMeta) -> Table:
        """The game of `meta` folded from its whole log (from its archive once archived), read
        afresh and not cached: for reading many games once (a rebuild of the ratings)."""
        kind = self.catalogue.kind(meta.game)
        if kind is None:
            raise UnknownGame(f"This server does not host {meta.game!r} games.")
        seed = meta.setup.seed if meta.seeded else None
        deal = dealt(meta.setup.seed, meta.salt)
        table = Table(
            game_id, kind.game, meta.seats, kind.game.initial(), 0, meta.created, (), seed, deal
        )
        if meta.archived and self.lifecycle is not None:
            stored = await self.lifecycle.read_archive(game_id)
        else:
            stored = await self.store.read(game_id)
        return self._caught_up(table, stored)

    async def _read(self, table: Table, after: int, count: int | None = None) -> list[StoredEvent]:
        """The table's events after a version: from its stream, or from its archive once the
        stream is gone (the events a table knows of must exist somewhere: where they do not,
        the game was deleted, `UnknownGame`)."""
        stored = await self.store.read(table.id, after=after, count=count)
        expected = table.version - after if count is None else min(count, table.version - after)
        if len(stored) < expected and self.lifecycle is not None:
            stored = await self.lifecycle.read_archive(table.id, after, count)
        if len(stored) < expected:
            raise self._gone(table.id)
        return stored

    def _caught_up(self, table: Table, stored: Sequence[StoredEvent]) -> Table:
        if not stored:
            return table
        decode = self.catalogue[table.game.name].decode_event
        state = table.game.fold(table.state, (decode(s.data) for s in stored))
        return table.followed(state, stored)

    def _remember(self, table: Table) -> Table:
        cached = self._cache.get(table.id)
        if cached is None or cached.version <= table.version:
            self._cache[table.id] = table
            self._cache.move_to_end(table.id)
            while len(self._cache) > self._cache_size:
                self._archived.discard(self._cache.popitem(last=False)[0])
        return table

    def entries(self, table: Table, stored: Sequence[StoredEvent]) -> list[Entry]:
        """Stored events decoded for the table's game."""
        decode = self.catalogue[table.game.name].decode_event
        return [Entry(s.version, s.at, s.by, decode(s.data)) for s in stored]

    async def events(self, game_id: str, after: int = 0) -> tuple[Table, list[Entry]]:
        """The game and its events after a version (not yet redacted)."""
        table = await self.load(game_id)
        if after > table.version:
            raise BadVersion(
                f"This game has {table.version} events; there is nothing after event {after}.",
            )
        if after == table.version:
            return table, []
        return table, self.entries(table, await self._read(table, max(after, 0)))

    async def state_at(self, game_id: str, version: int) -> tuple[Table, Any, int]:
        """The game, its state as it was at a version, and the time of that version's event."""
        table = await self.load(game_id)
        if not 0 < version <= table.version:
            raise BadVersion(f"Versions of this game go from 1 to {table.version}.")
        stored = await self._read(table, 0, version)
        events = (e.event for e in self.entries(table, stored))
        return table, table.game.fold(table.game.initial(), events), stored[-1].at

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
        by_ai: bool = False,
        answering: object = None,
    ) -> tuple[Table, Outcome]:
        """Decide and append a seat's command (`seat` None: the system's), at the server's time,
        retrying on a concurrent write. A seat's command comes from its person unless `by_ai`
        (the AI playing it): the game may refuse a person what it lets the AI do (`admit`).

        An idempotency key belongs to the seat that sends it: the same key from another seat
        names another command. The append checks the key, so the key is looked up beforehand
        only when nothing is appended (a refusal, or nothing to do). `loaded` (the game as the
        caller has it, possibly behind the store: `current`) saves the first attempt a read; a
        conflict reloads, and so does a refusal of a command judged on `loaded`. A system
        command that changes nothing appends nothing. `answering` (the hub's subscription of a
        seat's socket that answers its own command with its events) goes to the watchers.
        """
        if idempotency_key is not None:
            idempotency_key = f"seat{'-' if seat is None else seat}:{idempotency_key}"
        started = time.perf_counter()
        game = [loaded.game.name if loaded is not None else "unknown"]
        try:
            table, outcome = await self._execute(
                game_id,
                seat,
                command,
                expected_version,
                idempotency_key,
                loaded,
                game,
                by_ai,
                answering,
            )
        except (RuleError, StaleVersion):
            metrics.COMMANDS.count(game[0], "refused")
            raise
        except Busy:
            metrics.COMMANDS.count(game[0], "busy")
            raise
        finally:
            metrics.COMMANDS.time(game[0], time.perf_counter() - started)
        kind = "replayed" if outcome.replayed else "applied" if outcome.entries else "unchanged"
        metrics.COMMANDS.count(game[0], kind)
        return table, outcome

    async def _execute(
        self,
        game_id: str,
        seat: int | None,
        command: Any,
        expected_version: int | None,
        idempotency_key: str | None,
        loaded: Table | None,
        game: list[str],
        by_ai: bool,
        answering: object,
    ) -> tuple[Table, Outcome]:
        behind = loaded is not None  # a table the caller had may be behind the store
        for _ in range(self._attempts):
            if loaded is not None:
                table, loaded = loaded, None
            else:
                table, behind = await self.load(game_id), False
            game[0] = table.game.name
            try:
                if expected_version is not None and table.stale(seat, expected_version):
                    raise StaleVersion(
                        f"The game is at version {table.version}, not {expected_version}."
                    )
                if seat is not None and not by_ai:
                    table.game.admit(table.state, seat, command)
                now = max(self.clock(), table.at)
                events = table.game.decide(table.state, seat, command, now)
            except (RuleError, StaleVersion):
                if behind:  # judge it again on the game as it is now
                    continue
                if done := await self._recalled(table, idempotency_key):
                    return done  # an earlier send of it explains the refusal
                raise
            if not events:
                if behind:
                    continue
                if done := await self._recalled(table, idempotency_key):
                    return done
                return table, Outcome(table.version, [], replayed=False)
            state = table.game.fold(table.state, events)
            version = table.version + len(events)
            after = Table(
                table.id,
                table.game,
                table.seats,
                state,
                version,
                now,
                marked(table, ((version, now, seat),)),
                table.seed,
                table.deal,
            )
            over = after.over
            scheduling = self._scheduling(after)
            if scheduling is not None:
                await scheduling.expect(after)
            self._appending[game_id] = self._appending.get(game_id, 0) + 1
            try:
                result = await self.store.append(
                    game_id,
                    table.version,
                    [encode_event(e) for e in events],
                    at=now,
                    by=seat,
                    idempotency_key=idempotency_key,
                    meta=status_field("over") if over else None,
                )
                if not result.replayed:
                    self._remember(after)
                    first = result.first
                    entries = [Entry(v, now, seat, e) for v, e in enumerate(events, start=first)]
                    for watcher in self._watchers:
                        watcher(after, entries, answering)
            except VersionConflict:
                metrics.CONFLICTS.labels(table.game.name).inc()
                continue
            except GameNotFound:
                raise self._gone(game_id) from None
            finally:
                self._settle(game_id)
            if result.replayed:
                return await self._replayed(await self.load(game_id), result.first, result.last)
            if over and self.lifecycle is not None:
                await self.lifecycle.ended(game_id, now)
            if scheduling is not None:
                await scheduling.schedule(after)
            return after, Outcome(result.last, entries, replayed=False)
        raise Busy("The game is too busy right now; send the command again.")

    def _scheduling(self, table: Table) -> Scheduler | None:
        """The scheduler, when `table` waits for machine work; None when it waits for none
        (then nothing is awaited for it: most tables of people)."""
        scheduler = self.scheduler
        return scheduler if scheduler is not None and scheduler.waits(table) else None

    async def _recalled(self, table: Table, key: str | None) -> tuple[Table, Outcome] | None:
        """The first outcome of a command sent before with this idempotency key, if any."""
        seen = None if key is None else await self.store.recall(table.id, key)
        return None if seen is None else await self._replayed(table, seen.first, seen.last)

    async def _replayed(self, table: Table, first: int, last: int) -> tuple[Table, Outcome]:
        stored = await self._read(table, first - 1, last - first + 1)
        return table, Outcome(last, self.entries(table, stored), replayed=True)


def _valid_id(game_id: str) -> bool:
    return 0 < len(game_id) <= 64 and all(c.isalnum() or c in "-_" for c in game_id)


def _level(asked: SeatRequest) -> str | None:
    """The AI level of a seat as asked (None: a person's seat)."""
    return (asked.level or "normal") if asked.type == "ai" else None


def _name(asked: SeatRequest, number: int) -> str:
    default = f"AI {number + 1}" if asked.type == "ai" else f"Player {number + 1}"
    return clean_name(asked.name or "") or default


def _seat(
    requests: Sequence[SeatRequest], names: Sequence[str], players: Sequence[str | None] = ()
) -> tuple[list[Seat], list[PublicSeat]]:
    """Seats with fresh tokens for the people but players (`players`: the account bound to
    each seat, or None); the tokens go back to the creator only."""
    seats, public = [], []
    for number, (asked, name) in enumerate(zip(requests, names, strict=True)):
        player = players[number] if number < len(players) else None
        if asked.type == "ai":
            seat = Seat(number, "ai", name, level=asked.level or "normal")
            public.append(seat.public())
        elif player is not None:
            seat = Seat(number, "human", name, player=player)
            public.append(seat.public())
        else:
            token = new_token()
            seat = Seat(number, "human", name, token_hash=hash_of(token))
            public.append(PublicSeat(number, "human", name, token=token))
        seats.append(seat)
    return seats, public
