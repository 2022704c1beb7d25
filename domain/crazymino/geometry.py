"""Cells, grid points and rotation on the 14×14 board.

Cells are (row, col), row 0 at the top. The corners of all cells form a 15×15 grid of points;
cell (r, c) has NW at point (r, c), NE (r, c+1), SE (r+1, c+1), SW (r+1, c). A tile is written
as its corner numbers in the order NW, NE, SE, SW.
"""

from __future__ import annotations

SIZE = 14
POINTS = SIZE + 1
CELLS = SIZE * SIZE
ROTATIONS = (0, 90, 180, 270)

Corners = tuple[int, int, int, int]


def rotate(corners: Corners, rotation: int) -> Corners:
    """The corners after turning the tile clockwise; 90° moves SW→NW, NW→NE, NE→SE, SE→SW."""
    nw, ne, se, sw = corners
    if rotation == 0:
        return corners
    if rotation == 90:
        return (sw, nw, ne, se)
    if rotation == 180:
        return (se, sw, nw, ne)
    return (ne, se, sw, nw)


def cell_index(row: int, col: int) -> int:
    return row * SIZE + col


#: The (row, col) of each cell.
ROW_COL: tuple[tuple[int, int], ...] = tuple(divmod(cell, SIZE) for cell in range(CELLS))


def on_board(row: int, col: int) -> bool:
    return 0 <= row < SIZE and 0 <= col < SIZE


def _corner_points(cell: int) -> tuple[int, int, int, int]:
    r, c = divmod(cell, SIZE)
    return (r * POINTS + c, r * POINTS + c + 1, (r + 1) * POINTS + c + 1, (r + 1) * POINTS + c)


def _neighbours(cell: int, steps: tuple[tuple[int, int], ...]) -> tuple[int, ...]:
    r, c = divmod(cell, SIZE)
    return tuple(cell_index(r + dr, c + dc) for dr, dc in steps if on_board(r + dr, c + dc))


#: The four grid points of each cell, NW, NE, SE, SW.
CORNER_POINTS: tuple[tuple[int, int, int, int], ...] = tuple(
    _corner_points(i) for i in range(CELLS)
)
#: Cells sharing an edge with each cell.
EDGE_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(i, ((-1, 0), (0, 1), (1, 0), (0, -1))) for i in range(CELLS)
)
#: Cells touching each cell only at a corner.
DIAGONAL_NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    _neighbours(i, ((-1, -1), (-1, 1), (1, 1), (1, -1))) for i in range(CELLS)
)


def _around_corner(cell: int, corner: int) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The other cells around one corner point of a cell: (edge-sharing ones, the diagonal one)."""
    r, c = divmod(cell, SIZE)
    dr, dc = ((-1, -1), (-1, 1), (1, 1), (1, -1))[corner]
    edge = tuple(cell_index(r + a, c + b) for a, b in ((dr, 0), (0, dc)) if on_board(r + a, c + b))
    diagonal = tuple(cell_index(r + dr, c + dc) for _ in (0,) if on_board(r + dr, c + dc))
    return edge, diagonal


#: For each cell and each of its corners: the edge neighbours and the diagonal neighbour there.
AROUND: tuple[tuple[tuple[tuple[int, ...], tuple[int, ...]], ...], ...] = tuple(
    tuple(_around_corner(i, k) for k in range(4)) for i in range(CELLS)
)
