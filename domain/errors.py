"""Named rule errors. Every refusal of a command is one of these, with a stable code."""

from __future__ import annotations


class RuleError(ValueError):
    """A command that the rules do not allow; nothing happens."""

    code = "illegal_command"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class TurnError(RuleError):
    """A command sent by a seat that may not act now."""

    code = "not_your_turn"


class GameOverError(RuleError):
    """A command sent after the game has ended."""

    code = "game_over"


class SetupError(RuleError):
    """A game that cannot be created as asked (seat count, options)."""

    code = "bad_setup"


class OptionError(SetupError):
    """An option of the setup that the game does not have, or with a value it does not take.

    The code names the option (`bad_option.time`) when the game has it; `unknown_option` when
    it does not (its name came from the caller, so it stays out of the code)."""

    code = "bad_option"

    def __init__(self, option: str, message: str, *, known: bool = True) -> None:
        super().__init__(message)
        self.option = option
        self.code = f"bad_option.{option}" if known else "unknown_option"
