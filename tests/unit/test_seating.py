"""The table around every game: turn clocks and their fallback move, leaving, taking a seat
back, the AI playing for whoever has gone, all of it in the log and checked by `verify`."""

from __future__ import annotations

import contextlib
import random
from typing import Any

import pytest
from game_profiles import T0

from domain.errors import GameOverError, OptionError, TurnError
from domain.game import AnyGame, Record, Setup
from domain.mondo import model as mondo
from domain.registry import TABLES
from domain.seating.model import (
    AlreadyLeft,
    Away,
    Clock,
    ClockRunning,
    ClockSet,
    Leave,
    NotLeft,
    Rejoin,
    SeatAway,
    SeatLeft,
    SeatRejoined,
    TableSet,
    TimedOut,
    TimeOut,
    TooManyLeaves,
)
from domain.seating.table import Seated
from domain.verify import verify

TURN_BASED = ["crazymino", "bazaar"]
SECONDS = 30


class Log:
    """A game at a table, played command by command, its records kept as the service would."""

    def __init__(self, game: AnyGame, setup: Setup, now: int = T0) -> None:
        self.game, self.setup = game, setup
        self.records = [Record(now, None, e) for e in game.start(setup, now)]
        self.state = game.replay(r.event for r in self.records)

    def send(self, seat: int | None, command: Any, now: int) -> list[Any]:
        events = self.game.decide(self.state, seat, command, now)
        self.records += [Record(now, seat, e) for e in events]
        self.state = self.game.fold(self.state, events)
        return events

    @property
    def seat(self) -> int:
        (seat,) = self.game.to_act(self.state)
        return seat

    def move(self, now: int) -> list[Any]:
        """The seat to act plays its first legal command."""
        seat = self.seat
        return self.send(seat, self.game.legal(self.state, seat, now)[0], now)


def clocked(name: str, **options: Any) -> Log:
    options = {"turn_seconds": SECONDS, **options}
    return Log(TABLES[name], Setup(seed=11, players=("Ann", "Bob"), options=options))


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_table_without_options_adds_nothing_to_the_log(name: str) -> None:
    game = TABLES[name]
    assert isinstance(game, Seated)
    setup = Setup(seed=3, players=("Ann", "Bob"))
    assert game.start(setup, T0) == game.inner.start(setup, T0)
    assert game.timers(game.replay(game.start(setup, T0))) == []


@pytest.mark.parametrize("name", TURN_BASED)
def test_the_clock_starts_for_the_person_to_act(name: str) -> None:
    log = clocked(name)
    table_set, clock_set = (r.event for r in log.records[-2:])
    assert table_set == TableSet(SECONDS, 3, "normal", (), clock_per="turn", fallback="least")
    assert clock_set == ClockSet(log.seat, T0 + SECONDS * 1000, ())
    (timer,) = log.game.timers(log.state)
    assert timer.due == T0 + SECONDS * 1000
    assert timer.command == TimeOut(log.seat, 1) and timer.key == "clock-1"
    view = log.game.seating(log.state)
    assert view.clock == Clock(log.seat, T0 + SECONDS * 1000) and view.turn_seconds == SECONDS


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_timeout_plays_the_least_move_the_rules_allow(name: str) -> None:
    log = clocked(name)
    seat, due = log.seat, T0 + SECONDS * 1000
    with pytest.raises(ClockRunning):
        log.game.decide(log.state, None, TimeOut(seat, 1), due - 1)
    with pytest.raises(TurnError):
        log.game.decide(log.state, seat, TimeOut(seat, 1), due)
    game = log.game
    assert isinstance(game, Seated)
    before = log.state
    events = log.send(None, TimeOut(seat, 1), due)
    assert events[0] == TimedOut(seat, 1, 1)
    played = game.inner.decide(before.game, seat, game.inner.least(before.game, seat, due), due)
    assert events[1 : 1 + len(played)] == played
    # The least move scores nothing: Crazymino draws and passes, Bazaar draws and buys nothing.
    assert game.scores(log.state) == game.scores(before)
    assert isinstance(events[-1], ClockSet) and events[-1].strikes[seat] == 1
    words = game.describe(TimedOut(1, 1, 1), ["Ann", "Bob"])
    assert words == "Bob's time ran out (once in a row)."


