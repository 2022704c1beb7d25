"""Setup, options and every command of a player, with the code of each refusal."""

from __future__ import annotations

import pytest
from mondo_builders import T0, game, placed, refusal, run

from domain.errors import OptionError, SetupError, TurnError
from domain.game import Setup
from domain.mondo.game import MONDO
from domain.mondo.model import (
    EndRound,
    GameStarted,
    LiftPlaced,
    PlaceTile,
    ReturnTile,
    RoundStarted,
    TakeBonus,
    TakeTile,
    TilePlaced,
    TurnPlaced,
)
from domain.mondo.table import display
from domain.registry import TABLES

# -- setup and options -----------------------------------------------------------------------


def test_a_game_starts_with_its_rules_and_the_first_round() -> None:
    started, first = MONDO.start(Setup(seed=3, players=("a", "b")), T0)
    assert isinstance(started, GameStarted) and isinstance(first, RoundStarted)
    assert started.seed == 3 and started.rounds == 3 and started.break_ms == 10_000
    assert (started.advanced, started.expert, started.backside) == (False, False, False)
    assert first.round == 1 and first.deadline == T0 + 7 * 60_000
    assert first.special is None and first.tasks == ()
    assert 40 < len(first.variable) < 96  # each tile's face drawn at random


@pytest.mark.parametrize(
    ("options", "minutes"),
    [
        ({}, 7),
        ({"advanced": True}, 6),
        ({"expert": True}, 5),
        ({"advanced": True, "expert": True}, 5),
        ({"expert": True, "time": 9}, 9),
    ],
)
def test_round_length_by_game(options: dict[str, object], minutes: int) -> None:
    first = MONDO.start(Setup(seed=1, players=("a",), options=options), T0)[1]
    assert isinstance(first, RoundStarted) and first.deadline == T0 + minutes * 60_000


def test_quick_rounds_in_seconds() -> None:
    first = MONDO.start(Setup(seed=1, players=("a",), options={"round_seconds": 25}), T0)[1]
    assert isinstance(first, RoundStarted) and first.deadline == T0 + 25_000


@pytest.mark.parametrize(
    ("options", "code"),
    [
        ({"time": 0}, "bad_option.time"),
        ({"time": 16}, "bad_option.time"),
        ({"round_seconds": 9}, "bad_option.round_seconds"),
        ({"time": 5, "round_seconds": 30}, "bad_option.round_seconds"),
        ({"break_seconds": -1}, "bad_option.break_seconds"),
        ({"expert": "yes"}, "bad_option.expert"),
        ({"speed": 2}, "unknown_option"),
    ],
)
def test_a_bad_option_is_named(options: dict[str, object], code: str) -> None:
    with pytest.raises(OptionError) as refused:
        MONDO.start(Setup(seed=1, players=("a",), options=options), T0)
    assert refused.value.code == code


@pytest.mark.parametrize("players", [0, 5])
def test_one_to_four_players(players: int) -> None:
    with pytest.raises(SetupError):
        TABLES["mondo"].start(Setup(seed=1, players=tuple("abcde"[:players])), T0)


def deals(options: dict[str, object]) -> tuple[GameStarted, list[RoundStarted]]:
    """A game of three players with these options, its three rounds ended by the clock: its
    start and the three rounds as dealt."""
    setup = Setup(seed=1, players=("a", "b", "c"), options={**options, "break_seconds": 0})
    events = MONDO.start(setup, T0)
    state = MONDO.replay(events)
    while not state.over:
        more = MONDO.decide(state, None, EndRound(state.round), state.deadline)
        events, state = events + more, MONDO.fold(state, more)
    started = events[0]
    assert isinstance(started, GameStarted)
    return started, [e for e in events if isinstance(e, RoundStarted)]


@pytest.mark.parametrize(
    ("options", "specials", "tasks"),
    [
        ({}, False, False),
        ({"advanced": True}, True, False),
        ({"expert": True}, False, True),
        ({"advanced": True, "expert": True}, True, True),
    ],
)
def test_advanced_and_expert_are_independent_options(
    options: dict[str, object], specials: bool, tasks: bool
) -> None:
    """The seed: special scorings "uniquement avec l'option advanced", tasks "uniquement avec
    l'option expert"."""
    started, rounds = deals(options)
    assert (started.advanced, started.expert) == (specials, tasks)
    assert [r.round for r in rounds] == [1, 2, 3]
    for dealt in rounds:
        assert (dealt.special is not None) == specials
        assert len(dealt.tasks) == (2 * 3 if tasks else 0) == len(set(dealt.tasks))
    if specials:
        assert len({r.special for r in rounds}) == 3  # never twice in a game


# -- taking and returning --------------------------------------------------------------------


def test_take_a_tile_then_put_it_back() -> None:
    state = game()
    tile = display(state)[0]
    state = run(state, 0, TakeTile(tile), T0 + 1)
    assert state.seats[0].held == tile and tile not in display(state)
    state = run(state, 0, ReturnTile(tile), T0 + 2)
    assert state.seats[0].held is None and tile in display(state)


