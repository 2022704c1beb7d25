"""What each viewer may see: a seat its own hand, everyone hand sizes and the pile's size.

Once the game is over every hand is shown.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from domain.crazymino.board import TILE_COLOUR, TILE_CORNERS
from domain.crazymino.model import (
    Event,
    GameEnded,
    GameStarted,
    Placement,
    State,
    TileDrawn,
    TilePlaced,
)
from domain.crazymino.tables import BOARD, MULTIPLIERS, START_CELLS


class TileFace(Struct, frozen=True):
    """A tile in a hand: its colour and its corners unrotated (NW, NE, SE, SW)."""

    tile: int
    colour: str
    corners: tuple[int, int, int, int]


class Multiplier(Struct, frozen=True):
    row: int
    col: int
    times: int


class SeatView(Struct, frozen=True):
    """One seat: `hand` is None where the viewer may not see it."""

    seat: int
    name: str
    score: int
    hand_size: int
    hand: tuple[TileFace, ...] | None


class CrazyminoView(Struct, frozen=True):
    """Enough to draw the game and to play it: board map, placed tiles, hands as visible."""

    viewer: int | None
    board: tuple[str, ...]
    multipliers: tuple[Multiplier, ...]
    seats: tuple[SeatView, ...]
    order: tuple[int, ...]
    to_play: int | None
    pile_size: int
    placements: tuple[Placement, ...]
    ended: GameEnded | None
    start_cells: tuple[tuple[int, int], ...] = ()  # (row, col) of the four start cells


_START_CELLS = tuple(sorted(START_CELLS.values()))
_MULTIPLIERS = tuple(Multiplier(r, c, x) for (r, c), x in sorted(MULTIPLIERS.items()))


def face(tile: int) -> TileFace:
    return TileFace(tile, TILE_COLOUR[tile], TILE_CORNERS[tile])


def view(state: State, viewer: int | None, *, everything: bool = False) -> CrazyminoView:
    """The state as `viewer` (a seat, or None for a spectator) may see it; with `everything`,
    every hand (a finished game's replay)."""
    over = everything or state.ended is not None
    seats = tuple(
        SeatView(
            seat=seat,
            name=name,
            score=state.scores[seat],
            hand_size=len(state.hands[seat]),
            hand=tuple(face(t) for t in state.hands[seat]) if over or seat == viewer else None,
        )
        for seat, name in enumerate(state.players)
    )
    return CrazyminoView(
        viewer=viewer,
        board=BOARD,
        multipliers=_MULTIPLIERS,
        seats=seats,
        order=state.order,
        to_play=state.seat_to_play,
        pile_size=len(state.pile),
        placements=state.placements,
        ended=state.ended,
        start_cells=_START_CELLS,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """An event as `viewer` may see it while the game runs."""
    if type(event) is TilePlaced:  # the most common event, shown as it is, asked first
        return event
    if isinstance(event, GameStarted):
        return replace(
            event,
            hands=tuple(h if seat == viewer else None for seat, h in enumerate(event.hands)),
            pile=None,
            seed=None,
        )
    if isinstance(event, TileDrawn) and event.seat != viewer:
        return replace(event, tile=None)
    return event
