"""Reading the state: where each tile is, what each board shows, each player's score now."""

from __future__ import annotations

from domain.mondo.board import border
from domain.mondo.faces import ORIENTED, TILE_COUNT, TileFaces, oriented, tile_faces
from domain.mondo.model import Board, Player, State
from domain.mondo.scoring import Score, Seat, leaders, round_scores
from domain.mondo.survey import Laid, Survey, survey


def laid(board: Board, faces: TileFaces = ORIENTED) -> Laid:
    """The faces on a board, as laid, of the tile set `faces`."""
    return [None if p is None else oriented(p.tile, p.face, p.rotation, faces) for p in board]


def board_survey(state: State, board: Board) -> Survey:
    return survey(laid(board, tile_faces(state.rules)), border(state.backside))


def holders(state: State) -> dict[int, int]:
    """The tiles out of the display: each held or placed one, with its player's seat."""
    out: dict[int, int] = {}
    for seat, player in enumerate(state.seats):
        if player.held is not None:
            out[player.held] = seat
        for placed in player.board:
            if placed is not None:
                out[placed.tile] = seat
    return out


def display(state: State) -> list[int]:
    """The tiles lying in the display, free to take."""
    gone = holders(state)
    return [tile for tile in range(TILE_COUNT) if tile not in gone]


def grace_open(player: Player, now: int) -> bool:
    """Whether the tile the player just placed may still be turned or lifted at `now`."""
    return player.grace is not None and now <= player.grace.until


def scores_now(state: State) -> tuple[Score, ...]:
    """Every player's score if the round ended now (the score helper), every line of it."""
    previous = previous_leaders(state)
    seats = [
        Seat(board_survey(state, p.board), p.chip or 0, p.tasks, seat in previous)
        for seat, p in enumerate(state.seats)
    ]
    return round_scores(seats, state.special)


def previous_leaders(state: State) -> frozenset[int]:
    """The seats with the highest score of the round before the current one (none in round 1):
    they count their inactive volcanoes too."""
    return leaders(state.results[state.round - 2]) if state.round >= 2 else frozenset()
