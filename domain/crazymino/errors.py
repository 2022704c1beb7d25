"""Crazymino's rule errors, each with a stable code."""

from __future__ import annotations

from domain.errors import RuleError


class OffBoard(RuleError):
    """The cell is not on the 14×14 board."""

    code = "off_board"


class BadRotation(RuleError):
    """A rotation other than 0, 90, 180 or 270."""

    code = "bad_rotation"


class CellOccupied(RuleError):
    """The cell already holds a tile."""

    code = "cell_occupied"


class EdgeMismatch(RuleError):
    """A shared edge whose numbers differ."""

    code = "edge_mismatch"


class DiagonalMismatch(RuleError):
    """A corner touching a diagonal tile with a different number."""

    code = "diagonal_mismatch"


class NotConnected(RuleError):
    """No shared edge and fewer than two touching corners."""

    code = "not_connected"


class NotYourTile(RuleError):
    """The tile is not in the player's hand."""

    code = "not_your_tile"


class PileEmpty(RuleError):
    """Drawing while the pile is empty."""

    code = "pile_empty"
