"""Mondo's rule errors, each with a stable code."""

from __future__ import annotations

from domain.errors import RuleError


class RoundOver(RuleError):
    """A seat's command stamped after the round's deadline, or between rounds."""

    code = "round_over"


class RoundRunning(RuleError):
    """The clock's end of a round (or start of the next) sent before it is due."""

    code = "round_running"


class LeftRound(RuleError):
    """A command of a player who has taken a bonus chip and so left the round."""

    code = "left_round"


class NoSuchTile(RuleError):
    """A tile number that is not one of the 136."""

    code = "no_such_tile"


class TileHeld(RuleError):
    """Taking a tile that another player holds."""

    code = "tile_held"


class TileOnBoard(RuleError):
    """Taking a tile that lies on a world board."""

    code = "tile_on_board"


class AlreadyHolding(RuleError):
    """Taking a tile while holding one."""

    code = "already_holding"


class NotHolding(RuleError):
    """Placing or returning a tile the player does not hold."""

    code = "not_holding"


class OffBoard(RuleError):
    """A space that is not one of the board's 24."""

    code = "off_board"


class BadRotation(RuleError):
    """A rotation other than 0, 90, 180 or 270, or the one a placed tile already has."""

    code = "bad_rotation"


class SpaceTaken(RuleError):
    """Placing on a space that holds a tile."""

    code = "space_taken"


class NotAdjacent(RuleError):
    """Placing a tile that shares no edge with the tiles on the board."""

    code = "not_adjacent"


class GraceOver(RuleError):
    """Turning or lifting a placed tile after its grace (5 s, or another tile taken)."""

    code = "grace_over"


class NoSuchTask(RuleError):
    """A task that is not shown this round (or a game without tasks)."""

    code = "no_such_task"


class TaskNotFree(RuleError):
    """A task that a player has already taken this round."""

    code = "task_taken"


class TaskNotYet(RuleError):
    """Taking a task before three tiles are on one's board."""

    code = "task_not_yet"


class TwoTasks(RuleError):
    """Taking a third task in a round."""

    code = "two_tasks"


class TaskFulfilled(RuleError):
    """Taking a task one's board already fulfils."""

    code = "task_fulfilled"


class TooManyMoves(RuleError):
    """A take, put-back, turn or lift beyond the most moves a player makes in a round."""

    code = "too_many_moves"
