"""A turn's clock is the turn's: it runs once per turn of a seat, however many commands the turn
has (Bazaar: draw or trade, a joker's colour, buy or end), and one timeout is one strike, the
`normal` AI finishing the whole turn. Crazymino's turn is one command; Mondo has no turn clock
(its rounds run on their own clocks)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec
import pytest
from game_profiles import T0

from domain.bazaar.model import ChooseColour, ColourChosen, Draw, Drawn, EndTurn, TurnEnded
from domain.errors import OptionError
from domain.game import AnyGame, Record, Setup
from domain.registry import TABLES
from domain.seating.model import (
    ClockSet,
    Leave,
    Rejoin,
    SeatLeft,
    SeatRejoined,
    TableSet,
    TimedOut,
)
from domain.verify import LogError, verify

#: A probe of the edges (held in the fault suite too: `pytest -m faults`).
pytestmark = pytest.mark.faults

SECONDS = 30
TURN = SECONDS * 1000
#: With this seed, seat 1 plays first and its first draw is the joker.
JOKER_FIRST = 6
RECORDED = Path(__file__).parent / "recorded"


class Log:
    """A game at a table, played command by command, its records kept as the service would."""

    def __init__(self, name: str, players: tuple[str, ...] = ("Ann", "Bob"), **options: Any):
        self.game: AnyGame = TABLES[name]
        options = {"turn_seconds": SECONDS, **options}
        self.setup = Setup(seed=JOKER_FIRST, players=players, options=options)
        self.records = [Record(T0, None, e) for e in self.game.start(self.setup, T0)]
        self.state = self.game.replay(r.event for r in self.records)

    def send(self, seat: int | None, command: Any, now: int) -> list[Any]:
        events = self.game.decide(self.state, seat, command, now)
        self.records += [Record(now, seat, e) for e in events]
        self.state = self.game.fold(self.state, events)
        return events

    @property
    def seat(self) -> int:
        (seat,) = self.game.to_act(self.state)
        return seat

    def time_out(self) -> tuple[int, list[Any]]:
        """The running clock's timeout, sent at its due: (the due, the events)."""
        (timer,) = self.game.timers(self.state)
        return timer.due, self.send(None, timer.command, timer.due)

    def whole_turn(self, now: int) -> int:
        """The seat to act plays its first legal command until the next seat's turn."""
        seat = self.seat
        while self.seat == seat:
            now += 1000
            self.send(seat, self.game.legal(self.state, seat, now)[0], now)
        return now

    def clocks(self) -> list[ClockSet]:
        return [r.event for r in self.records if isinstance(r.event, ClockSet)]

    def verified(self) -> bool:
        return bool(verify(self.game, self.setup, self.records) == self.state)


# -- Bazaar: a turn of several commands -------------------------------------------------------


def test_a_bazaar_turn_of_several_commands_runs_one_clock() -> None:
    log = Log("bazaar")
    assert log.seat == 1
    assert log.clocks() == [ClockSet(1, T0 + TURN, ())]
    assert log.send(1, Draw(), T0 + 1000) == [Drawn(1, "joker")]
    assert log.send(1, ChooseColour("red"), T0 + 2000) == [ColourChosen(1, "red")]
    (timer,) = log.game.timers(log.state)
    assert (timer.key, timer.due) == ("clock-1", T0 + TURN)  # the turn's clock, not reset
    ended = log.send(1, EndTurn(), T0 + 3000)
    assert ended == [TurnEnded(1), ClockSet(0, T0 + 3000 + TURN, (0, 0))]
    assert log.verified()


