"""Mondo boards and games for known-answer tests, built from the real tiles."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pytest
from msgspec.structs import replace

from domain.errors import RuleError
from domain.game import Setup
from domain.mondo.board import SPACES
from domain.mondo.faces import FaceName
from domain.mondo.game import MONDO
from domain.mondo.model import (
    EMPTY_BOARD,
    Board,
    Command,
    Placement,
    PlaceTile,
    State,
    TakeTile,
)
from domain.mondo.scoring import Seat
from domain.mondo.survey import Survey
from domain.mondo.table import board_survey
from domain.mondo.tasks import Task
from domain.mondo.tiles import TILES

T0 = 1_800_000_000_000  # ms: a server time in 2027

#: A space's tile as laid: (tile, face "plain" or "variable", rotation).
Laying = tuple[int, str, int]


def plain_tiles(landscape: str, exclude: Iterable[int] = ()) -> list[int]:
    """Tiles whose plain face is `landscape` ("w", "f", "d" or "s"), not in `exclude`."""
    skip = set(exclude)
    return [t for t, tile in enumerate(TILES) if tile[0] == landscape and t not in skip]


def board(laid: Mapping[int, Laying], fill: str | None = None) -> Board:
    """A board with `laid` on its spaces; with `fill`, every other space gets a plain tile of
    that landscape (tiles not used in `laid`)."""
    spaces: list[Placement | None] = list(EMPTY_BOARD)
    for space, (tile, face, rotation) in laid.items():
        spaces[space] = Placement(tile, _face(face), rotation)
    if fill is not None:
        spare = iter(plain_tiles(fill, exclude=[t for t, _, _ in laid.values()]))
        for space in range(SPACES):
            if spaces[space] is None:
                spaces[space] = Placement(next(spare), "plain", 0)
    return tuple(spaces)


def _face(name: str) -> FaceName:
    return "variable" if name == "variable" else "plain"


def emptied(laid: Board, *spaces: int) -> Board:
    """The board with these spaces empty."""
    return tuple(None if s in spaces else p for s, p in enumerate(laid))


def survey_of(laid: Board, backside: bool = False) -> Survey:
    return board_survey(State(backside=backside), laid)


def seat(
    laid: Board,
    chip: int = 0,
    *,
    backside: bool = False,
    tasks: tuple[Task, ...] = (),
    leader: bool = False,
) -> Seat:
    """One player's part of a round's scoring."""
    return Seat(survey_of(laid, backside), chip, tasks, leader)


def game(seats: int = 2, **options: object) -> State:
    """A new game's state (seed 7), its first round running from T0."""
    setup = Setup(seed=7, players=tuple(f"P{s}" for s in range(seats)), options=options)
    return MONDO.replay(MONDO.start(setup, T0))


def with_boards(state: State, boards: Mapping[int, Board]) -> State:
    """The state with these boards laid (for the seats given), nothing else changed."""
    players = [replace(p, board=boards[s]) if s in boards else p for s, p in enumerate(state.seats)]
    return replace(state, seats=tuple(players))


def run(state: State, seat: int | None, command: Command, at: int) -> State:
    """The state after a command (raising its rule error)."""
    return MONDO.fold(state, MONDO.decide(state, seat, command, at))


def placed(
    state: State, seat: int, tile: int, space: int, at: int, face: str = "plain", rotation: int = 0
) -> State:
    """The state after the seat took `tile` and laid it on `space`, both at `at`."""
    state = run(state, seat, TakeTile(tile), at)
    return run(state, seat, PlaceTile(tile, space, _face(face), rotation), at)


def refusal(state: State, seat: int | None, command: Command, at: int = T0 + 1) -> str:
    """The code of the rule error that refuses the command."""
    with pytest.raises(RuleError) as refused:
        MONDO.decide(state, seat, command, at)
    return refused.value.code
