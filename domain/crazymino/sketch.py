"""A board the AI lays tiles on while it looks ahead: mutable and cheap to copy.

It keeps what a search asks for again and again: the open cells with their corner keys
(`frontier`), updated around each tile laid, and the groups of tiles joined edge to edge (a
union-find forest), so that whether a placement bridges two groups is a quick look. Tiles are
laid as *turns* (`fits`): a tile in one rotation. Its scores are the rules' own (`board.score`);
the tests hold the two together.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from domain.crazymino.board import CELL_COLOUR, CELL_MULTIPLIER, TILE_COLOUR, TILE_SUM, groups
from domain.crazymino.fits import FITS, TURN_CORNERS
from domain.crazymino.frontier import open_cells
from domain.crazymino.geometry import (
    CELLS,
    DIAGONAL_NEIGHBOURS,
    EDGE_NEIGHBOURS,
    POINTS,
    SIZE,
)
from domain.crazymino.tables import COLOURS, TILES

_SHIFTS = (11, 8, 3, 0)  # where each corner's number sits in a corner key (NW, NE, SE, SW)
#: Numbered corners of a corner key (`frontier.corner_key`): its non-zero octal digits.
ACTIVE: tuple[int, ...] = tuple(
    sum(key >> shift & 7 != 0 for shift in _SHIFTS) for key in range(len(FITS))
)
#: For keys with exactly two numbered corners, which two (k1 < k2); else None.
_PAIR: tuple[tuple[int, int] | None, ...] = tuple(
    (found[0], found[1]) if len(found) == 2 else None
    for found in (
        [k for k, shift in enumerate(_SHIFTS) if key >> shift & 7] for key in range(len(FITS))
    )
)
_CORNER_MULTIPLIER = (1, 1, 1, 3, 5)  # by numbered corners; two that bridge give 2
_NW = tuple(cell + cell // SIZE for cell in range(CELLS))  # the NW point of each cell
_AROUND = tuple(EDGE_NEIGHBOURS[c] + DIAGONAL_NEIGHBOURS[c] for c in range(CELLS))
_STEPS = ((-1, -1), (-1, 1), (1, 1), (1, -1))  # towards each corner: NW, NE, SE, SW


def _cell_at(cell: int, dr: int, dc: int) -> int:
    row, col = divmod(cell, SIZE)
    return (row + dr) * SIZE + col + dc if 0 <= row + dr < SIZE and 0 <= col + dc < SIZE else -1


#: The diagonal neighbour at each corner of each cell (-1 off the board).
_DIAGONAL_AT = tuple(tuple(_cell_at(c, dr, dc) for dr, dc in _STEPS) for c in range(CELLS))
#: The edge neighbour between two adjacent corners (k1, k2) of each cell (-1 off the board).
_EDGE_BETWEEN = tuple(
    {
        (0, 1): _cell_at(c, -1, 0),
        (1, 2): _cell_at(c, 0, 1),
        (2, 3): _cell_at(c, 1, 0),
        (0, 3): _cell_at(c, 0, -1),
    }
    for c in range(CELLS)
)
#: What each turn adds on a cell of each colour: its numbers, plus 10 on its own colour.
TURN_VALUE: dict[str, tuple[int, ...]] = {
    colour: tuple(
        TILE_SUM[turn >> 2] + (10 if TILE_COLOUR[turn >> 2] == colour else 0)
        for turn in range(4 * len(TILES))
    )
    for colour in COLOURS
}
MOST = max(TILE_SUM) + 10  # the most any turn adds before multipliers


class Sketch:
    """Cells (tile or -1), grid points (number or 0), the open cells' keys, and each tile's
    group (a union-find forest: `group[cell]` leads to the group's root)."""

    __slots__ = ("cells", "group", "open", "points")

    def __init__(
        self, cells: list[int], points: list[int], open_: dict[int, int], group: list[int]
    ) -> None:
        self.cells = cells
        self.points = points
        self.open = open_
        self.group = group

    @classmethod
    def of(cls, cells: Sequence[int], points: Sequence[int]) -> Sketch:
        return cls(list(cells), list(points), dict(open_cells(cells, points)), groups(cells))

    def copy(self) -> Sketch:
        return Sketch(self.cells.copy(), self.points.copy(), self.open.copy(), self.group.copy())

    def lay(self, turn: int, cell: int) -> None:
        """Lay a turn on an open cell it fits (not checked)."""
        cells, points, open_, group = self.cells, self.points, self.open, self.group
        cells[cell] = turn >> 2
        nw = _NW[cell]
        corners = TURN_CORNERS[turn]
        points[nw], points[nw + 1], points[nw + POINTS + 1], points[nw + POINTS] = corners
        del open_[cell]
        group[cell] = cell
        for n in EDGE_NEIGHBOURS[cell]:
            if cells[n] >= 0:
                group[self._root(n)] = cell
        for n in _AROUND[cell]:
            if cells[n] < 0:
                p = _NW[n]
                key = (points[p] << 3 | points[p + 1]) << 8
                key |= points[p + POINTS + 1] << 3 | points[p + POINTS]
                if ACTIVE[key] >= 2:
                    open_[n] = key

    def _root(self, cell: int) -> int:
        group = self.group
        while group[cell] != cell:
            group[cell] = group[group[cell]]
            cell = group[cell]
        return cell

    def times(self, cell: int, key: int) -> int:
        """The corner multiplier times the cell multiplier of a placement on an open cell."""
        pair = _PAIR[key]
        if pair is None:
            return _CORNER_MULTIPLIER[ACTIVE[key]] * CELL_MULTIPLIER[cell]
        edge = _EDGE_BETWEEN[cell].get(pair, -1)
        if edge >= 0 and self.cells[edge] >= 0:
            return CELL_MULTIPLIER[cell]  # the tiles there all touch this edge tile: one group
        first, second = _DIAGONAL_AT[cell][pair[0]], _DIAGONAL_AT[cell][pair[1]]
        bridged = self._root(first) != self._root(second)
        return (2 if bridged else 1) * CELL_MULTIPLIER[cell]

    def placings(self, turns: int) -> Iterator[tuple[int, int, int]]:
        """Every (total, turn, cell) of the given turns on the open cells they fit."""
        for cell, key in self.open.items():
            fit = FITS[key] & turns
            if fit:
                times = self.times(cell, key)
                values = TURN_VALUE[CELL_COLOUR[cell]]
                while fit:
                    low = fit & -fit
                    turn = low.bit_length() - 1
                    yield values[turn] * times, turn, cell
                    fit ^= low

    def best(self, turns: int) -> tuple[int, int, int]:
        """The highest (total, turn, cell) of the given turns, or (0, -1, -1) when none fits."""
        top, top_turn, top_cell = 0, -1, -1
        for cell, key in self.open.items():
            fit = FITS[key] & turns
            if not fit:
                continue
            times = self.times(cell, key)
            if times * MOST <= top:
                continue
            values = TURN_VALUE[CELL_COLOUR[cell]]
            while fit:
                low = fit & -fit
                turn = low.bit_length() - 1
                if values[turn] * times > top:
                    top, top_turn, top_cell = values[turn] * times, turn, cell
                fit ^= low
        return top, top_turn, top_cell
