"""A game's log as a file: export a finished game, import one by checking that it replays."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from app.errors import BadCommand, Conflict, Unprocessable
from app.seats import PublicSeat
from app.service import Table
from domain.game import Game, Setup
from domain.registry import GAMES
from domain.verify import LogError, verify

FORMAT: Literal["boardgames-log/1"] = "boardgames-log/1"


class GameLog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """An exported game: what it is, how it was set up, who sat where, and every event."""

    format: Literal["boardgames-log/1"]
    game: str
    setup: Setup
    seats: list[PublicSeat]
    events: list[msgspec.Raw]


def export(table: Table, setup: Setup, events: list[tuple[int, Any]]) -> GameLog:
    """The log of a finished game (a running game's log still holds hidden tiles)."""
    if not table.over:
        raise Conflict(
            "A game can be exported once it is over: until then its log holds hidden tiles.",
            code="game_running",
        )
    raw = [msgspec.Raw(msgspec.json.encode(event)) for _, event in events]
    return GameLog(FORMAT, table.game.name, setup, [s.public() for s in table.seats], raw)


def read(data: bytes) -> tuple[GameLog, Game[Any, Any, Any, Any], list[Any], Any]:
    """A log file checked event by event: (log, game, events, final state)."""
    try:
        log = msgspec.json.decode(data, type=GameLog)
    except msgspec.DecodeError as error:
        raise BadCommand(f"This is not a game log: {error}.", code="invalid_log") from error
    game = GAMES.get(log.game)
    if game is None:
        raise Unprocessable(f"There is no game called {log.game!r}.", code="unknown_game_type")
    if len(log.seats) != len(log.setup.players):
        raise Unprocessable("The log's seats and players differ.", code="log_does_not_replay")
    try:
        events = [msgspec.json.decode(raw, type=game.event_type) for raw in log.events]
    except msgspec.DecodeError as error:
        raise BadCommand(
            f"An event of the log is not valid: {error}.", code="invalid_log"
        ) from error
    try:
        state = verify(game, log.setup, events)
    except LogError as error:
        raise Unprocessable(error.message, code=error.code) from error
    return log, game, events, state
