"""The world board: 4 rows of 6 spaces inside a border, and where a tile may go.

Space `s` is row `s // 6`, column `s % 6`; row 0 is the north edge, column 0 the west. The border
shows one landscape on each side of the board: water all round on the standard side; on the back
side forest in the north, desert in the east, steppe in the south and water in the west.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from domain.mondo.faces import DESERT, EAST, FOREST, NORTH, SOUTH, STEPPE, WATER, WEST, Four

ROWS, COLUMNS = 4, 6
SPACES = ROWS * COLUMNS
BORDER = -1  # the neighbour of a space across the board's edge

BoardSide = Literal["standard", "back"]
STANDARD_BORDER: Four = (WATER, WATER, WATER, WATER)
BACK_BORDER: Four = (FOREST, DESERT, STEPPE, WATER)


def border(backside: bool) -> Four:
    """The border's landscape on each side (north, east, south, west) of the board."""
    return BACK_BORDER if backside else STANDARD_BORDER


def _neighbours(space: int) -> Four:
    row, col = divmod(space, COLUMNS)
    return (
        space - COLUMNS if row > 0 else BORDER,
        space + 1 if col < COLUMNS - 1 else BORDER,
        space + COLUMNS if row < ROWS - 1 else BORDER,
        space - 1 if col > 0 else BORDER,
    )


#: NEIGHBOURS[space][side]: the space across that side, or BORDER.
NEIGHBOURS: tuple[Four, ...] = tuple(_neighbours(s) for s in range(SPACES))
OPPOSITE: Four = (SOUTH, WEST, NORTH, EAST)
assert OPPOSITE[NORTH] == SOUTH and OPPOSITE[EAST] == WEST


def open_spaces(taken: Sequence[bool]) -> list[int]:
    """The spaces a tile may go to: any space of an empty board, else every empty space that
    shares an edge with a tile."""
    if not any(taken):
        return list(range(SPACES))
    return [
        s
        for s in range(SPACES)
        if not taken[s] and any(n != BORDER and taken[n] for n in NEIGHBOURS[s])
    ]


def touches(taken: Sequence[bool], space: int) -> bool:
    """Whether a tile on `space` would share an edge with a tile already on the board."""
    return any(n != BORDER and taken[n] for n in NEIGHBOURS[space])
