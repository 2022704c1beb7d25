"""Crazymino's commands, events and state: frozen msgspec Structs with explicit tags.

Stored events never change shape: a new field gets a default, nothing is renamed.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from domain.crazymino.geometry import CELLS, POINTS
from domain.game import CommandStruct, EventStruct
from domain.versions import Versions

# -- commands (imperative) -------------------------------------------------------------------


class PlaceTile(CommandStruct, frozen=True, tag="place_tile"):
    """Lay a tile of your hand, turned clockwise by `rotation` degrees, on cell (row, col)."""

    tile: int
    rotation: int
    row: int
    col: int


class DrawAndPass(CommandStruct, frozen=True, tag="draw_and_pass"):
    """Draw one tile from the pile and end your turn."""


Command = PlaceTile | DrawAndPass

# -- events (past tense) ---------------------------------------------------------------------


class Score(msgspec.Struct, frozen=True):
    """The whole breakdown of one placement's score."""

    sum: int
    colour_bonus: int
    active_corners: int
    bridged: bool
    corner_multiplier: int
    cell_multiplier: int
    total: int


#: Crazymino's rules versions: one so far (its board, tiles and scoring never changed).
VERSIONS = Versions(current=1, unnamed=1)


class GameStarted(EventStruct, frozen=True, tag="game_started"):
    """Seats shuffled, hands dealt, start tile laid, pile left. `None` marks what is hidden."""

    players: tuple[str, ...]
    order: tuple[int, ...]
    hands: tuple[tuple[int, ...] | None, ...]
    hand_sizes: tuple[int, ...]
    start_tile: int
    start_row: int
    start_col: int
    pile: tuple[int, ...] | None
    pile_size: int
    seed: int | None = None
    #: The version of the rules the game is played under (`VERSIONS`); None in older logs.
    rules: int | None = None


class TileDrawn(EventStruct, frozen=True, tag="tile_drawn"):
    """A seat took the top tile of the pile (`tile` is None for those who may not see it)."""

    seat: int
    tile: int | None
    automatic: bool


class TurnPassed(EventStruct, frozen=True, tag="turn_passed"):
    """A seat ended its turn after drawing."""

    seat: int


class TilePlaced(EventStruct, frozen=True, tag="tile_placed"):
    """A seat laid a tile; `corners` are as placed (NW, NE, SE, SW)."""

    seat: int
    tile: int
    row: int
    col: int
    rotation: int
    colour: str
    corners: tuple[int, int, int, int]
    score: Score


class TurnSkipped(EventStruct, frozen=True, tag="turn_skipped"):
    """A seat could not place a tile and the pile was empty."""

    seat: int


class Bonus(msgspec.Struct, frozen=True):
    """What one opponent's remaining hand gave the player who laid their last tile."""

    opponent: int
    points: int


class GameEnded(EventStruct, frozen=True, tag="game_ended"):
    """The end: a player laid their last tile (with its bonus), nobody could move, or nobody
    played for a long time."""

    reason: Literal["last_tile", "blocked", "abandoned"]
    seat: int | None = None
    bonus: tuple[Bonus, ...] = ()


Event = GameStarted | TileDrawn | TurnPassed | TilePlaced | TurnSkipped | GameEnded

# -- state -----------------------------------------------------------------------------------

EMPTY_CELLS: tuple[int, ...] = (-1,) * CELLS
EMPTY_POINTS: tuple[int, ...] = (0,) * (POINTS * POINTS)


class Placement(msgspec.Struct, frozen=True):
    """A tile on the board; the start tile has no seat and no score."""

    tile: int
    row: int
    col: int
    rotation: int
    colour: str
    corners: tuple[int, int, int, int]
    seat: int | None = None
    score: Score | None = None


class State(msgspec.Struct, frozen=True):
    """Everything about one game, hidden parts included. Only `evolve` makes new ones."""

    players: tuple[str, ...] = ()
    order: tuple[int, ...] = ()
    turn: int = 0
    hands: tuple[tuple[int, ...], ...] = ()
    pile: tuple[int, ...] = ()
    cells: tuple[int, ...] = EMPTY_CELLS
    points: tuple[int, ...] = EMPTY_POINTS
    placements: tuple[Placement, ...] = ()
    scores: tuple[int, ...] = ()
    seed: int | None = None
    ended: GameEnded | None = None

    @property
    def started(self) -> bool:
        return bool(self.players)

    @property
    def seat_to_play(self) -> int | None:
        return None if self.ended or not self.order else self.order[self.turn]
