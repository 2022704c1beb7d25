"""Which tiles fit which open cells, as sets of turns held in integers.

A *turn* is one tile in one rotation, numbered `tile * 4 + rotation // 90`; a set of turns is
an integer with one bit per turn. `FITS[key]` is the set of turns whose corners equal the
number on each numbered corner of a cell with that key (`frontier.corner_key`), for keys with
at least two numbered corners (an open cell); it is empty for every other key.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import reduce
from itertools import compress
from operator import or_

from domain.crazymino.frontier import corner_key, open_lanes
from domain.crazymino.geometry import (
    CELLS,
    CORNER_POINTS,
    DIAGONAL_NEIGHBOURS,
    EDGE_NEIGHBOURS,
    ROTATIONS,
    Corners,
    rotate,
)
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


#: The open cells of a board where some turn fits, as (FITS[key], cell), in cell order.
Frontier = tuple[tuple[int, int], ...]

#: How many boards `frontier` remembers. A board's tuples never change, and one board is shared
#: by every state between two placements (listed by `legal` and the AI, then read by `decide`),
#: so a few dozen cover the games a process is playing; beyond that the memo starts afresh.
FRONTIER_BOARDS = 64
_FRONTIERS: dict[tuple[int, int], tuple[Sequence[int], Sequence[int], Frontier]] = {}

#: For each cell: each neighbour (edge ones first) with its four corner points.
NEAR: tuple[tuple[tuple[int, int, int, int, int], ...], ...] = tuple(
    tuple((n, *CORNER_POINTS[n]) for n in (*EDGE_NEIGHBOURS[cell], *DIAGONAL_NEIGHBOURS[cell]))
    for cell in range(CELLS)
)

#: Each cell with its edge and diagonal neighbours.
BLOCK: tuple[frozenset[int], ...] = tuple(
    frozenset((cell, *(n for n, *_ in NEAR[cell]))) for cell in range(CELLS)
)


def hand_turns(hand: Iterable[int]) -> int:
    """The turns of the tiles in a hand."""
    return reduce(or_, map(TILE_TURNS.__getitem__, hand), 0)


def frontier(cells: Sequence[int], points: Sequence[int]) -> Frontier:
    """(FITS[key], cell) for each open cell that some turn fits, in cell order.

    A pure function of the board. For a board held in tuples (as a `State` holds it) the answer
    is remembered by the identity of the two tuples; the memo keeps them alive, so an identity
    cannot be reused by another board while it is remembered.
    """
    if type(cells) is not tuple or type(points) is not tuple:
        return _frontier(cells, points)
    ident = (id(cells), id(points))
    known = _FRONTIERS.get(ident)
    if known is not None and known[0] is cells and known[1] is points:
        return known[2]
    found = _frontier(cells, points)
    if len(_FRONTIERS) >= FRONTIER_BOARDS:
        _FRONTIERS.clear()
    _FRONTIERS[ident] = (cells, points, found)
    return found


def remembered(cells: Sequence[int], points: Sequence[int]) -> Frontier | None:
    """The `frontier` of the board if it is remembered, else None (nothing is worked out)."""
    known = _FRONTIERS.get((id(cells), id(points)))
    if known is not None and known[0] is cells and known[1] is points:
        return known[2]
    return None


def _frontier(cells: Sequence[int], points: Sequence[int]) -> Frontier:
    at, keys = open_lanes(cells, points)
    fits = list(map(FITS.__getitem__, keys))
    return tuple(compress(zip(fits, at, strict=True), fits))


def fitting(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> list[Placing]:
    """Every legal (tile, rotation, cell) for the distinct tiles of a hand, sorted."""
    return [(f >> 10, ROTATIONS[f >> 8 & 3], f & 0xFF) for f in packed(cells, points, hand)]


def packed(cells: Sequence[int], points: Sequence[int], hand: Iterable[int]) -> list[int]:
    """`fitting`, each placing packed into one integer `turn << 8 | cell`, in the same order."""
    turns = hand_turns(hand)
    found: list[int] = []
    append = found.append
    known = _SPLIT.get
    for fits, cell in frontier(cells, points):
        fit = fits & turns
        if fit:
            for turn in known(fit) or _split(fit):
                append(turn | cell)
    found.sort()
    return found


#: How many sets of turns `_split` remembers; beyond that the memo starts afresh.
SPLIT_SETS = 8192
_SPLIT: dict[int, tuple[int, ...]] = {}


def _split(fit: int) -> tuple[int, ...]:
    """`turn << 8` for each turn of a set, in order (the sets met at one cell repeat a lot: a
    single turn, most often)."""
    shifted = []
    rest = fit
    while rest:
        low = rest & -rest
        shifted.append((low.bit_length() - 1) << 8)
        rest ^= low
    if len(_SPLIT) >= SPLIT_SETS:
        _SPLIT.clear()
    found = _SPLIT[fit] = tuple(shifted)
    return found


def fits_near(cells: Sequence[int], points: Sequence[int], cell: int, turns: int) -> bool:
    """Whether one of the turns fits an open cell next to `cell` (edge or corner): the cells
    whose corners a tile just laid on `cell` numbered, and so the likeliest to take a tile."""
    for n, nw, ne, se, sw in NEAR[cell]:
        if (
            cells[n] < 0
            and FITS[(points[nw] << 3 | points[ne]) << 8 | points[se] << 3 | points[sw]] & turns
        ):
            return True
    return False


#: The tiles with a turn in `FITS[key]`, for each key asked so far (one entry per key at most).
_FIT_TILES: dict[int, frozenset[int]] = {}


def _tiles_fitting(key: int) -> frozenset[int]:
    tiles = _FIT_TILES.get(key)
    if tiles is None:
        fits = FITS[key]
        tiles = frozenset(t for t, turns in enumerate(TILE_TURNS) if fits & turns)
        _FIT_TILES[key] = tiles
    return tiles


def hand_fits_near(
    cells: Sequence[int], points: Sequence[int], cell: int, hand: Sequence[int]
) -> bool:
    """`fits_near(cells, points, cell, hand_turns(hand))`, without working out the turns of the
    whole hand: whether a tile of the hand has a turn that fits an open cell next to `cell`."""
    known = _FIT_TILES.get
    for n, nw, ne, se, sw in NEAR[cell]:
        if cells[n] < 0:
            key = (points[nw] << 3 | points[ne]) << 8 | points[se] << 3 | points[sw]
            # (a key that some turn fits has a tile: its set is never empty)
            if FITS[key] and not (known(key) or _tiles_fitting(key)).isdisjoint(hand):
                return True
    return False


def fits_elsewhere(before: Frontier, cell: int, turns: int) -> bool:
    """Whether one of the turns fits an open cell of the board `before` (its `frontier`) that
    is not `cell` nor next to it. Laying a tile on `cell` changes no other cell's corners, so
    these are the open cells of the board after it that `fits_near` does not look at."""
    block = BLOCK[cell]
    return any(fits & turns for fits, c in before if c not in block)


def fits_somewhere(cells: Sequence[int], points: Sequence[int], turns: int) -> bool:
    """Whether one of the turns fits an open cell: from the remembered `frontier` of the board
    if there is one, else from the open cells, stopping at the first that one fits."""
    known = remembered(cells, points)
    if known is None:
        return any(FITS[key] & turns for key in open_lanes(cells, points)[1])
    return any(fits & turns for fits, _ in known)


def open_turns(cells: Sequence[int], points: Sequence[int]) -> int:
    """The turns that fit at least one open cell: a hand can be placed when it has one."""
    return reduce(or_, [fits for fits, _ in frontier(cells, points)], 0)