def test_a_bazaar_turn_drawn_then_idle_is_one_timeout_and_the_ai_ends_the_turn() -> None:
    log = Log("bazaar")
    log.send(1, Draw(), T0 + 1000)
    due, events = log.time_out()
    assert due == T0 + TURN
    assert [e for e in events if isinstance(e, TimedOut)] == [TimedOut(1, 1, 1)]
    assert events[0] == TimedOut(1, 1, 1)
    assert isinstance(events[1], ColourChosen)  # the joker's colour, then a purchase or the end
    assert log.seat == 0 and log.state.game.turns == 1  # the AI finished the whole turn
    assert events[-1] == ClockSet(0, due + TURN, (0, 1))
    assert [c for c in log.clocks() if c.seat == 1] == [ClockSet(1, T0 + TURN, ())]
    assert log.state.table.strikes_of(1) == 1
    assert log.verified()


def test_three_idle_bazaar_turns_in_a_row_hand_the_seat_to_the_ai() -> None:
    log = Log("bazaar", timeouts_to_ai=3)
    now = T0
    for strike in (1, 2, 3):
        if log.seat != 1:
            now = log.whole_turn(now)
        now, events = log.time_out()
        assert events[0] == TimedOut(1, events[0].clock, strike)
        assert sum(isinstance(e, TimedOut) for e in events) == 1
        assert log.seat == 0
        assert (SeatLeft(1, "normal", "timeouts") in events) == (strike == 3)
    assert log.game.away(log.state) == {1: "normal"}
    assert log.verified()


def test_a_move_of_ones_own_clears_the_strikes_and_keeps_the_turns_due() -> None:
    log = Log("bazaar")
    now, _ = log.time_out()  # Bob's first turn: idle, one strike
    now = log.whole_turn(now)
    start = log.clocks()[-1]
    assert (start.seat, start.strikes) == (1, (0, 1))
    (timer,) = log.game.timers(log.state)
    events = log.send(1, Draw(), now + 1000)
    assert events[-1] == ClockSet(1, start.due, (0, 0), kept=True)  # the same clock runs on
    assert log.game.timers(log.state) == [timer]
    assert log.game.seating(log.state).strikes == (0, 0)
    assert "clock runs on" in log.game.describe(events[-1], ["Ann", "Bob"])
    _, events = log.time_out()
    assert events[0].strike == 1
    assert log.verified()


def test_someone_leaving_or_coming_back_does_not_reset_the_turns_clock() -> None:
    log = Log("bazaar")
    assert log.send(0, Leave(), T0 + 1000) == [SeatLeft(0, "normal", "left")]
    assert log.send(0, Rejoin(), T0 + 2000) == [SeatRejoined(0)]
    (timer,) = log.game.timers(log.state)
    assert (timer.key, timer.due) == ("clock-1", T0 + TURN)
    assert log.verified()


def test_each_turn_of_a_solo_bazaar_gets_its_own_clock() -> None:
    log = Log("bazaar", players=("Ann",))
    log.send(0, Draw(), T0 + 1000)
    log.send(0, ChooseColour("red"), T0 + 2000)
    assert log.send(0, EndTurn(), T0 + 3000)[-1] == ClockSet(0, T0 + 3000 + TURN, (0,))
    (timer,) = log.game.timers(log.state)
    assert (timer.key, timer.due) == ("clock-2", T0 + 3000 + TURN)
    due, events = log.time_out()
    assert sum(isinstance(e, TimedOut) for e in events) == 1
    assert log.state.game.turns == 2 and events[-1] == ClockSet(0, due + TURN, (1,))
    assert log.verified()


def test_a_new_table_says_its_clock_runs_per_turn() -> None:
    (table,) = (r.event for r in Log("bazaar").records if isinstance(r.event, TableSet))
    assert table.clock_per == "turn"


def test_a_bazaar_log_recorded_with_a_clock_per_command_still_decodes_and_checks() -> None:
    """Logs written before the clock ran per turn (their `table_set` has no `clock_per`) check
    against the rules they were played under: a clock per command."""
    game = TABLES["bazaar"]
    records = list[Record[game.event_type]]  # type: ignore[name-defined]
    kind = msgspec.defstruct("Log", [("setup", Setup), ("records", records)])
    log: Any = msgspec.json.decode(
        (RECORDED / "bazaar_clock_per_command.json").read_bytes(), type=kind
    )
    events = [r.event for r in log.records]
    assert next(e for e in events if isinstance(e, TableSet)).clock_per == "command"
    assert sum(isinstance(e, TimedOut) for e in events) == 2  # two in Bob's first turn
    state = verify(game, log.setup, log.records)
    assert state == game.replay(events)
    assert state.table.strikes_of(1) == 2


