"""What every game shares: typed options, chance during play, logs checked with their times,
and the test suite's timed game (dice race) as the example of a game that acts against a clock."""

from __future__ import annotations

from collections import Counter

import msgspec
import pytest
from game_profiles import ALL_GAMES, T0

from domain.chance import at_step
from domain.errors import OptionError, RuleError, TurnError
from domain.game import Abandon, Game, NoOptions, Record, Setup, parse_options
from domain.seating import seated
from domain.verify import LogError, verify
from tests.games.dice_race import (
    DICE_RACE,
    EndRound,
    Options,
    Roll,
    RoundEnded,
    RoundOver,
    RoundStarted,
    Stop,
)


def test_options_get_their_defaults() -> None:
    assert parse_options(Options, {}) == Options(round_seconds=5, rounds=2)
    assert parse_options(Options, {"rounds": 3}).rounds == 3
    assert parse_options(NoOptions, {}) == NoOptions()


@pytest.mark.parametrize(
    ("options", "code", "words"),
    [
        ({"round_seconds": 0}, "bad_option.round_seconds", "a number between 0.5 and 600"),
        ({"rounds": 9}, "bad_option.rounds", "Rounds must be a whole number between 1 and 5"),
        ({"rounds": "many"}, "bad_option.rounds", "a whole number between 1 and 5"),
        ({"speed": 2}, "unknown_option", "'speed'"),
    ],
)
def test_a_bad_option_is_named(options: dict[str, object], code: str, words: str) -> None:
    with pytest.raises(OptionError) as refused:
        parse_options(Options, options)
    assert refused.value.code == code
    assert words in refused.value.message and refused.value.message.endswith(".")


def test_chance_at_a_step_depends_on_the_seed_and_the_step_only() -> None:
    assert at_step(7, 3).below(1000) == at_step(7, 3).below(1000)
    draws = [at_step(7, step).below(1 << 30) for step in range(50)]
    assert len(set(draws)) == 50
    assert [at_step(8, step).below(1 << 30) for step in range(50)] != draws
    faces = Counter(at_step(1, step).below(6) for step in range(6000))
    assert set(faces) == set(range(6)) and min(faces.values()) > 850


def race(now: int = T0, seats: int = 2) -> tuple[Setup, list[Record[object]]]:
    setup = Setup(seed=4, players=tuple("ab"[:seats]), options={"round_seconds": 10, "rounds": 2})
    return setup, [Record(now, None, e) for e in DICE_RACE.start(setup, now)]


def test_a_round_begins_with_its_deadline_from_the_server_time() -> None:
    _, records = race()
    started = records[-1].event
    assert isinstance(started, RoundStarted) and started.deadline == T0 + 10_000
    state = DICE_RACE.replay(r.event for r in records)
    (timer,) = DICE_RACE.timers(state)
    assert timer.key == "round-1" and timer.due == T0 + 10_000 and timer.command == EndRound(1)


def test_a_command_stamped_after_the_deadline_is_refused_before_the_timer_fires() -> None:
    _, records = race()
    state = DICE_RACE.replay(r.event for r in records)
    assert DICE_RACE.decide(state, 0, Roll(), T0 + 10_000)
    with pytest.raises(RoundOver):
        DICE_RACE.decide(state, 0, Roll(), T0 + 10_001)


def test_only_the_system_ends_a_round_and_a_stale_end_does_nothing() -> None:
    _, records = race()
    state = DICE_RACE.replay(r.event for r in records)
    with pytest.raises(TurnError):
        DICE_RACE.decide(state, 0, EndRound(1), T0)
    assert DICE_RACE.decide(state, None, EndRound(2), T0) == []  # not this round
    ended = DICE_RACE.decide(state, None, EndRound(1), T0 + 10_000)
    assert isinstance(ended[0], RoundEnded) and ended[0].timed_out
    after = DICE_RACE.fold(state, ended)
    assert DICE_RACE.decide(after, None, EndRound(1), T0 + 10_500) == []  # fired twice
    assert [t.key for t in DICE_RACE.timers(after)] == ["round-2"]


def test_one_seats_move_leaves_the_others_ai_key_alone() -> None:
    _, records = race()
    state = DICE_RACE.replay(r.event for r in records)
    before = [DICE_RACE.ai_key(state, s, 2) for s in (0, 1)]
    state = DICE_RACE.fold(state, DICE_RACE.decide(state, 0, Roll(), T0))
    after = [DICE_RACE.ai_key(state, s, 3) for s in (0, 1)]
    assert after[0] != before[0] and after[1] == before[1]


def played() -> tuple[Setup, list[Record[object]]]:
    setup, records = race()
    state = DICE_RACE.replay(r.event for r in records)
    for seat, command, at in [
        (0, Roll(), T0 + 5),
        (1, Stop(), T0 + 9),
        (None, EndRound(1), T0 + 10_000),
    ]:
        events = DICE_RACE.decide(state, seat, command, at)
        records += [Record(at, seat, e) for e in events]
        state = DICE_RACE.fold(state, events)
    return setup, records


def test_a_log_checks_with_its_times_and_causes() -> None:
    setup, records = played()
    assert verify(DICE_RACE, setup, records) == DICE_RACE.replay(r.event for r in records)


@pytest.mark.parametrize(
    ("position", "change"),
    [
        (3, {"by": 1}),  # seat 1 did not roll
        (4, {"by": None}),  # a seat's stop is not the system's
        (5, {"at": T0 + 9_000}),  # the round ended by its clock before the clock ran out
        (6, {"at": T0 + 10_001}),  # one command's events at two times
    ],
)
def test_a_log_whose_times_or_causes_are_changed_does_not_check(
    position: int, change: dict[str, object]
) -> None:
    setup, records = played()
    records[position - 1] = msgspec.structs.replace(records[position - 1], **change)
    with pytest.raises(LogError) as refused:
        verify(DICE_RACE, setup, records)
    assert refused.value.position == position


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
def test_every_game_can_be_abandoned_by_the_system_only(name: str) -> None:
    game = seated(ALL_GAMES[name])  # the table around every game takes the system's `abandon`
    players = tuple(f"p{n}" for n in range(max(2, game.min_seats)))
    events = game.start(Setup(seed=1, players=players), T0)
    state = game.replay(events)
    command = game.abandon()
    assert command is not None, f"{name} has no abandon command"
    with pytest.raises(TurnError):
        game.decide(state, 0, command, T0)
    ended = game.decide(state, None, command, T0)
    after = game.fold(state, ended)
    assert game.is_over(after) and not game.to_act(after) and not game.timers(after)
    assert game.cause(ended[0]) == (None, command)
    assert (
        verify(
            game,
            Setup(seed=1, players=players),
            [Record(T0, None, e) for e in events] + [Record(T0, None, e) for e in ended],
        )
        == after
    )


def test_a_game_that_says_nothing_of_being_abandoned_is_never_abandoned() -> None:
    """A game from elsewhere (`EXTRA_GAMES`) need not say how it ends abandoned: the system then
    never sends `abandon`, and one sent anyway is refused by name."""
    silent = seated(type("Silent", (type(DICE_RACE),), {"abandoned": Game.abandoned})())
    assert silent.abandon() is None
    state = silent.replay(silent.start(Setup(seed=1, players=("a",)), T0))
    with pytest.raises(RuleError) as refused:
        silent.decide(state, None, Abandon(), T0)
    assert refused.value.code == "illegal_command"
    assert seated(DICE_RACE).abandon() == Abandon()
