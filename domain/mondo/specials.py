"""Advanced game: the five special scorings, one shown each round (never twice in a game).

The player with the most gains 4, the one with the fewest loses 4; everyone tied at either end
gets the same; when all players tie, nobody scores it. Regions, seas and the largest sea or forest
count only closed, error-free landscapes; a sea is water completely surrounded by land (it
touches no border).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal, get_args

from domain.mondo.faces import FOREST, WATER
from domain.mondo.survey import Landscape, Survey

Special = Literal["most_regions", "most_seas", "most_sea_animals", "largest_sea", "largest_forest"]
SPECIALS: tuple[Special, ...] = get_args(Special)
SPECIAL_POINTS = 4


def _is_sea(landscape: Landscape) -> bool:
    return landscape.kind == WATER and landscape.complete and not landscape.on_border


def _regions(board: Survey) -> int:
    """Most regions: closed, error-free landscapes other than water."""
    return sum(1 for x in board.landscapes if x.complete and x.kind != WATER)


def _seas(board: Survey) -> int:
    return sum(1 for x in board.landscapes if _is_sea(x))


def _sea_animals(board: Survey) -> int:
    """Every sea animal on the board, in a closed landscape or not (the seed sets no condition)."""
    return sum(1 for species in board.species if species // 4 == WATER)


def _largest_sea(board: Survey) -> int:
    return max((x.tiles for x in board.landscapes if _is_sea(x)), default=0)


def _largest_forest(board: Survey) -> int:
    return max((x.tiles for x in board.landscapes if x.kind == FOREST and x.complete), default=0)


MEASURES: dict[Special, Callable[[Survey], int]] = {
    "most_regions": _regions,
    "most_seas": _seas,
    "most_sea_animals": _sea_animals,
    "largest_sea": _largest_sea,
    "largest_forest": _largest_forest,
}


def special_points(measures: Sequence[int]) -> tuple[int, ...]:
    """+4 to every player with the most, -4 to every player with the fewest, nothing to anyone
    when all are equal (a single player always is)."""
    high, low = max(measures), min(measures)
    if high == low:
        return (0,) * len(measures)
    return tuple(
        SPECIAL_POINTS if m == high else -SPECIAL_POINTS if m == low else 0 for m in measures
    )
