"""The open cells of a board (where a tile could connect), found a whole board at a time.

A grid point carries a number exactly when a tile lies on one of the cells around it. So an
empty cell with an edge neighbour has two numbered corners, and one without an edge neighbour
has one numbered corner per diagonal neighbour: an empty cell is connected (an edge neighbour,
or two diagonal ones) exactly when at least two of its corners carry a number. Such a cell is
*open*; a turned tile fits it when its corners equal every number already there (`fits`).

The work is done on whole boards packed into integers, one byte per grid point: byte
`r * 15 + c` holds point (r, c), and also stands for cell (r, c), whose NW corner it is. A
cell's NE, SE and SW corners are then the bytes 1, 16 and 15 further on, so a shift of the
integer lines every cell up with one of its corners. The numbers are at most 7, so sums of a
few bytes never carry into the next byte. The few steps per open cell that remain run in
`itertools` and `bytes` methods rather than in Python loops.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator, Sequence
from itertools import compress
from struct import Struct

from domain.crazymino.geometry import POINTS, SIZE

_LANES = POINTS * POINTS  # one byte per grid point
_NE, _SE, _SW = 8, 8 * (POINTS + 1), 8 * POINTS  # bits from a cell's byte to its corner's


def _every_byte(value: int, cells_only: bool = False) -> int:
    """An integer with `value` in every byte (or only in the bytes that stand for a cell)."""
    lanes = [POINTS * r + c for r in range(SIZE) for c in range(SIZE)] if cells_only else None
    return sum(value << (8 * i) for i in (lanes or range(_LANES)))


_ALL_7F, _ALL_7E, _ALL_80 = _every_byte(0x7F), _every_byte(0x7E), _every_byte(0x80)
_CELL_80 = _every_byte(0x80, cells_only=True)
#: A board's cells as signed bytes, one per lane: a row of cells, then a padding byte (0) for
#: the lane of the last column of points (struct packs a tuple faster than `array` does).
_CELL_BYTES = Struct("x".join([f"{SIZE}b"] * SIZE)).pack
#: The cell each byte stands for (bytes of the last column and row stand for none).
_LANE_CELL = tuple(i - i // POINTS for i in range(_LANES))
#: Where a key's two bytes go in a native 16-bit word: (south corners, north corners).
_SOUTH, _NORTH = (slice(0, None, 2), slice(1, None, 2))
if sys.byteorder == "big":  # pragma: no cover - the development machines are little-endian
    _SOUTH, _NORTH = _NORTH, _SOUTH


def corner_key(nw: int, ne: int, se: int, sw: int) -> int:
    """A cell's key: the numbers on its corners (0 where a point has none), 3 bits each;
    the north corners in the high byte, the south corners in the low byte."""
    return (nw << 3 | ne) << 8 | se << 3 | sw


def open_cells(cells: Sequence[int], points: Sequence[int]) -> Iterator[tuple[int, int]]:
    """Each open cell with its `corner_key`, in cell order (a lazy iterator).

    `cells` holds a tile id (0..119) or -1 per cell; `points` a number (0..7) per grid point.
    """
    return zip(*open_lanes(cells, points), strict=True)


def open_lanes(cells: Sequence[int], points: Sequence[int]) -> tuple[Iterator[int], Iterator[int]]:
    """`open_cells` as two lazy iterators: the open cells, and their keys in the same order."""
    numbers = bytes(points)
    board = int.from_bytes(numbers, "little")
    numbered = ((board + _ALL_7F) & _ALL_80) >> 7  # 1 in each byte whose point has a number
    corners = numbered + (numbered >> _NE) + (numbered >> _SE) + (numbered >> _SW)
    empty = int.from_bytes(_CELL_BYTES(*cells), "little")  # -1 (empty) becomes 0xFF
    two_or_more = corners + _ALL_7E  # top bit set in each byte that counts two or more
    chosen = ((two_or_more & empty & _CELL_80) >> 7).to_bytes(_LANES, "little")
    keys = bytearray(2 * _LANES)
    keys[_NORTH] = ((board << 3) + (board >> _NE)).to_bytes(_LANES, "little")
    keys[_SOUTH] = (((board >> _SE) << 3) + (board >> _SW)).to_bytes(_LANES, "little")
    return compress(_LANE_CELL, chosen), compress(memoryview(keys).cast("H"), chosen)
