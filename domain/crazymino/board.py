"""The board's rules: where a tile may lie, and what it scores there.

These functions read a board as two flat tuples: `cells` (the tile on each cell, or -1) and
`points` (the number on each grid point, or 0). The rule "every edge and every diagonal corner
matches" is the same as "every grid point carries at most one number".
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

from domain.crazymino.errors import (
    CellOccupied,
    DiagonalMismatch,
    EdgeMismatch,
    NotConnected,
)
from domain.crazymino.fits import Placing, fits_somewhere, fitting, hand_turns
from domain.crazymino.geometry import (
    AROUND,
    CELLS,
    CORNER_POINTS,
    DIAGONAL_NEIGHBOURS,
    EDGE_NEIGHBOURS,
    POINTS,
    SIZE,
    Corners,
)
from domain.crazymino.model import Score
from domain.crazymino.tables import BOARD, COLOURS, MULTIPLIERS, TILES

_BY_LETTER = {colour[0].upper(): colour for colour in COLOURS}

TILE_COLOUR: tuple[str, ...] = tuple(colour for colour, _ in TILES)
TILE_CORNERS: tuple[Corners, ...] = tuple(corners for _, corners in TILES)
TILE_SUM: tuple[int, ...] = tuple(sum(corners) for corners in TILE_CORNERS)
CELL_COLOUR: tuple[str, ...] = tuple(_BY_LETTER[letter] for row in BOARD for letter in row)
CELL_MULTIPLIER: tuple[int, ...] = tuple(MULTIPLIERS.get(divmod(i, SIZE), 1) for i in range(CELLS))
CORNER_MULTIPLIER = (1, 1, 1, 3, 5)  # by active corners; two corners bridging gives 2


def check(cells: Sequence[int], points: Sequence[int], corners: Corners, cell: int) -> None:
    """Raise the rule error that forbids laying `corners` on `cell`, if any."""
    nw, ne, se, sw = CORNER_POINTS[cell]
    a, b, c, d = points[nw], points[ne], points[se], points[sw]
    if (  # the usual case, a legal placement, in a few comparisons; else the errors in order
        cells[cell] < 0
        and (not a or a == corners[0])
        and (not b or b == corners[1])
        and (not c or c == corners[2])
        and (not d or d == corners[3])
        and _connected(cells, cell)
    ):
        return
    if cells[cell] >= 0:
        raise CellOccupied("That cell already holds a tile.")
    mismatched = [
        k for k, p in enumerate(CORNER_POINTS[cell]) if points[p] and points[p] != corners[k]
    ]
    for k in mismatched:
        if any(cells[n] >= 0 for n in AROUND[cell][k][0]):
            raise EdgeMismatch("An edge of the tile does not match the tile next to it.")
    if mismatched:
        raise DiagonalMismatch("A corner of the tile does not match the tile touching it there.")
    if not _connected(cells, cell):
        raise NotConnected(
            "The tile must share an edge with a placed tile, or touch two of them at corners."
        )


def _connected(cells: Sequence[int], cell: int) -> bool:
    """Whether a tile on `cell` shares an edge with a placed tile, or touches two at corners."""
    for n in EDGE_NEIGHBOURS[cell]:
        if cells[n] >= 0:
            return True
    return sum(cells[n] >= 0 for n in DIAGONAL_NEIGHBOURS[cell]) >= 2


def _edge_neighbour(cells: Sequence[int], cell: int) -> bool:
    """Whether a tile lies on a cell that shares an edge with `cell`."""
    for n in EDGE_NEIGHBOURS[cell]:  # noqa: SIM110 - a loop costs less than `any` of a generator
        if cells[n] >= 0:
            return True
    return False


def groups(cells: Sequence[int]) -> list[int]:
    """A group label per cell (-1 for empty): tiles joined edge to edge share a label."""
    label = [-1] * CELLS
    for start in range(CELLS):
        if cells[start] < 0 or label[start] >= 0:
            continue
        label[start] = start
        stack = [start]
        while stack:
            here = stack.pop()
            for n in EDGE_NEIGHBOURS[here]:
                if cells[n] >= 0 and label[n] < 0:
                    label[n] = start
                    stack.append(n)
    return label


#: Bit of each cell in a board's occupancy mask: rows of POINTS bits, the last one always clear,
#: so that a shift by one bit never carries a cell into the next row.
_BIT = tuple(1 << (r * POINTS + c) for r in range(SIZE) for c in range(SIZE))
#: `bytes.translate` table: a cell's byte (a tile id 0..119, or 0xFF for empty and for the
#: padding byte after each row) to the digit of its bit.
_DIGIT = bytes(b"0"[0] if b >= 0x80 else b"1"[0] for b in range(256))
_ROWS = range(0, CELLS, SIZE)


def occupied(cells: Sequence[int]) -> int:
    """The occupancy mask of a board: the bit `_BIT[cell]` set for each cell holding a tile."""
    tiles = array("b", cells).tobytes()  # -1 (empty) becomes 0xFF
    rows = b"\xff".join([tiles[i : i + SIZE] for i in _ROWS])
    return int(rows.translate(_DIGIT)[::-1], 2)


def joined(cells: Sequence[int], tiles: Iterable[int]) -> bool:
    """Whether the given cells (each holding a tile) all belong to one group.

    A flood fill of the occupancy mask from one of them, a ring of neighbours per step (a few
    integer operations for the whole board), until it holds them all or stops growing.
    """
    bits = [_BIT[t] for t in tiles]
    if not bits:
        return True
    board = occupied(cells)
    reach, wanted = bits[0], sum(set(bits))
    while reach & wanted != wanted:
        grown = (reach | reach << 1 | reach >> 1 | reach << POINTS | reach >> POINTS) & board
        if grown == reach:
            return False
        reach = grown
    return True


def score(
    cells: Sequence[int],
    points: Sequence[int],
    tile: int,
    cell: int,
    labels: Sequence[int] | None = None,
) -> Score:
    """The breakdown of a legal placement's score. `labels` (from `groups`, before placing)
    saves the search for groups when many placements on one board are scored."""
    nw, ne, se, sw = CORNER_POINTS[cell]
    numbered = (points[nw] != 0) + (points[ne] != 0) + (points[se] != 0) + (points[sw] != 0)
    bridged = False
    # Two numbered corners with an edge neighbour are the two ends of that edge, and every
    # tile around them shares an edge with it: one group. Only diagonal tiles can be two.
    if numbered == 2 and not _edge_neighbour(cells, cell):
        active = [k for k, p in enumerate(CORNER_POINTS[cell]) if points[p]]
        touching = {n for k in active for side in AROUND[cell][k] for n in side if cells[n] >= 0}
        if labels is None:
            bridged = not joined(cells, touching)
        else:
            bridged = len({labels[n] for n in touching}) >= 2
    corner_multiplier = 2 if bridged else CORNER_MULTIPLIER[numbered]
    bonus = 10 if TILE_COLOUR[tile] == CELL_COLOUR[cell] else 0
    cell_multiplier = CELL_MULTIPLIER[cell]
    return Score(
        sum=TILE_SUM[tile],
        colour_bonus=bonus,
        active_corners=numbered,
        bridged=bridged,
        corner_multiplier=corner_multiplier,
        cell_multiplier=cell_multiplier,
        total=(TILE_SUM[tile] + bonus) * corner_multiplier * cell_multiplier,
    )


def any_placing(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> bool:
    """Whether some tile of the hand fits somewhere: `bool(placings(...))`."""
    return fits_somewhere(cells, points, hand_turns(hand))


def placings(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> list[Placing]:
    """Every legal (tile, rotation, cell) for the (distinct) tiles of a hand, sorted."""
    return fitting(cells, points, hand)


def lay(
    cells: tuple[int, ...], points: tuple[int, ...], tile: int, cell: int, corners: Corners
) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The board after a tile is laid (no checks)."""
    new_cells = list(cells)
    new_cells[cell] = tile
    new_points = list(points)
    nw, ne, se, sw = CORNER_POINTS[cell]
    new_points[nw], new_points[ne], new_points[se], new_points[sw] = corners
    return tuple(new_cells), tuple(new_points)
