"""Which tiles fit which open cells, as sets of turns held in integers.

A *turn* is one tile in one rotation, numbered `tile * 4 + rotation // 90`; a set of turns is
an integer with one bit per turn. `FITS[key]` is the set of turns whose corners equal the
number on each numbered corner of a cell with that key (`frontier.corner_key`), for keys with
at least two numbered corners (an open cell); it is empty for every other key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.crazymino.frontier import corner_key, open_cells
from domain.crazymino.geometry import ROTATIONS, Corners, rotate
from domain.crazymino.tables import TILES

Placing = tuple[int, int, int]  # (tile, rotation, cell)

#: The corners (NW, NE, SE, SW) of every turn.
TURN_CORNERS: tuple[Corners, ...] = tuple(
    rotate(corners, rotation) for _, corners in TILES for rotation in ROTATIONS
)
#: The four turns of each tile.
TILE_TURNS: tuple[int, ...] = tuple(0b1111 << (4 * tile) for tile in range(len(TILES)))


def _fits() -> tuple[int, ...]:
    fits = [0] * (corner_key(7, 7, 7, 7) + 1)
    for turn, corners in enumerate(TURN_CORNERS):
        for shown in range(16):  # which corners carry a number: bit k for corner k
            if shown.bit_count() >= 2:
                numbers = [n if shown >> k & 1 else 0 for k, n in enumerate(corners)]
                fits[corner_key(*numbers)] |= 1 << turn
    return tuple(fits)


FITS: tuple[int, ...] = _fits()


def hand_turns(hand: Iterable[int]) -> int:
    """The turns of the tiles in a hand."""
    turns = 0
    for tile in hand:
        turns |= TILE_TURNS[tile]
    return turns


def fitting(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> list[Placing]:
    """Every legal (tile, rotation, cell) for the distinct tiles of a hand, sorted."""
    return [(f >> 10, ROTATIONS[f >> 8 & 3], f & 0xFF) for f in packed(cells, points, hand)]


def packed(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> list[int]:
    """`fitting`, each placing packed into one integer `turn << 8 | cell`, in the same order."""
    turns = hand_turns(hand)
    found = []
    for cell, key in open_cells(cells, points):
        fit = FITS[key] & turns
        while fit:
            low = fit & -fit
            found.append((low.bit_length() - 1) << 8 | cell)
            fit ^= low
    found.sort()
    return found


def fits_somewhere(cells: Sequence[int], points: Sequence[int], turns: int) -> bool:
    """Whether one of the turns fits an open cell (it stops at the first that does)."""
    return any(FITS[key] & turns for _, key in open_cells(cells, points))


def open_turns(cells: Sequence[int], points: Sequence[int]) -> int:
    """The turns that fit at least one open cell: a hand can be placed when it has one."""
    turns = 0
    for _, key in open_cells(cells, points):
        turns |= FITS[key]
    return turns
