"""Mondo's commands, events and state: frozen msgspec Structs with explicit tags.

Stored events never change shape: a new field gets a default, nothing is renamed. Times are the
server's, in milliseconds since the epoch, as stamped on the command that caused the event.
"""

from __future__ import annotations

import msgspec

from domain.game import CommandStruct, EventStruct
from domain.mondo.board import SPACES
from domain.mondo.faces import FaceName
from domain.mondo.scoring import Score
from domain.mondo.specials import Special
from domain.mondo.tasks import Task
from domain.versions import Versions

# -- commands (imperative) -------------------------------------------------------------------


class TakeTile(CommandStruct, frozen=True, tag="take_tile"):
    """Take a tile from the display into your hand."""

    tile: int


class ReturnTile(CommandStruct, frozen=True, tag="return_tile"):
    """Put the tile you hold back into the display."""

    tile: int


class PlaceTile(CommandStruct, frozen=True, tag="place_tile"):
    """Lay the tile you hold on a space of your board, showing `face`, turned clockwise by
    `rotation` degrees."""

    tile: int
    space: int
    face: FaceName
    rotation: int


class TurnPlaced(CommandStruct, frozen=True, tag="turn_placed"):
    """Within the grace, turn the tile you just placed to another rotation."""

    rotation: int


class LiftPlaced(CommandStruct, frozen=True, tag="lift_placed"):
    """Within the grace, lift the tile you just placed back into your hand."""


class TakeBonus(CommandStruct, frozen=True, tag="take_bonus"):
    """Take the top bonus chip: your round ends."""


class TakeTask(CommandStruct, frozen=True, tag="take_task"):
    """Expert game: take one of the round's tasks."""

    task: Task


class EndRound(CommandStruct, frozen=True, tag="end_round"):
    """The system's command when a round's clock runs out."""

    round: int


class StartRound(CommandStruct, frozen=True, tag="start_round"):
    """The system's command when the break before a round is over."""

    round: int


Command = (
    TakeTile
    | ReturnTile
    | PlaceTile
    | TurnPlaced
    | LiftPlaced
    | TakeBonus
    | TakeTask
    | EndRound
    | StartRound
)

# -- events (past tense) ---------------------------------------------------------------------


#: Mondo's rules versions: 1 played the first tile set (`first_tiles.py`); 2 today's tiles;
#: 3 adds the limit of `MOVES_PER_ROUND` a round. A log that names none is read as 2, or as 1
#: when it checks only so.
VERSIONS = Versions(current=3, unnamed=2, older=(1,))


class GameStarted(EventStruct, frozen=True, tag="game_started"):
    """The players and the rules of this game. `seed` (the display's faces of later rounds,
    the special scorings and tasks to come) is None for viewers while the game runs."""

    players: tuple[str, ...]
    seed: int | None
    round_ms: int
    break_ms: int
    advanced: bool
    expert: bool
    backside: bool
    rounds: int
    #: The version of the rules the game is played under (`VERSIONS`); None in older logs.
    rules: int | None = None


class RoundStarted(EventStruct, frozen=True, tag="round_started"):
    """Every tile lies in the display; `variable` lists those showing their variable face."""

    round: int
    deadline: int
    variable: tuple[int, ...]
    special: Special | None = None
    tasks: tuple[Task, ...] = ()


class TileTaken(EventStruct, frozen=True, tag="tile_taken"):
    seat: int
    tile: int


class TileReturned(EventStruct, frozen=True, tag="tile_returned"):
    seat: int
    tile: int


class TilePlaced(EventStruct, frozen=True, tag="tile_placed"):
    """A tile laid; its grace runs until `at` + 5 s or the player's next tile."""

    seat: int
    tile: int
    space: int
    face: FaceName
    rotation: int
    at: int


class PlacedTurned(EventStruct, frozen=True, tag="placed_turned"):
    seat: int
    tile: int
    rotation: int


class PlacedLifted(EventStruct, frozen=True, tag="placed_lifted"):
    seat: int
    tile: int


class BonusTaken(EventStruct, frozen=True, tag="bonus_taken"):
    """A player left the round with the top chip (`full_board`: automatically, the board being
    full), or with the lowest one on leaving the table (`lowest`). A tile in their hand went
    back to the display."""

    seat: int
    chip: int
    full_board: bool
    lowest: bool = False  # the lowest chip, taken on leaving the table


class TaskTaken(EventStruct, frozen=True, tag="task_taken"):
    seat: int
    task: Task


class RoundEnded(EventStruct, frozen=True, tag="round_ended"):
    """The round's end at `at`: by its clock (`timed_out`) or because every player left it.
    Every line of every player's score; tiles in hand went back."""

    round: int
    at: int
    timed_out: bool
    scores: tuple[Score, ...]


class GameEnded(EventStruct, frozen=True, tag="game_ended"):
    totals: tuple[int, ...]
    abandoned: bool = False  # nobody played for a long time: the totals as they stood


Event = (
    GameStarted
    | RoundStarted
    | TileTaken
    | TileReturned
    | TilePlaced
    | PlacedTurned
    | PlacedLifted
    | BonusTaken
    | TaskTaken
    | RoundEnded
    | GameEnded
)

# -- state -----------------------------------------------------------------------------------


class Placement(msgspec.Struct, frozen=True):
    """A tile on a space: which face shows, turned by how much."""

    tile: int
    face: FaceName
    rotation: int


class Grace(msgspec.Struct, frozen=True):
    """The tile just placed, which may still be turned or lifted until `until` (server ms)."""

    tile: int
    space: int
    until: int


Board = tuple[Placement | None, ...]
EMPTY_BOARD: Board = (None,) * SPACES


class Player(msgspec.Struct, frozen=True):
    """One player's part of the round."""

    board: Board = EMPTY_BOARD
    held: int | None = None
    grace: Grace | None = None
    chip: int | None = None  # the bonus chip taken: the player has left the round
    tasks: tuple[Task, ...] = ()
    moves: int = 0  # commands this round: what names the seat's next decision

    @property
    def left(self) -> bool:
        return self.chip is not None

    @property
    def placed(self) -> int:
        return sum(1 for p in self.board if p is not None)


class State(msgspec.Struct, frozen=True):
    """Everything about one game. Only `evolve` makes new ones."""

    players: tuple[str, ...] = ()
    seed: int = 0
    round_ms: int = 0
    break_ms: int = 0
    advanced: bool = False
    expert: bool = False
    backside: bool = False
    rounds: int = 0
    round: int = 0
    running: bool = False
    deadline: int = 0
    ended_at: int = 0
    variable: frozenset[int] = frozenset()  # display tiles showing their variable face
    special: Special | None = None
    specials: tuple[Special, ...] = ()  # every round's so far
    tasks: tuple[Task, ...] = ()
    chips: tuple[int, ...] = ()  # left, top first
    seats: tuple[Player, ...] = ()
    results: tuple[tuple[Score, ...], ...] = ()  # every finished round
    over: bool = False
    rules: int = VERSIONS.unnamed  # the version of the rules the game is played under

    @property
    def totals(self) -> tuple[int, ...]:
        return tuple(
            sum(scores[seat].total for scores in self.results) for seat in range(len(self.players))
        )
