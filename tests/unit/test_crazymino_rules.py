"""Every rule of a turn: setup, legality with its error codes, draws, skips and both ends."""

from __future__ import annotations

import pytest
from crazymino_builders import corners, state, tile_of
from msgspec.structs import replace

from domain.crazymino.board import TILE_COLOUR, TILE_CORNERS, placings
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import ROTATIONS, rotate
from domain.crazymino.model import (
    DrawAndPass,
    GameEnded,
    GameStarted,
    PlaceTile,
    State,
    TileDrawn,
    TurnPassed,
    TurnSkipped,
)
from domain.crazymino.tables import START_CELLS, TILES
from domain.errors import RuleError, SetupError
from domain.game import Setup
from domain.registry import TABLES

TILE = tile_of("pink")
A, B, C, D = corners(TILE)
R, K = 5, 3
WEST = {(R, K - 1): (7, A, D, 7)}  # 7 is on no tile: nothing else fits beside the west tile


def place(tile: int = TILE, rotation: int = 0, row: int = R, col: int = K) -> PlaceTile:
    return PlaceTile(tile=tile, rotation=rotation, row=row, col=col)


def _fits_beside_tile(tile: int) -> bool:
    """Whether `tile` fits next to TILE laid on (R, K) beside the west tile."""
    laid = state({**WEST, (R, K): (A, B, C, D)}, hands=((tile,),))
    return bool(placings(laid.cells, laid.points, (tile,)))


STUCK = [t for t in range(len(TILES)) if t != TILE and not _fits_beside_tile(t)]
FITTING = [t for t in range(len(TILES)) if t != TILE and _fits_beside_tile(t)]


# -- setup -----------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "pile"), [(2, 79), (3, 59), (4, 39)])
def test_setup_deals_twenty_each_and_lays_the_start_tile(players: int, pile: int) -> None:
    events = CRAZYMINO.start(Setup(seed=11, players=tuple("ABCD"[:players])))
    started = events[0]
    assert isinstance(started, GameStarted)
    assert sorted(started.order) == list(range(players))
    assert started.hand_sizes == (20,) * players and started.pile_size == pile
    assert started.pile is not None and len(started.pile) == pile
    every = [t for hand in started.hands for t in hand or ()] + list(started.pile)
    assert sorted([*every, started.start_tile]) == list(range(120))
    colour = TILE_COLOUR[started.start_tile]
    assert (started.start_row, started.start_col) == START_CELLS[colour]
    game = CRAZYMINO.replay(events)
    first = game.placements[0]
    assert first.corners == TILE_CORNERS[started.start_tile] and first.rotation == 0
    assert first.score is None and game.scores == (0,) * players


def test_setup_is_a_function_of_the_seed() -> None:
    setup = Setup(seed=5, players=("Ann", "Bob", "Cy"))
    assert CRAZYMINO.start(setup) == CRAZYMINO.start(setup)
    deals = {tuple(CRAZYMINO.start(Setup(seed=s, players=("a", "b")))[0].hands) for s in range(20)}
    assert len(deals) == 20
    orders = {CRAZYMINO.start(Setup(seed=s, players=tuple("abcd")))[0].order for s in range(40)}
    assert len(orders) > 1


@pytest.mark.parametrize("players", [0, 1, 5])
def test_setup_refuses_a_wrong_number_of_players(players: int) -> None:
    with pytest.raises(SetupError):  # the table around every game counts the seats
        TABLES["crazymino"].start(Setup(seed=1, players=("p",) * players), 0)


def test_setup_refuses_unknown_options() -> None:
    with pytest.raises(SetupError):
        CRAZYMINO.start(Setup(seed=1, players=("a", "b"), options={"fast": True}))


# -- legality and its error codes ------------------------------------------------------------


def refusal(game: State, command: PlaceTile | DrawAndPass, seat: int = 0) -> str:
    with pytest.raises(RuleError) as caught:
        CRAZYMINO.decide(game, seat, command)
    assert caught.value.message
    return caught.value.code


def test_rotation_turns_corners_clockwise() -> None:
    game = state({(R, K - 1): (7, D, C, 7)}, hands=((TILE, 1), (2,)), pile=(3,))
    assert rotate((A, B, C, D), 90) == (D, A, B, C)
    events = CRAZYMINO.decide(game, 0, place(rotation=90))
    assert events[0].corners == (D, A, B, C)  # type: ignore[union-attr]


@pytest.mark.parametrize(
    ("laid", "command", "code"),
    [
        (WEST, place(row=R, col=K - 1), "cell_occupied"),
        ({(R, K - 1): (7, A % 6 + 1, D, 7)}, place(), "edge_mismatch"),
        (
            {(R - 1, K - 1): (7, 7, A % 6 + 1, 7), (R + 1, K + 1): (C, 7, 7, 7)},
            place(),
            "diagonal_mismatch",
        ),
        ({(R - 1, K - 1): (7, 7, A, 7)}, place(), "not_connected"),
        (WEST, place(row=12, col=12), "not_connected"),
        (WEST, place(tile=100), "not_your_tile"),
        (WEST, place(rotation=45), "bad_rotation"),
        (WEST, place(row=14, col=0), "off_board"),
        (WEST, place(row=0, col=-1), "off_board"),
    ],
)
def test_each_illegal_placement_has_its_own_code(
    laid: dict[tuple[int, int], tuple[int, int, int, int]], command: PlaceTile, code: str
) -> None:
    game = state(laid, hands=((TILE, 1), (2,)), pile=(3,))
    assert refusal(game, command) == code


