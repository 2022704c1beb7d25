"""A seat goes to the AI a bounded number of times a game (`domain.seating.table.LEAVES`), so
that a game's log is bounded by its rules; an older log with more still folds."""

from __future__ import annotations

from typing import Any

import pytest
from game_profiles import T0

from domain.game import AnyGame, Record, Setup
from domain.registry import TABLES
from domain.seating.model import (
    Call,
    CallRunOut,
    Leave,
    Rejoin,
    SeatLeft,
    SeatRejoined,
    TooManyLeaves,
)
from domain.seating.resigning import CALL_SECONDS
from domain.seating.table import LEAVES
from domain.verify import verify

TITLES = ["crazymino", "bazaar", "mondo"]


class Log:
    """A game at a table, played command by command, its records kept as the service would."""

    def __init__(self, game: AnyGame, setup: Setup) -> None:
        self.game, self.setup = game, setup
        self.records = [Record(T0, None, e) for e in game.start(setup, T0)]
        self.state = game.replay(r.event for r in self.records)

    def send(self, seat: int | None, command: Any, now: int = T0) -> list[Any]:
        events = self.game.decide(self.state, seat, command, now)
        self.records += [Record(now, seat, e) for e in events]
        self.state = self.game.fold(self.state, events)
        return events


def table(name: str) -> Log:
    return Log(TABLES[name], Setup(seed=5, players=("Ann", "Bob", "Cy")))


@pytest.mark.parametrize("name", TITLES)
def test_a_seat_leaves_at_most_leaves_times_then_is_refused(name: str) -> None:
    log = table(name)
    for _ in range(LEAVES):
        log.send(1, Leave())
        log.send(1, Rejoin())
    with pytest.raises(TooManyLeaves) as refused:
        log.game.decide(log.state, 1, Leave(), T0)
    assert refused.value.code == "too_many_leaves"
    log.send(2, Leave())  # another seat keeps its own count
    assert verify(log.game, log.setup, log.records) == log.state


@pytest.mark.parametrize("name", TITLES)
def test_the_last_leave_can_still_be_taken_back(name: str) -> None:
    log = table(name)
    for _ in range(LEAVES):
        log.send(0, Leave())
        log.send(0, Rejoin())
    assert log.state.table.leaves_of(0) == LEAVES
    assert log.game.away(log.state) == {}


def test_a_seat_called_away_past_the_limit_stays_the_ais() -> None:
    log = table("crazymino")
    seat = next(iter(log.game.to_act(log.state)))
    caller = (seat + 1) % 3
    for _ in range(LEAVES):
        log.send(seat, Leave())
        log.send(seat, Rejoin())
    called = log.send(caller, Call(seat))
    number = called[0].call
    log.send(None, CallRunOut(seat, number), T0 + CALL_SECONDS * 1000)
    assert log.state.table.leaves_of(seat) == LEAVES + 1
    with pytest.raises(TooManyLeaves):
        log.game.decide(log.state, seat, Rejoin(), T0 + CALL_SECONDS * 1000)
    assert verify(log.game, log.setup, log.records) == log.state


@pytest.mark.parametrize("name", TITLES)
def test_an_older_log_with_more_leaves_still_folds(name: str) -> None:
    """The limit refuses new commands only: a stored log played before it replays."""
    log = table(name)
    older = [e for _ in range(3 * LEAVES) for e in (SeatLeft(1, "normal", "left"), SeatRejoined(1))]
    state = log.game.fold(log.state, older)
    assert state.table.leaves_of(1) == 3 * LEAVES
    assert log.game.away(state) == {}
    assert log.game.replay([r.event for r in log.records] + older) == state
