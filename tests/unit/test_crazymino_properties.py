"""Property tests: rotation, and matching checked against the seed's own wording of the rule."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from domain.crazymino.board import TILE_CORNERS, any_placing, check, placings
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import ROTATIONS, SIZE, cell_index, on_board, rotate
from domain.crazymino.model import State
from domain.errors import RuleError
from domain.game import Setup

corners = st.tuples(*[st.integers(1, 6)] * 4)
rotations = st.sampled_from(ROTATIONS)


@given(corners, rotations, rotations)
def test_rotations_compose(tile: tuple[int, int, int, int], a: int, b: int) -> None:
    assert rotate(rotate(tile, a), b) == rotate(tile, (a + b) % 360)


@given(corners)
def test_four_quarter_turns_are_no_turn(tile: tuple[int, int, int, int]) -> None:
    turned = tile
    for _ in range(4):
        turned = rotate(turned, 90)
    assert turned == tile
    nw, ne, se, sw = tile
    assert rotate(tile, 90) == (sw, nw, ne, se)


def midgame(seed: int, steps: int) -> State:
    """A state reached by random legal commands."""
    rng = random.Random(seed)
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=seed, players=("a", "b", "c"))))
    for _ in range(steps):
        if CRAZYMINO.is_over(state):
            break
        (seat,) = CRAZYMINO.to_act(state)
        command = rng.choice(CRAZYMINO.legal(state, seat))
        state = CRAZYMINO.fold(state, CRAZYMINO.decide(state, seat, command))
    return state


EDGES = {
    (-1, 0): ((0, 3), (1, 2)),
    (0, 1): ((1, 0), (2, 3)),
    (1, 0): ((2, 1), (3, 0)),
    (0, -1): ((3, 2), (0, 1)),
}
DIAGONALS = {(-1, -1): (0, 2), (-1, 1): (1, 3), (1, 1): (2, 0), (1, -1): (3, 1)}


def seed_rule_allows(state: State, tile: tuple[int, int, int, int], row: int, col: int) -> bool:
    """The rule as the seed words it: edges match, diagonal corners match, and it connects."""
    laid = {(p.row, p.col): p.corners for p in state.placements}
    if (row, col) in laid:
        return False
    edges = diagonals = 0
    for (dr, dc), pairs in EDGES.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            edges += 1
            if any(tile[mine] != other[theirs] for mine, theirs in pairs):
                return False
    for (dr, dc), (mine, theirs) in DIAGONALS.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            diagonals += 1
            if tile[mine] != other[theirs]:
                return False
    return edges >= 1 or diagonals >= 2


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 60), st.integers(0, 119), rotations)
def test_matching_agrees_with_the_seeds_wording(
    seed: int, steps: int, tile: int, rotation: int
) -> None:
    state = midgame(seed, steps)
    turned = rotate(TILE_CORNERS[tile], rotation)
    allowed = set()
    for row in range(SIZE):
        for col in range(SIZE):
            assert on_board(row, col)
            expected = seed_rule_allows(state, turned, row, col)
            try:
                check(state.cells, state.points, turned, cell_index(row, col))
            except RuleError:
                assert not expected, (row, col)
            else:
                assert expected, (row, col)
                allowed.add(cell_index(row, col))
    found = {cell for t, r, cell in placings(state.cells, state.points, (tile,)) if r == rotation}
    assert found == allowed


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 80), st.lists(st.integers(0, 119), max_size=20))
def test_any_placing_agrees_with_placings(seed: int, steps: int, hand: list[int]) -> None:
    state = midgame(seed, steps)
    assert any_placing(state.cells, state.points, hand) == bool(
        placings(state.cells, state.points, hand)
    )