@pytest.mark.parametrize("name", TURN_BASED)
def test_timeouts_in_a_row_hand_the_seat_to_the_ai(name: str) -> None:
    log = clocked(name, timeouts_to_ai=2, takeover_level="hard")
    now = T0
    late = log.seat
    for strike in (1, 2):
        now += SECONDS * 1000
        while log.seat != late:  # the other seat plays at once
            now += 1000
            log.move(now)
        (timer,) = log.game.timers(log.state)
        now = max(now, timer.due)
        events = log.send(None, timer.command, now)
        assert events[0] == TimedOut(late, timer.command.clock, strike)
        if strike == 2:
            assert SeatLeft(late, "hard", "timeouts") in events
    assert log.game.away(log.state) == {late: "hard"}
    assert log.game.legal(log.state, late, now) == []
    assert verify(log.game, log.setup, log.records) == log.state


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_move_of_ones_own_ends_the_run_of_timeouts(name: str) -> None:
    log = clocked(name, timeouts_to_ai=2)
    late, now = log.seat, T0 + SECONDS * 1000
    log.send(None, TimeOut(late, 1), now)
    for _ in range(12):  # to the late seat's own move, and past it
        now += 1000
        mover = log.seat
        log.move(now)
        if mover == late:
            break
    assert log.state.table.strikes_of(late) == 0
    (timer,) = log.game.timers(log.state)
    while log.seat != late:
        now += 1000
        log.move(now)
    (timer,) = log.game.timers(log.state)
    events = log.send(None, timer.command, timer.due)
    assert events[0].strike == 1 and not any(isinstance(e, SeatLeft) for e in events)


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_stale_timeout_does_nothing(name: str) -> None:
    log = clocked(name)
    seat = log.seat
    while log.seat == seat:  # to the end of the turn (a Bazaar turn has several commands)
        log.move(T0 + 1000)
    assert log.game.decide(log.state, None, TimeOut(seat, 1), T0 + 10**7) == []


@pytest.mark.parametrize("name", TURN_BASED)
def test_no_clock_runs_for_an_ai_seat(name: str) -> None:
    game = TABLES[name]
    setup = Setup(seed=5, players=("Bot", "Bot"), options={"turn_seconds": 60}, ai_seats=(0, 1))
    log = Log(game, setup)
    assert isinstance(log.records[-1].event, TableSet)
    assert game.timers(log.state) == []
    assert log.records[-1].event.ai_seats == (0, 1)


@pytest.mark.parametrize("name", [*TURN_BASED, "mondo"])
def test_leaving_and_coming_back(name: str) -> None:
    game = TABLES[name]
    options = {"round_seconds": 60} if name == "mondo" else {}
    log = Log(game, Setup(seed=9, players=("Ann", "Bob"), options=options))
    with pytest.raises(TurnError):
        game.decide(log.state, None, Leave(), T0)
    with pytest.raises(NotLeft):
        game.decide(log.state, 0, Rejoin(), T0)
    assert log.send(0, Leave(), T0 + 1)[0] == SeatLeft(0, "normal", "left")
    assert game.away(log.state) == {0: "normal"}
    assert game.seating(log.state).away == (Away(0, "normal"),)
    with pytest.raises(AlreadyLeft):
        game.decide(log.state, 0, Leave(), T0 + 2)
    assert game.legal(log.state, 0, T0 + 2) == []
    some_move = game.inner.legal(log.state.game, 0, T0 + 2)  # type: ignore[attr-defined]
    if some_move:  # the person may not play it; the AI playing the seat may
        with pytest.raises(SeatAway) as refused:
            game.admit(log.state, 0, some_move[0])
        assert "take your seat back" in refused.value.message
    game.admit(log.state, 0, Rejoin())
    assert log.send(0, Rejoin(), T0 + 3) == [SeatRejoined(0)]
    assert game.away(log.state) == {}
    assert verify(game, log.setup, log.records) == log.state
    table = [r.event for r in log.records if isinstance(r.event, (SeatLeft, SeatRejoined))]
    assert [game.describe(e, ["Ann", "Bob"]) for e in table] == [
        "Ann left the table: the normal AI plays their seat.",
        "Ann took their seat back.",
    ]


