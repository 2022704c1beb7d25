"""Ending a game for a seat before its end: resigning, calling a seat whose player seems gone,
and the standings that count a lost seat last (`domain.seating.resigning`), all of it in the
log and checked by `verify`."""

from __future__ import annotations

from typing import Any

import pytest
from game_profiles import T0

from domain.errors import GameOverError
from domain.game import AnyGame, Record, Setup
from domain.registry import TABLES
from domain.seating.model import (
    AlreadyResigned,
    Call,
    CallAnswered,
    CallRanOut,
    CallRunOut,
    Leave,
    NotCallable,
    Rejoin,
    Resign,
    SeatCalled,
    SeatLeft,
    SeatResigned,
)
from domain.seating.resigning import CALL_SECONDS
from domain.verify import verify

TITLES = ["crazymino", "bazaar", "mondo"]
TURN_BASED = ["crazymino", "bazaar"]
NAMES = ("Ann", "Bob", "Cy")


class Log:
    """A game at a table, played command by command, its records kept as the service would."""

    def __init__(self, name: str, seats: int = 2, **options: Any) -> None:
        self.game: AnyGame = TABLES[name]
        self.setup = Setup(seed=5, players=NAMES[:seats], options=options)
        self.records = [Record(T0, None, e) for e in self.game.start(self.setup, T0)]
        self.state = self.game.replay(r.event for r in self.records)

    def send(self, seat: int | None, command: Any, now: int = T0) -> list[Any]:
        events = self.game.decide(self.state, seat, command, now)
        self.records += [Record(now, seat, e) for e in events]
        self.state = self.game.fold(self.state, events)
        return events

    def to_act(self) -> int:
        return min(self.game.to_act(self.state))

    def play_until_scores_differ(self) -> None:
        """Each seat to act plays its best-scoring command (by the normal AI) until one seat
        leads."""
        now = T0
        while len(set(self.game.scores(self.state))) == 1:
            now += 1000
            seat = self.to_act()
            view = self.game.view(self.state, seat)
            self.send(seat, self.game.policies["normal"](view, 1, now), now)

    def checks(self) -> None:
        assert verify(self.game, self.setup, self.records) == self.state


@pytest.mark.parametrize("name", TITLES)
def test_resigning_a_two_seat_game_ends_it_with_the_resigner_last(name: str) -> None:
    log = Log(name)
    if name != "mondo":
        log.play_until_scores_differ()
    leader = max(range(2), key=lambda s: log.game.scores(log.state)[s])
    events = log.send(leader, Resign())
    assert events[0] == SeatResigned(leader, None)
    assert log.game.is_over(log.state)
    first, last = log.game.standings(log.state)
    assert (first.seat, first.rank) == (1 - leader, 1)
    assert (last.seat, last.rank) == (leader, 2)
    assert log.game.describe(events[0], ["Ann", "Bob"]).endswith("resigned: the game ends.")
    with pytest.raises(GameOverError):
        log.game.decide(log.state, 1 - leader, Resign(), T0)
    log.checks()


@pytest.mark.parametrize("name", TITLES)
def test_at_a_larger_table_the_ai_plays_a_resigned_seat_on_and_it_counts_last(name: str) -> None:
    log = Log(name, seats=3, takeover_level="hard")
    events = log.send(1, Resign())
    assert events[0] == SeatResigned(1, "hard")
    assert not log.game.is_over(log.state)
    assert log.game.away(log.state) == {1: "hard"}
    assert log.game.seating(log.state).resigned == (1,)
    with pytest.raises(AlreadyResigned):
        log.game.decide(log.state, 1, Rejoin(), T0)
    with pytest.raises(AlreadyResigned):
        log.game.decide(log.state, 1, Resign(), T0)
    assert [s.seat for s in log.game.standings(log.state)][-1] == 1
    # A second resignation leaves one seat in the game: it ends.
    log.send(0, Resign())
    assert log.game.is_over(log.state)
    first = log.game.standings(log.state)[0]
    assert (first.seat, first.rank) == (2, 1)
    log.checks()


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_player_who_left_is_last_whatever_their_score(name: str) -> None:
    """The issue's game: Alice left, the AI played her seat to a high score; Bob wins."""
    log = Log(name)
    log.send(0, Leave())
    log.play_until_scores_differ()
    log.send(None, log.game.abandon())
    standings = log.game.standings(log.state)
    assert [(s.seat, s.rank) for s in standings] == [(1, 1), (0, 2)]
    log.checks()


def test_a_person_who_took_their_seat_back_is_ranked_by_score_again() -> None:
    log = Log("crazymino")
    log.send(0, Leave())
    log.send(0, Rejoin())
    assert {s.rank for s in log.game.standings(log.state)} == {1}


@pytest.mark.parametrize("name", TURN_BASED)
def test_an_unanswered_call_hands_the_seat_to_the_ai(name: str) -> None:
    log = Log(name)
    late = log.to_act()
    caller = 1 - late
    with pytest.raises(NotCallable):
        log.game.decide(log.state, caller, Call(caller), T0)
    events = log.send(caller, Call(late), T0 + 5000)
    due = T0 + 5000 + CALL_SECONDS * 1000
    assert events == [SeatCalled(late, caller, due, 1)]
    assert log.game.seating(log.state).called is not None
    with pytest.raises(NotCallable):  # once is enough
        log.game.decide(log.state, caller, Call(late), T0 + 6000)
    (timer,) = log.game.timers(log.state)
    assert (timer.key, timer.due, timer.command) == ("call-1", due, CallRunOut(late, 1))
    events = log.send(None, timer.command, due)
    assert events == [CallRanOut(late, 1), SeatLeft(late, "normal", "called")]
    assert log.game.away(log.state) == {late: "normal"}
    assert log.game.timers(log.state) == []
    assert log.game.standings(log.state)[-1].seat == late
    words = log.game.describe(events[1], ["Ann", "Bob"])
    assert words.endswith("did not answer the call: the normal AI plays their seat now.")
    log.send(late, Rejoin(), due + 1000)  # the player came back: the seat is theirs again
    assert log.game.away(log.state) == {}
    log.checks()


@pytest.mark.parametrize("name", TURN_BASED)
def test_a_move_of_the_called_seat_answers_the_call(name: str) -> None:
    log = Log(name)
    late = log.to_act()
    log.send(1 - late, Call(late), T0)
    move = log.game.legal(log.state, late, T0)[0]
    events = log.send(late, move, T0 + 1000)
    assert events[-1] == CallAnswered(late)
    assert log.game.seating(log.state).called is None and log.game.timers(log.state) == []
    # A run-out that comes late changes nothing.
    due = T0 + CALL_SECONDS * 1000
    assert log.game.decide(log.state, None, CallRunOut(late, 1), due) == []
    log.checks()


def test_a_call_is_refused_where_a_turn_clock_runs_or_on_an_ai_seat() -> None:
    clocked = Log("crazymino", turn_seconds=60)
    late = clocked.to_act()
    with pytest.raises(NotCallable):
        clocked.game.decide(clocked.state, 1 - late, Call(late), T0)
    log = Log("crazymino")
    late = log.to_act()
    log.send(late, Leave())
    with pytest.raises(NotCallable):
        log.game.decide(log.state, 1 - late, Call(late), T0)
    with pytest.raises(NotCallable):  # not its turn
        log.game.decide(log.state, late, Call(1 - late), T0)
