"""Checking a game's log: does every event follow from its setup and the rules?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import RuleError
from domain.game import Game, Setup


class LogError(ValueError):
    """A log that does not replay: `position` is the 1-based version of the first bad event."""

    code = "log_does_not_replay"

    def __init__(self, position: int, message: str) -> None:
        super().__init__(f"event {position}: {message}")
        self.position = position
        self.message = f"Event {position}: {message}"


def verify(game: Game[Any, Any, Any, Any], setup: Setup, events: Sequence[Any]) -> Any:
    """The state the log reaches, if the setup's opening and every command's events are exactly
    what the rules produce; else `LogError`."""
    try:
        opening = game.start(setup)
    except RuleError as error:
        raise LogError(1, error.message) from error
    if list(events[: len(opening)]) != opening:
        raise LogError(1, "the opening does not follow from the setup and its seed.")
    state = game.fold(game.initial(), opening)
    at = len(opening)
    while at < len(events):
        behind = game.cause(events[at])
        if behind is None:
            raise LogError(at + 1, "this event answers no command.")
        seat, command = behind
        try:
            produced = game.decide(state, seat, command)
        except RuleError as error:
            raise LogError(at + 1, f"the rules refuse it: {error.message}") from error
        if list(events[at : at + len(produced)]) != produced:
            raise LogError(at + 1, "it is not what the rules make of its command.")
        state = game.fold(state, produced)
        at += len(produced)
    return state
