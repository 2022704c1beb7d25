"""Bazaar's rule errors, each with a stable code. Not your turn and game over are the common
`domain.errors.TurnError` and `GameOverError`."""

from __future__ import annotations

from domain.errors import RuleError


class ColourPending(RuleError):
    """A joker was drawn: its colour must be chosen before anything else."""

    code = "colour_pending"


class NoJoker(RuleError):
    """A colour chosen without a joker to choose it for."""

    code = "no_joker"


class NoSuchColour(RuleError):
    """A colour that is not one of the five."""

    code = "no_such_colour"


class AlreadyDrewOrTraded(RuleError):
    """A second draw or trade in one turn."""

    code = "already_drew_or_traded"


class BuyBeforeDrawOrTrade(RuleError):
    """A purchase before the turn's draw or trade."""

    code = "buy_before_draw_or_trade"


class EndBeforeDrawOrTrade(RuleError):
    """Ending the turn before its draw or trade."""

    code = "end_before_draw_or_trade"


class NoSuchEquation(RuleError):
    """An equation number outside the table (0-9), or a direction that is not one of the two."""

    code = "no_such_equation"


class NoSuchStall(RuleError):
    """A stall number other than 0-3."""

    code = "no_such_stall"


class StallEmpty(RuleError):
    """A purchase from a stall that has no ware left."""

    code = "stall_empty"


class StonesMissing(RuleError):
    """The carpet lacks stones that a trade pays or that a ware costs."""

    code = "stones_missing"
