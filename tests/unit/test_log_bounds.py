"""Every finished game imports: the longest log each title's rules allow fits the import limit.

Each test builds the worst case its rules allow, through the rules themselves: the most seats,
names of the longest length, times of today's size, every seat leaving and coming back as often
as it may, and on turn-based tables a clock whose timeouts come as often as they can without
handing the seat to the AI. Bazaar's longest game never buys (it ends after its last round);
Mondo's seats take and put back a tile until their moves run out, three rounds long. The log is
exported as the service does, must fit `IMPORT_MAX_BYTES`'s default, and imports.
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest

from app.api import logfile
from app.api.projection import LOG_FORMAT, api_types
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.seats import NAME_LENGTH, PublicSeat
from domain.bazaar.rules import ROUNDS
from domain.game import Record, Setup
from domain.mondo.errors import TooManyMoves
from domain.mondo.model import ReturnTile, TakeTile
from domain.mondo.rules import MOVES_PER_ROUND
from domain.registry import TABLES
from domain.seating.model import Leave, Rejoin
from domain.seating.table import LEAVES

T0 = 1_765_000_000_000
#: The most timeouts in a row before a seat goes to the AI (the option's largest value).
TIMEOUTS = 20


class Worst:
    """A game played command by command the longest way the rules allow."""

    def __init__(self, name: str, seats: int, **options: Any) -> None:
        self.game: Any = TABLES[name]
        players = tuple(f"{n}".ljust(NAME_LENGTH, "x") for n in range(seats))
        self.setup = Setup(seed=11, players=players, options=options)
        self.now = T0
        self.records = [Record(T0, None, e) for e in self.game.start(self.setup, T0)]
        self.state = self.game.replay(r.event for r in self.records)

    def send(self, seat: int | None, command: Any, at: int | None = None) -> list[Any]:
        self.now = max(self.now + 1, at or 0)
        events = self.game.decide(self.state, seat, command, self.now)
        self.records += [Record(self.now, seat, e) for e in events]
        self.state = self.game.fold(self.state, events)
        return events

    def leaves_and_rejoins(self, seats: int) -> None:
        for seat in range(seats):
            for _ in range(LEAVES):
                self.send(seat, Leave())
                self.send(seat, Rejoin())

    def timer(self) -> None:
        timer = min(self.game.timers(self.state), key=lambda t: t.due)
        self.send(None, timer.command, timer.due)

    def exported(self) -> bytes:
        types = api_types(self.game)
        seats = [PublicSeat(n, "human", p) for n, p in enumerate(self.setup.players)]
        records = [types.record(r.at, r.by, r.event) for r in self.records]
        return msgspec.json.encode(types.log(LOG_FORMAT, self.setup, seats, records))


def _turn_based(name: str, seats: int) -> Worst:
    """Every turn times out but the one that keeps the seat its player's; that one plays the
    least move (for Crazymino a draw while the pile lasts)."""
    worst = Worst(name, seats, turn_seconds=5, timeouts_to_ai=TIMEOUTS)
    worst.leaves_and_rejoins(seats)
    game = worst.game
    while not game.is_over(worst.state):
        (seat,) = game.to_act(worst.state)
        if worst.state.table.strikes_of(seat) < TIMEOUTS - 1:
            worst.timer()
            continue
        turn = game.turn_key(worst.state)
        while game.to_act(worst.state) == {seat} and game.turn_key(worst.state) == turn:
            worst.send(seat, game.inner.least(worst.state.game, seat, worst.now + 1))
            if game.is_over(worst.state):
                break
    return worst


def _imports(worst: Worst) -> bytes:
    data = worst.exported()
    limit = Settings.from_env({}).import_max_bytes
    assert len(data) <= limit, f"{len(data):,} B > {limit:,} B"
    _, game, stored, state = logfile.read(Catalogue.with_extras(()), data)
    assert len(stored) == len(worst.records)
    assert game.is_over(state)
    return data


@pytest.mark.parametrize(("name", "seats"), [("bazaar", 6), ("crazymino", 4)])
def test_the_longest_turn_based_game_imports(name: str, seats: int) -> None:
    worst = _turn_based(name, seats)
    _imports(worst)
    if name == "bazaar":
        assert worst.state.game.turns == ROUNDS * seats
        assert worst.state.game.ended.reason == "last_round"


def test_the_longest_mondo_game_imports() -> None:
    """Four seats take and put back a tile until their moves run out, each round to its clock;
    in the first round they then leave and come back as often as they may (leaving takes a chip)."""
    worst = Worst("mondo", 4)
    game = worst.game
    while not game.is_over(worst.state):
        mondo = worst.state.game
        if not mondo.running:
            worst.timer()
            continue
        for seat in range(4):
            tile = seat
            while mondo.seats[seat].moves < MOVES_PER_ROUND:
                held = mondo.seats[seat].held is not None
                command = ReturnTile(tile) if held else TakeTile(tile)
                worst.send(seat, command)
                mondo = worst.state.game
            again = ReturnTile(tile) if mondo.seats[seat].held is not None else TakeTile(tile)
            with pytest.raises(TooManyMoves, match="moves this round"):
                worst.send(seat, again)
        if mondo.round == 1:
            worst.leaves_and_rejoins(4)
        worst.timer()
    _imports(worst)