def test_leaving_mondo_in_a_round_takes_the_lowest_chip_at_once() -> None:
    game = TABLES["mondo"]
    log = Log(game, Setup(seed=9, players=("Ann", "Bob", "Cy"), options={"round_seconds": 60}))
    chips = log.state.game.chips
    assert chips == tuple(sorted(chips, reverse=True)) and len(set(chips)) == len(chips)
    events = log.send(1, Leave(), T0 + 5)
    assert events == [
        SeatLeft(1, "normal", "left"),
        mondo.BonusTaken(1, chips[-1], full_board=False, lowest=True),
    ]
    assert log.state.game.chips == chips[:-1]
    assert log.state.game.seats[1].chip == chips[-1]
    assert 1 not in game.to_act(log.state)
    top = log.send(0, mondo.TakeBonus(), T0 + 6)[0]
    assert top.chip == chips[0]  # the others still take the top chip
    assert "(they left the table)" in game.describe(events[1], ["Ann", "Bob", "Cy"])
    assert verify(game, log.setup, log.records) == log.state


def test_leaving_after_the_end_is_refused() -> None:
    game = TABLES["crazymino"]
    log = Log(game, Setup(seed=9, players=("Ann", "Bob")))
    log.send(None, game.abandon(), T0 + 1)
    with pytest.raises(GameOverError):
        game.decide(log.state, 0, Leave(), T0 + 2)


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"turn_seconds": 2}, "bad_option.turn_seconds"),
        ({"timeouts_to_ai": 0}, "bad_option.timeouts_to_ai"),
        ({"takeover_level": "expert"}, "bad_option.takeover_level"),
    ],
)
def test_table_options_are_checked(options: dict[str, Any], code: str) -> None:
    with pytest.raises(OptionError) as refused:
        TABLES["bazaar"].start(Setup(seed=1, players=("a", "b"), options=options), T0)
    assert refused.value.code == code


@pytest.mark.parametrize("name", [*TURN_BASED, "mondo"])
@pytest.mark.parametrize("seed", range(6))
def test_random_tables_with_leaving_and_timeouts_replay_and_verify(name: str, seed: int) -> None:
    """People leave, come back and let their clocks run out at random; the AI plays for those
    who have left; every log checks against the rules and rebuilds the same state."""
    rng = random.Random(seed)
    game = TABLES[name]
    players = ("Ann", "Bob", "Cy")[: 2 + seed % 2]
    options: dict[str, Any] = (
        {"round_seconds": 60, "break_seconds": 0}
        if name == "mondo"
        else {"turn_seconds": 10, "timeouts_to_ai": 1 + seed % 3}
    )
    log = Log(game, Setup(seed=seed, players=players, options=options))
    now = T0
    for _ in range(3000):
        if game.is_over(log.state):
            break
        now += rng.randrange(1, 4000)
        due = [t for t in game.timers(log.state) if t.due <= now]
        if due:
            log.send(None, due[0].command, max(now, due[0].due))
            continue
        seats = sorted(game.to_act(log.state))
        if not seats:
            now = min(t.due for t in game.timers(log.state))
            continue
        seat = rng.choice(seats)
        away = game.away(log.state)
        if rng.random() < 0.06:
            with contextlib.suppress(TooManyLeaves):  # the seat has gone to the AI too often
                log.send(seat, Rejoin() if seat in away else Leave(), now)
            continue
        if seat not in away and rng.random() < 0.3:
            now += rng.randrange(12_000)  # a person thinks (and may run out of time)
            continue
        view = game.view(log.state, seat)
        assert isinstance(game, Seated)
        level = "normal" if name == "mondo" else "easy"  # Mondo's easy AI leaves rounds at once
        command = game.policies[level](view, rng.randrange(2**32), now)
        log.send(seat, command, now)
    assert game.is_over(log.state)
    kinds = {type(r.event) for r in log.records}
    assert SeatLeft in kinds
    assert TimedOut in kinds or name == "mondo"
    assert verify(game, log.setup, log.records) == log.state
    assert game.replay(r.event for r in log.records) == log.state