@pytest.mark.parametrize("name", ["crazymino", "bazaar"])
def test_a_log_whose_timeouts_played_the_normal_ai_still_checks(name: str) -> None:
    """Logs written before a timeout played the least move (their `table_set` has no
    `fallback`): the normal AI's move was played for the late seat, and they check so."""
    game = TABLES[name]
    records = list[Record[game.event_type]]  # type: ignore[name-defined]
    kind = msgspec.defstruct("Log", [("setup", Setup), ("records", records)])
    log: Any = msgspec.json.decode(
        (RECORDED / f"{name}_normal_fallback.json").read_bytes(), type=kind
    )
    events = [r.event for r in log.records]
    table = next(e for e in events if isinstance(e, TableSet))
    assert (table.fallback, table.clock_per) == ("normal", "turn")
    state = verify(game, log.setup, log.records)
    assert state == game.replay(events)
    assert sorted(state.table.strikes) == [2, 2]  # four timeouts, two a seat
    if name == "crazymino":  # the normal AI laid tiles for the late seats
        assert any(type(e).__name__ == "TilePlaced" for e in events)
    # The same log with its table set today (the least move) does not check.
    today = [
        Record(r.at, r.by, msgspec.structs.replace(r.event, fallback="least"))
        if isinstance(r.event, TableSet)
        else r
        for r in log.records
    ]
    if name == "crazymino":
        with pytest.raises(LogError):
            verify(game, log.setup, today)


def test_a_log_played_per_turn_does_not_check_as_one_played_per_command() -> None:
    log = Log("bazaar")
    log.send(1, Draw(), T0 + 1000)
    log.time_out()
    opening = [
        Record(r.at, r.by, msgspec.structs.replace(r.event, clock_per="command"))
        if isinstance(r.event, TableSet)
        else r
        for r in log.records
    ]
    with pytest.raises(LogError):
        verify(log.game, log.setup, opening)


# -- Crazymino: a turn is one command ---------------------------------------------------------


def test_a_crazymino_turn_is_one_command_and_runs_one_clock() -> None:
    log = Log("crazymino")
    now, seat = T0, log.seat
    for _ in range(4):
        now += 1000
        events = log.send(seat, log.game.legal(log.state, seat, now)[0], now)
        assert log.seat != seat and events[-1] == ClockSet(log.seat, now + TURN, (0, 0))
        seat = log.seat
    due, events = log.time_out()
    assert events[0] == TimedOut(seat, events[0].clock, 1)
    assert sum(isinstance(e, TimedOut) for e in events) == 1
    assert log.seat != seat and events[-1] == ClockSet(log.seat, due + TURN, events[-1].strikes)
    assert log.verified()


def test_three_idle_crazymino_turns_in_a_row_hand_the_seat_to_the_ai() -> None:
    log = Log("crazymino")
    late, now = log.seat, T0
    for strike in (1, 2, 3):
        while log.seat != late:
            now += 1000
            log.send(log.seat, log.game.legal(log.state, log.seat, now)[0], now)
        now, events = log.time_out()
        assert events[0].strike == strike and log.seat != late
        assert (SeatLeft(late, "normal", "timeouts") in events) == (strike == 3)
    assert log.verified()


# -- Mondo: no turn clock ---------------------------------------------------------------------


def test_mondo_runs_no_turn_clock_its_rounds_have_their_own() -> None:
    with pytest.raises(OptionError) as refused:
        TABLES["mondo"].start(Setup(seed=1, players=("a", "b"), options={"turn_seconds": 30}), T0)
    assert refused.value.code == "unknown_option"
