"""Small boards for known-answer tests: lay numbers on cells without playing a whole game."""

from __future__ import annotations

from domain.crazymino.board import TILE_COLOUR, TILE_CORNERS, lay
from domain.crazymino.geometry import cell_index
from domain.crazymino.model import EMPTY_CELLS, EMPTY_POINTS, Placement, State
from domain.crazymino.tables import TILES

#: Any tile id marks a cell as occupied; the numbers come from the corners given.
FILLER = 0


def tile_of(colour: str, *, exclude: tuple[int, ...] = ()) -> int:
    """The first tile of a colour (not in `exclude`)."""
    return next(t for t, (c, _) in enumerate(TILES) if c == colour and t not in exclude)


def state(
    laid: dict[tuple[int, int], tuple[int, int, int, int]],
    hands: tuple[tuple[int, ...], ...],
    pile: tuple[int, ...] = (),
    turn: int = 0,
) -> State:
    """A running game: `laid` maps cells to the corners on them; seat 0 is first to play."""
    cells, points = EMPTY_CELLS, EMPTY_POINTS
    placements = []
    for (row, col), corners in laid.items():
        cells, points = lay(cells, points, FILLER, cell_index(row, col), corners)
        placements.append(Placement(FILLER, row, col, 0, TILE_COLOUR[FILLER], corners))
    seats = len(hands)
    return State(
        players=tuple(f"P{s}" for s in range(seats)),
        order=tuple(range(seats)),
        turn=turn,
        hands=hands,
        pile=pile,
        cells=cells,
        points=points,
        placements=tuple(placements),
        scores=(0,) * seats,
    )


def corners(tile: int) -> tuple[int, int, int, int]:
    return TILE_CORNERS[tile]
