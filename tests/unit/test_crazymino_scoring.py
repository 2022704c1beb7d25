"""Known answers for scoring: every corner multiplier, colour bonus, cell multipliers, ends."""

from __future__ import annotations

import pytest
from crazymino_builders import corners, state, tile_of

from domain.crazymino.board import CELL_COLOUR, CELL_MULTIPLIER, TILE_SUM, groups, score
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import SIZE, cell_index
from domain.crazymino.model import GameEnded, PlaceTile, TilePlaced
from domain.crazymino.tables import MULTIPLIERS

TILE = tile_of("pink")
A, B, C, D = corners(TILE)  # NW, NE, SE, SW
OTHER = tile_of("green")


def plain_cell(*, same_colour: bool = False, times: int = 1) -> tuple[int, int]:
    """A cell with room around it, of the wanted multiplier and colour relation to TILE."""
    for row in range(2, SIZE - 1):
        for col in range(1, SIZE - 1):
            cell = cell_index(row, col)
            if CELL_MULTIPLIER[cell] == times and (CELL_COLOUR[cell] == "pink") == same_colour:
                return row, col
    raise AssertionError("no such cell")


def placed(
    laid: dict[tuple[int, int], tuple[int, int, int, int]], row: int, col: int
) -> TilePlaced:
    """Lay TILE unrotated on (row, col) through `decide`, and return its event."""
    game = state(laid, hands=((TILE, OTHER), (OTHER + 1,)), pile=(OTHER + 2,))
    events = CRAZYMINO.decide(game, 0, PlaceTile(tile=TILE, rotation=0, row=row, col=col))
    event = events[0]
    assert isinstance(event, TilePlaced)
    return event


R, K = plain_cell()
WEST = {(R, K - 1): (1, A, D, 1)}
EAST = {(R, K + 1): (B, 1, 1, C)}
NW_DIAGONAL = {(R - 1, K - 1): (1, 1, A, 1)}
NE_DIAGONAL = {(R - 1, K + 1): (1, 1, 1, B)}
SE_DIAGONAL = {(R + 1, K + 1): (C, 1, 1, 1)}


def test_no_active_corner_multiplies_by_one() -> None:
    game = state({}, hands=((TILE,),))
    cell = cell_index(R, K)
    breakdown = score(game.cells, game.points, TILE, cell, groups(game.cells))
    assert (breakdown.active_corners, breakdown.corner_multiplier) == (0, 1)
    assert breakdown.total == TILE_SUM[TILE]


def test_one_active_corner_multiplies_by_one() -> None:
    game = state(NW_DIAGONAL, hands=((TILE,),))
    breakdown = score(game.cells, game.points, TILE, cell_index(R, K), groups(game.cells))
    assert (breakdown.active_corners, breakdown.corner_multiplier) == (1, 1)


def test_two_corners_of_one_tile_multiply_by_one() -> None:
    s = placed(WEST, R, K).score
    assert (s.active_corners, s.bridged, s.corner_multiplier) == (2, False, 1)
    assert s.total == A + B + C + D


def test_two_corners_of_one_group_of_two_tiles_multiply_by_one() -> None:
    joined = {**NW_DIAGONAL, **NE_DIAGONAL}
    joined.update(
        {(R - 2, K - 1): (1, 1, 1, 1), (R - 2, K): (1, 1, 1, 1), (R - 2, K + 1): (1,) * 4}
    )
    game = state(joined, hands=((TILE,),))
    breakdown = score(game.cells, game.points, TILE, cell_index(R, K), groups(game.cells))
    assert (breakdown.active_corners, breakdown.bridged, breakdown.corner_multiplier) == (
        2,
        False,
        1,
    )


def test_two_corners_bridging_two_groups_multiply_by_two() -> None:
    s = placed({**NW_DIAGONAL, **SE_DIAGONAL}, R, K).score
    assert (s.active_corners, s.bridged, s.corner_multiplier) == (2, True, 2)
    assert s.total == (A + B + C + D) * 2


def test_three_corners_multiply_by_three() -> None:
    s = placed({**WEST, **NE_DIAGONAL}, R, K).score
    assert (s.active_corners, s.corner_multiplier, s.total) == (3, 3, (A + B + C + D) * 3)


def test_four_corners_multiply_by_five() -> None:
    s = placed({**WEST, **EAST}, R, K).score
    assert (s.active_corners, s.corner_multiplier, s.total) == (4, 5, (A + B + C + D) * 5)


def test_colour_bonus_on_a_cell_of_the_tiles_colour() -> None:
    row, col = plain_cell(same_colour=True)
    s = placed({(row, col - 1): (1, A, D, 1)}, row, col).score
    assert (s.colour_bonus, s.total) == (10, A + B + C + D + 10)


def test_no_colour_bonus_on_another_colour() -> None:
    assert placed(WEST, R, K).score.colour_bonus == 0


@pytest.mark.parametrize("times", [3, 4, 5])
def test_cell_multiplier_multiplies_the_whole_score(times: int) -> None:
    row, col = next(cell for cell, x in sorted(MULTIPLIERS.items()) if x == times)
    west = (row, col - 1) if col > 0 else None
    laid = {west: (1, A, D, 1)} if west else {(row, col + 1): (B, 1, 1, C)}
    s = placed(laid, row, col).score
    bonus = 10 if CELL_COLOUR[cell_index(row, col)] == "pink" else 0
    assert s.cell_multiplier == times
    assert s.total == (A + B + C + D + bonus) * times


def test_last_tile_ends_the_game_with_the_opponents_numbers_as_bonus() -> None:
    hands = ((TILE,), (OTHER, OTHER + 1), (OTHER + 2,))
    game = state(WEST, hands=hands, pile=(OTHER + 3,))
    events = CRAZYMINO.decide(game, 0, PlaceTile(tile=TILE, rotation=0, row=R, col=K))
    ended = events[-1]
    assert isinstance(ended, GameEnded) and ended.reason == "last_tile" and ended.seat == 0
    expected = {1: TILE_SUM[OTHER] + TILE_SUM[OTHER + 1], 2: TILE_SUM[OTHER + 2]}
    assert {b.opponent: b.points for b in ended.bonus} == expected
    after = CRAZYMINO.fold(game, events)
    assert after.scores[0] == A + B + C + D + sum(expected.values())
    assert CRAZYMINO.is_over(after) and CRAZYMINO.to_act(after) == frozenset()


def test_the_rules_page_example_scores_160() -> None:
    """docs/rules/crazymino.md: blue tile 114, turned 180°, bridging on the blue ×4 cell (4, 11)."""
    assert corners(114) == (1, 4, 2, 3)
    nw, _, se, _ = (2, 3, 1, 4)  # as turned 180°
    laid = {(3, 10): (7, 7, nw, 7), (5, 12): (se, 7, 7, 7)}  # two groups, touching diagonally
    game = state(laid, hands=((114, OTHER), (OTHER + 1,)), pile=(OTHER + 2,))
    events = CRAZYMINO.decide(game, 0, PlaceTile(tile=114, rotation=180, row=4, col=11))
    placed = events[0]
    assert isinstance(placed, TilePlaced) and placed.corners == (2, 3, 1, 4)
    assert placed.score.bridged and placed.score.colour_bonus == 10
    assert (placed.score.cell_multiplier, placed.score.total) == (4, 160)
