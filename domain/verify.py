"""Checking a game's log: does every event follow from its setup, its times and the rules?"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.errors import RuleError
from domain.game import AnyGame, Record, Setup


class LogError(ValueError):
    """A log that does not replay: `position` is the 1-based version of the first bad event."""

    code = "log_does_not_replay"

    def __init__(self, position: int, message: str) -> None:
        super().__init__(f"event {position}: {message}")
        self.position = position
        self.message = f"Event {position}: {message}"


def verify(game: AnyGame, setup: Setup, records: Sequence[Record[Any]]) -> Any:
    """The state the log reaches, if the setup's opening and every command's events are exactly
    what the rules produce at the times recorded, caused by the seats recorded; else `LogError`.
    """
    return verified(game, setup, records)[0]


def verified(
    game: AnyGame, setup: Setup, records: Sequence[Record[Any]]
) -> tuple[Any, Sequence[Record[Any]]]:
    """The state the log reaches and the log as read: as it is written, or else as the first
    of the game's other `readings` that checks (a log that names no rules version, read as an
    older one: then its `game_started` names it). `LogError` of the log as written otherwise."""
    try:
        return _checked(game, setup, records), records
    except LogError as written:
        for reading in game.readings(records):
            try:
                return _checked(game, setup, reading), reading
            except LogError:
                continue
        raise written


def _checked(game: AnyGame, setup: Setup, records: Sequence[Record[Any]]) -> Any:
    if not records:
        raise LogError(1, "the log has no event.")
    try:
        opening = game.start(setup, records[0].at)
        opening = game.edition(opening, [r.event for r in records[: len(opening)]])
    except RuleError as error:
        raise LogError(1, error.message) from error
    _same(records, 0, opening, None)
    state = game.fold(game.initial(), opening)
    at = len(opening)
    while at < len(records):
        record = records[at]
        behind = game.cause(record.event)
        if behind is None:
            raise LogError(at + 1, "this event answers no command.")
        seat, command = behind
        try:
            produced = game.decide(state, seat, command, record.at)
        except RuleError as error:
            raise LogError(at + 1, f"the rules refuse it: {error.message}") from error
        if not produced:
            raise LogError(at + 1, "its command changes nothing.")
        _same(records, at, produced, seat)
        state = game.fold(state, produced)
        at += len(produced)
    return state


def _same(records: Sequence[Record[Any]], at: int, produced: list[Any], by: int | None) -> None:
    """The records from `at` on are `produced`, all stamped alike and caused by `by`."""
    if len(records) < at + len(produced):
        raise LogError(at + 1, "the log ends in the middle of a command's events.")
    first = records[at]
    for offset, event in enumerate(produced):
        record = records[at + offset]
        if record.event != event:
            what = (
                "the opening does not follow from the setup and its seed"
                if at == 0
                else ("it is not what the rules make of its command")
            )
            raise LogError(at + offset + 1, f"{what}.")
        if record.by != by or record.at != first.at:
            raise LogError(at + offset + 1, "its time or its cause differs from its command's.")
