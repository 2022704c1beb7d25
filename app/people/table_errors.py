"""The refusals of an open table, each named by what went wrong (the HTTP layer picks the
status from its kind: `app.api.refusals`)."""

from __future__ import annotations

from app.commands.errors import Conflict, Forbidden, NotFound, Unprocessable


class UnknownTable(NotFound):
    code = "unknown_table"
    said = "There is no open table with that id."


class TableStarted(Conflict):
    code = "table_started"
    said = "This table's game has started."


class TableClosed(Conflict):
    code = "table_closed"
    said = "This table has closed."


class AlreadySeated(Conflict):
    code = "already_seated"
    said = "You are at this table already."


class NoSuchSeat(Unprocessable):
    code = "no_such_seat"
    said = "This table has no seat of that number."


class SeatTaken(Conflict):
    code = "seat_taken"
    said = "That seat is not free."


class SeatReserved(Forbidden):
    code = "seat_reserved"
    said = "That seat is kept for another player."


class TableFull(Conflict):
    code = "table_full"
    said = "Every seat of this table is taken."


class NotAtTable(Conflict):
    code = "not_at_table"
    said = "You do not sit at this table."


class NotReserved(Conflict):
    code = "not_reserved"
    said = "No seat of this table waits for you."


class NotCreator(Forbidden):
    code = "not_creator"
    said = "Only the player who opened this table may start it."


class TooFewPlayers(Conflict):
    code = "too_few_players"
    said = "Too few players sit at this table for its game."


class RematchPlayed(Conflict):
    """The game's rematch was played (and its table has expired): a rematch of that game is
    what to ask for."""

    code = "rematch_played"


class NotFull(Exception):
    """Seats still wait: a table asked to start by itself when full is not (it goes on
    forming; no client is answered this)."""

    code = "not_full"
    said = "Seats of this table still wait for players."


_KINDS: dict[str, type[Exception]] = {
    kind.code: kind
    for kind in (
        UnknownTable,
        TableStarted,
        TableClosed,
        AlreadySeated,
        NoSuchSeat,
        SeatTaken,
        SeatReserved,
        TableFull,
        NotAtTable,
        NotReserved,
        NotCreator,
        TooFewPlayers,
        NotFull,
    )
}


def refused(code: str) -> Exception:
    """The refusal a table's script answered with `code`."""
    kind = _KINDS[code]
    return kind(getattr(kind, "said"))  # noqa: B009