def test_taking_refusals() -> None:
    state = run(game(), 0, TakeTile(5), T0)
    assert refusal(state, 1, TakeTile(5)) == "tile_held"
    assert refusal(state, 0, TakeTile(6)) == "already_holding"
    assert refusal(state, 1, TakeTile(136)) == "no_such_tile"
    assert refusal(state, 1, TakeTile(-1)) == "no_such_tile"
    laid = run(state, 0, PlaceTile(5, 0, "plain", 0), T0)
    assert refusal(laid, 1, TakeTile(5)) == "tile_on_board"
    assert refusal(laid, 0, TakeTile(5)) == "tile_on_board"


def test_returning_or_placing_a_tile_not_held_is_refused() -> None:
    state = run(game(), 0, TakeTile(5), T0)
    assert refusal(state, 0, ReturnTile(6)) == "not_holding"
    assert refusal(state, 1, ReturnTile(5)) == "not_holding"
    assert refusal(state, 1, PlaceTile(5, 0, "plain", 0)) == "not_holding"


# -- placing ---------------------------------------------------------------------------------


def test_the_first_tile_goes_anywhere_the_next_ones_beside_a_tile() -> None:
    state = placed(game(), 0, 5, 14, T0)
    state = run(state, 0, TakeTile(6), T0)
    assert refusal(state, 0, PlaceTile(6, 14, "plain", 0)) == "space_taken"
    assert refusal(state, 0, PlaceTile(6, 0, "plain", 0)) == "not_adjacent"
    assert refusal(state, 0, PlaceTile(6, 16, "plain", 0)) == "not_adjacent"  # diagonal is not
    assert refusal(state, 0, PlaceTile(6, 24, "plain", 0)) == "off_board"
    assert refusal(state, 0, PlaceTile(6, 15, "plain", 45)) == "bad_rotation"
    for space in (8, 13, 15, 20):
        assert MONDO.decide(state, 0, PlaceTile(6, space, "variable", 270), T0)


def test_a_placed_tile_shows_its_face_and_rotation_and_records_its_time() -> None:
    state = run(game(), 0, TakeTile(3), T0)
    (event,) = MONDO.decide(state, 0, PlaceTile(3, 7, "variable", 90), T0 + 42)
    assert event == TilePlaced(0, 3, 7, "variable", 90, at=T0 + 42)
    after = MONDO.evolve(state, event)
    laid = after.seats[0].board[7]
    assert laid is not None and (laid.tile, laid.face, laid.rotation) == (3, "variable", 90)
    assert after.seats[0].held is None


def test_boards_are_each_players_own() -> None:
    state = placed(game(), 0, 5, 14, T0)
    state = run(state, 1, TakeTile(6), T0)
    assert MONDO.decide(state, 1, PlaceTile(6, 14, "plain", 0), T0)  # seat 1's board is empty


# -- the grace after a placement -------------------------------------------------------------


def test_within_five_seconds_the_tile_just_placed_may_be_turned_or_lifted() -> None:
    state = placed(game(), 0, 5, 14, T0)
    state = run(state, 0, TurnPlaced(180), T0 + 4_000)
    laid = state.seats[0].board[14]
    assert laid is not None and laid.rotation == 180
    assert refusal(state, 0, TurnPlaced(180), T0 + 4_500) == "bad_rotation"
    state = run(state, 0, LiftPlaced(), T0 + 5_000)
    assert state.seats[0].board[14] is None and state.seats[0].held == 5
    assert refusal(state, 0, LiftPlaced(), T0 + 5_000) == "grace_over"


def test_the_grace_ends_after_five_seconds() -> None:
    state = placed(game(), 0, 5, 14, T0)
    assert refusal(state, 0, TurnPlaced(90), T0 + 5_001) == "grace_over"
    assert refusal(state, 0, LiftPlaced(), T0 + 5_001) == "grace_over"


def test_the_grace_ends_when_the_player_takes_another_tile() -> None:
    state = run(placed(game(), 0, 5, 14, T0), 0, TakeTile(6), T0 + 1_000)
    assert refusal(state, 0, TurnPlaced(90), T0 + 1_001) == "grace_over"
    state = run(state, 0, ReturnTile(6), T0 + 1_002)
    assert refusal(state, 0, LiftPlaced(), T0 + 1_003) == "grace_over"


def test_there_is_no_grace_before_a_placement_nor_for_another_player() -> None:
    state = game()
    assert refusal(state, 0, TurnPlaced(90)) == "grace_over"
    state = placed(state, 0, 5, 14, T0)
    assert refusal(state, 1, LiftPlaced(), T0 + 1) == "grace_over"


# -- who may act -----------------------------------------------------------------------------


def test_only_players_send_player_commands() -> None:
    state = game()
    with pytest.raises(TurnError):
        MONDO.decide(state, None, TakeTile(1), T0)
    with pytest.raises(TurnError):
        MONDO.decide(state, 2, TakeTile(1), T0)


def test_a_player_who_took_a_chip_has_left_the_round() -> None:
    state = run(run(game(), 0, TakeTile(5), T0), 0, TakeBonus(), T0 + 1)
    assert state.seats[0].chip == 4 and state.seats[0].held is None and 5 in display(state)
    for command in (TakeTile(6), TakeBonus(), ReturnTile(5)):
        assert refusal(state, 0, command, T0 + 2) == "left_round"
    assert MONDO.to_act(state) == {1}
