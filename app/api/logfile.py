"""A game's log as a file: export a finished game, import one by checking that it replays.

The format is ``boardgames-log/2``: the game, its setup (seed included), its seats, every
event as a record ``{at, by, event}`` (server time in ms, the seat that caused it or null for
the system), and for a seed the service drew the commitment published at the start and its
salt (`app.commands.commitment`), which a log must open to be read. Logs of format
``boardgames-log/1`` (from before events carried their time) are refused: their times are
unknown, and a game judged against the clock cannot be checked without them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from app.api.http import decode_body
from app.api.input_errors import InvalidLog
from app.api.projection import LOG_FORMAT, api_types
from app.commands.catalogue import Catalogue
from app.commands.commitment import opened
from app.commands.errors import GameRunning, UnknownGameType, Unprocessable
from app.commands.meta import GameMeta
from app.commands.table import Entry, Table
from app.store.events import StoredEvent
from domain.game import AnyGame
from domain.verify import LogError, verified


class UnsupportedLogFormat(Unprocessable):
    """A game log in a format this server does not read."""

    code = "unsupported_log_format"


class LogDoesNotReplay(Unprocessable):
    """A game log whose events do not follow from its setup and the rules."""

    code = LogError.code


class _Head(msgspec.Struct):
    format: str = ""
    game: str = ""


def export(table: Table, meta: GameMeta, events: list[Entry]) -> Any:
    """The log of a finished game (a running game's log still holds hidden information)."""
    if not table.over:
        raise GameRunning(
            "A game can be exported once it is over: until then its log holds hidden information."
        )
    types = api_types(table.game)
    records = [types.record(e.at, e.by, e.event) for e in events]
    seats = [s.public() for s in table.seats]
    deal = table.deal
    if deal is None:
        return types.log(LOG_FORMAT, meta.setup, seats, records)
    return types.log(LOG_FORMAT, meta.setup, seats, records, deal.commitment, deal.salt)


def read(catalogue: Catalogue, data: bytes) -> tuple[Any, AnyGame, list[StoredEvent], Any]:
    """A log file checked event by event: (log, game, its events as stored, final state). A
    log that names no rules version and checks only as an older one is stored naming it."""
    log, game = decoded(catalogue, data)
    state, records = checked(game, log)
    return log, game, stored(records), state


def decoded(catalogue: Catalogue, data: bytes) -> tuple[Any, AnyGame]:
    """A log file read, its commitment (if any) opened, not yet checked against the rules:
    (log, game)."""
    try:
        head = msgspec.json.decode(data, type=_Head)
    except msgspec.DecodeError as error:
        raise InvalidLog(f"This is not a game log: {error}.") from error
    if not head.format.startswith("boardgames-log/"):
        raise InvalidLog("This is not a game log: it names no log format.")
    if head.format != LOG_FORMAT:
        raise UnsupportedLogFormat(
            f"This log is in format {head.format!r}; this server reads {LOG_FORMAT!r}"
            " (logs of boardgames-log/1 carry no times and cannot be checked).",
        )
    kind = catalogue.kind(head.game)
    if kind is None:
        raise UnknownGameType(f"There is no game called {head.game!r}.")
    game = kind.game
    log = decode_body(data, api_types(game).log, InvalidLog)
    if len(log.seats) != len(log.setup.players):
        raise LogDoesNotReplay("The log's seats and players differ.")
    opened(log.setup.seed, log.commitment, log.salt)
    return log, game


def checked(game: AnyGame, log: Any) -> tuple[Any, Sequence[Any]]:
    """The state a decoded log reaches and its records as read (`domain.verify.verified`), if
    every event follows from the rules; else `LogDoesNotReplay` (the CPU-bound part of an
    import: `app.api.importing` runs it apart)."""
    try:
        return verified(game, log.setup, log.events)
    except LogError as error:
        raise LogDoesNotReplay(error.message) from error


def stored(records: Sequence[Any]) -> list[StoredEvent]:
    """A decoded log's records as the store keeps them."""
    return [
        StoredEvent(n, msgspec.json.encode(r.event), r.at, r.by)
        for n, r in enumerate(records, start=1)
    ]
