"""Every line of a round's score, each a known answer on real tiles."""

from __future__ import annotations

from collections.abc import Mapping

import pytest
from mondo_builders import Laying, board, emptied, plain_tiles, seat, survey_of

from domain.mondo.evolve import chips_for
from domain.mondo.scoring import Score, round_scores, volcano_penalties

FOREST, DESERT, WATER, STEPPE = (plain_tiles(x) for x in "fdws")
#: A closed desert: tile 61's desert bay (east) against tile 77's (turned to the west).
DESERT_PAIR: dict[int, Laying] = {7: (61, "variable", 0), 8: (77, "variable", 90)}


def score_of(
    laid: Mapping[int, Laying], fill: str | None = "w", chip: int = 0, backside: bool = False
) -> Score:
    """The score of a lone player's board: `laid` on a board filled with plain `fill` tiles."""
    (score,) = round_scores([seat(board(laid, fill), chip, backside=backside)])
    return score


# -- animals ---------------------------------------------------------------------------------


def test_each_animal_scores_one_point_closed_landscape_or_not() -> None:
    laid = {0: (7, "variable", 0), 3: (29, "variable", 0), 20: (133, "variable", 0)}
    score = score_of(laid, fill=None)  # a whale, a dolphin, an elephant; the boards mostly empty
    assert score.animals == 3


# -- landscapes ------------------------------------------------------------------------------


def test_a_closed_error_free_landscape_scores_two() -> None:
    score = score_of(DESERT_PAIR)
    assert score.landscapes == 2 and score.closure_errors == 0


def test_water_landscapes_score_nothing() -> None:
    shown = survey_of(board({}, fill="w"))
    assert [x.complete for x in shown.landscapes] == [True]  # one sea over the whole board
    assert score_of({}).landscapes == 0 and score_of({}).total == 0


def test_a_landscape_with_an_error_or_an_opening_scores_nothing() -> None:
    against_forest = score_of({7: (61, "variable", 0), 8: (FOREST[0], "plain", 0)})
    assert (against_forest.landscapes, against_forest.closure_errors) == (0, -4)
    filled = board(DESERT_PAIR, fill="w")
    hole_away = emptied(filled, 13)
    assert round_scores([seat(hole_away)])[0].landscapes == 2
    hole_by_desert = emptied(filled, 8)  # 77 lifted: 61's desert is open
    assert round_scores([seat(hole_by_desert)])[0].landscapes == 0


# -- bonus chips -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "chips"), [(1, (4,)), (2, (4, 3)), (3, (4, 3, 2)), (4, (4, 3, 2, 1))]
)
def test_bonus_chips_by_player_count(players: int, chips: tuple[int, ...]) -> None:
    assert chips_for(players) == chips


def test_the_bonus_line_is_the_chips_value() -> None:
    assert score_of({}, chip=3).bonus == 3 and score_of({}, chip=3).total == 3


# -- volcanoes -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("counts", "penalties"),
    [
        ((4, 5), (0, -5)),  # the seed's example
        ((3, 3, 1), (-3, -3, 0)),  # a shared majority: each loses their count
        ((0, 0), (0, 0)),  # no volcano, no penalty
        ((2,), (-2,)),  # a single player always has the most
    ],
)
def test_the_volcano_majority_loses_a_point_per_volcano(
    counts: tuple[int, ...], penalties: tuple[int, ...]
) -> None:
    assert tuple(volcano_penalties(counts)) == penalties


def test_inactive_volcanoes_count_only_for_the_previous_rounds_leaders() -> None:
    laid = {0: (122, "variable", 0), 1: (119, "variable", 0)}  # one inactive, one active
    follower, leader = round_scores([seat(board(laid)), seat(board(laid), leader=True)])
    assert (follower.volcano_count, leader.volcano_count) == (1, 2)
    assert (follower.volcanoes, leader.volcanoes) == (0, -2)


# -- empty spaces and closure errors ---------------------------------------------------------


def test_each_empty_space_loses_a_point_and_is_no_closure_error() -> None:
    score = score_of({8: (FOREST[0], "plain", 0)}, fill=None)  # one forest tile, mid-board
    assert (score.empty_spaces, score.closure_errors) == (-23, 0)


def test_a_closure_error_between_two_tiles_counts_once() -> None:
    laid = {8: (FOREST[0], "plain", 0), 9: (DESERT[0], "plain", 0)}
    assert score_of(laid, fill=None).closure_errors == -1
    below = {8: (FOREST[0], "plain", 0), 14: (DESERT[0], "plain", 0)}
    assert score_of(below, fill=None).closure_errors == -1


def test_a_tile_against_the_standard_border_of_water() -> None:
    corner = score_of({0: (FOREST[0], "plain", 0)}, fill=None)
    assert corner.closure_errors == -2  # north and west
    assert score_of({0: (WATER[0], "plain", 0)}, fill=None).closure_errors == 0


@pytest.mark.parametrize(
    ("space", "tiles", "errors"),
    [
        (2, FOREST, 0),  # north: forest
        (2, WATER, 1),
        (11, DESERT, 0),  # east: desert
        (11, FOREST, 1),
        (20, STEPPE, 0),  # south: steppe
        (20, DESERT, 1),
        (12, WATER, 0),  # west: water
        (12, STEPPE, 1),
        (0, FOREST, 1),  # the north-west corner meets forest and water
        (0, WATER, 1),
        (23, STEPPE, 1),  # the south-east corner meets steppe and desert
    ],
)
def test_a_tile_against_the_back_sides_border(space: int, tiles: list[int], errors: int) -> None:
    score = score_of({space: (tiles[0], "plain", 0)}, fill=None, backside=True)
    assert score.closure_errors == -errors


def test_a_landscape_meeting_its_own_border_is_closed_there() -> None:
    bay = (85, "variable", 90)  # tile 85 turned: a forest bay to the north, water elsewhere
    laid = board({2: bay}, fill="w")
    (on_water,) = [x for x in survey_of(laid).landscapes if x.kind == 1]
    (on_forest,) = [x for x in survey_of(laid, backside=True).landscapes if x.kind == 1]
    assert (on_water.closed, on_water.flawless) == (True, False)
    assert on_forest.complete and on_forest.on_border