def test_a_diagonal_pair_connects() -> None:
    laid = {(R - 1, K - 1): (7, 7, A, 7), (R + 1, K + 1): (C, 7, 7, 7)}
    events = CRAZYMINO.decide(state(laid, hands=((TILE, 1), (2,)), pile=(3,)), 0, place())
    assert events[0].score.active_corners == 2  # type: ignore[union-attr]


def test_not_your_turn() -> None:
    game = state(WEST, hands=((TILE,), (TILE + 1,)), pile=(3,))
    assert refusal(game, place(tile=TILE + 1), seat=1) == "not_your_turn"
    with pytest.raises(RuleError) as caught:
        CRAZYMINO.decide(game, None, DrawAndPass())
    assert caught.value.code == "not_your_turn"


def test_draw_with_an_empty_pile_is_refused() -> None:
    game = state(WEST, hands=((TILE,), (2,)), pile=())
    assert refusal(game, DrawAndPass()) == "pile_empty"
    assert DrawAndPass() not in CRAZYMINO.legal(game, 0)


def test_commands_after_the_end_are_refused() -> None:
    game = state(WEST, hands=((TILE,), (2,)), pile=(3,))
    ended = CRAZYMINO.evolve(game, GameEnded(reason="blocked"))
    assert refusal(ended, place()) == "game_over"
    assert CRAZYMINO.legal(ended, 0) == [] and CRAZYMINO.to_act(ended) == frozenset()


# -- drawing, passing, skipping, ends --------------------------------------------------------


def test_draw_and_pass_is_allowed_even_with_a_legal_move() -> None:
    game = state(WEST, hands=((TILE,), (FITTING[0],)), pile=(FITTING[1], 9))
    assert place() in CRAZYMINO.legal(game, 0) and DrawAndPass() in CRAZYMINO.legal(game, 0)
    events = CRAZYMINO.decide(game, 0, DrawAndPass())
    assert events[:2] == [TileDrawn(0, FITTING[1], automatic=False), TurnPassed(0)]
    after = CRAZYMINO.fold(game, events)
    assert FITTING[1] in after.hands[0] and after.pile == (9,)


def test_a_stuck_player_draws_until_a_tile_fits() -> None:
    pile = (STUCK[1], STUCK[2], FITTING[0], 99)
    game = state(WEST, hands=((TILE, STUCK[0]), (STUCK[3],)), pile=pile)
    events = CRAZYMINO.decide(game, 0, place())
    assert events[1:] == [
        TileDrawn(1, STUCK[1], automatic=True),
        TileDrawn(1, STUCK[2], automatic=True),
        TileDrawn(1, FITTING[0], automatic=True),
    ]
    after = CRAZYMINO.fold(game, events)
    assert CRAZYMINO.to_act(after) == {1} and after.pile == (99,)


def test_a_stuck_player_with_an_empty_pile_skips() -> None:
    game = state(WEST, hands=((TILE, FITTING[0]), (STUCK[0],)), pile=())
    events = CRAZYMINO.decide(game, 0, place())
    assert events[1:] == [TurnSkipped(1)]
    assert CRAZYMINO.to_act(CRAZYMINO.fold(game, events)) == {0}


def test_the_game_ends_blocked_when_nobody_can_move() -> None:
    game = state(WEST, hands=((TILE, STUCK[0]), (STUCK[1],)), pile=(STUCK[2],))
    events = CRAZYMINO.decide(game, 0, place())
    assert events[1:] == [TileDrawn(1, STUCK[2], automatic=True), GameEnded(reason="blocked")]
    after = CRAZYMINO.fold(game, events)
    assert CRAZYMINO.is_over(after) and after.scores[1] == 0


def test_equal_highest_scores_share_the_win() -> None:
    game = state(WEST, hands=((TILE,), (1,), (2,)))
    tied = replace(game, scores=(30, 30, 12))
    standings = CRAZYMINO.standings(CRAZYMINO.evolve(tied, GameEnded(reason="blocked")))
    assert [(s.seat, s.rank) for s in standings] == [(0, 1), (1, 1), (2, 3)]


def test_legal_commands_are_exactly_the_accepted_placements() -> None:
    game = state(
        {**WEST, (R, K): (A, B, C, D)}, hands=((FITTING[0], STUCK[0], FITTING[1]), (5,)), pile=(6,)
    )
    legal = set(CRAZYMINO.legal(game, 0))
    for tile in game.hands[0]:
        for rotation in ROTATIONS:
            for cell in range(196):
                command = PlaceTile(tile=tile, rotation=rotation, row=cell // 14, col=cell % 14)
                try:
                    CRAZYMINO.decide(game, 0, command)
                except RuleError:
                    assert command not in legal
                else:
                    assert command in legal
