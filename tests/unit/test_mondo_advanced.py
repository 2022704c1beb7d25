"""Advanced game: the five special scorings, their measures on real boards and their tie rules."""

from __future__ import annotations

import pytest
from mondo_builders import board, seat, survey_of

from domain.mondo.model import Board
from domain.mondo.scoring import round_scores
from domain.mondo.specials import MEASURES, SPECIALS, special_points

#: In a forest: the water bays of tiles 42 (with a dolphin) and 106 face each other: a sea.
SEA = board({8: (42, "variable", 0), 9: (106, "variable", 180)}, fill="f")
#: In the sea: the forest bays of tiles 29 (its water holds a dolphin) and 85 face each other.
ISLAND = board({8: (29, "variable", 180), 9: (85, "variable", 0)}, fill="w")
#: Two deserts (tiles 61 and 77, tiles 129 and 65) and the forest of ISLAND, in the sea.
THREE = board(
    {
        8: (29, "variable", 180),
        9: (85, "variable", 0),
        0: (61, "variable", 0),
        1: (77, "variable", 90),
        20: (129, "variable", 180),
        21: (65, "variable", 90),
    },
    fill="w",
)


def test_the_five_special_scorings() -> None:
    assert SPECIALS == (
        "most_regions",
        "most_seas",
        "most_sea_animals",
        "largest_sea",
        "largest_forest",
    )


@pytest.mark.parametrize(
    ("laid", "measures"),
    [
        # regions, seas, sea animals, largest sea, largest forest
        (SEA, (0, 1, 1, 2, 0)),  # the forest meets the water border: not error-free
        (ISLAND, (1, 0, 1, 0, 2)),  # water on the border is no sea
        (THREE, (3, 0, 2, 0, 2)),  # 129 brings an octopus
        (board({}, fill="w"), (0, 0, 0, 0, 0)),
    ],
)
def test_each_measure_on_a_board(laid: Board, measures: tuple[int, ...]) -> None:
    shown = survey_of(laid)
    assert tuple(MEASURES[s](shown) for s in SPECIALS) == measures


def test_a_sea_counts_its_tiles_not_its_area() -> None:
    strait = (32, "variable", 0)  # tile 32: a water band from west to east between forests
    longer = board({8: (42, "variable", 0), 9: strait, 10: (106, "variable", 180)}, fill="f")
    assert MEASURES["largest_sea"](survey_of(longer)) == 3
    assert MEASURES["most_seas"](survey_of(longer)) == 1


@pytest.mark.parametrize(
    ("measures", "points"),
    [
        ((3, 1, 0), (4, 0, -4)),
        ((2, 2, 0), (4, 4, -4)),  # tied at the top: each gains 4
        ((2, 0, 0), (4, -4, -4)),  # tied at the bottom: each loses 4
        ((1, 1, 1), (0, 0, 0)),  # all tied: nobody scores it
        ((5,), (0,)),  # a single player ties with themself
        ((0, 3), (-4, 4)),
    ],
)
def test_most_gains_four_fewest_loses_four(
    measures: tuple[int, ...], points: tuple[int, ...]
) -> None:
    assert special_points(measures) == points


def test_the_special_line_of_a_round_score() -> None:
    scores = round_scores([seat(THREE), seat(ISLAND), seat(SEA)], special="most_regions")
    assert [s.special_count for s in scores] == [3, 1, 0]
    assert [s.special for s in scores] == [4, 0, -4]
    assert [s.total - s.special for s in scores] == [
        s.total for s in round_scores([seat(THREE), seat(ISLAND), seat(SEA)])
    ]
