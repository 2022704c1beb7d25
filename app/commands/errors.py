"""Refusals the service gives, named by what went wrong; the HTTP layer picks their status.

Each carries a stable code (its class's: one code, one kind, so one status) and a sentence a
player understands. Nothing was written when one is raised. The rules' own refusals
(`domain.errors.RuleError`) pass through unchanged.
"""

from __future__ import annotations


class ServiceError(Exception):
    """A refusal with a stable code and a readable message; nothing was written."""

    code = "bad_request"

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class InvalidInput(ServiceError):
    """The request cannot be read: not JSON, not a command, a bad header or parameter."""

    code = "invalid_command"


class Unauthorized(ServiceError):
    """No token where one is needed, or a token of no seat of this game."""

    code = "unauthorized"


class Forbidden(ServiceError):
    """The caller is known, but what is asked is not theirs to do (another's seat or table)."""

    code = "forbidden"


class Conflict(ServiceError):
    """What is asked clashes with how things are now (a name taken, a seat taken)."""

    code = "conflict"


class NotFound(ServiceError):
    """There is nothing of that name or id (an account, a table, a token)."""

    code = "not_found"


class UnknownGame(ServiceError):
    """There is no game with that id."""

    code = "unknown_game"


class StaleVersion(ServiceError):
    """The command was made for a version the game has moved past."""

    code = "stale_version"


class Busy(ServiceError):
    """Too many concurrent writes to one game; sending again will do."""

    code = "busy"


class GameRunning(ServiceError):
    """What is asked for needs the game to be over (an export)."""

    code = "game_running"


class Unprocessable(ServiceError):
    """Well-formed, but not something the service can do (an unknown level, a bad log)."""

    code = "unprocessable"


class UnknownGameType(Unprocessable):
    """A game to create, host or import that this service does not host."""

    code = "unknown_game_type"


class UnknownLevel(Unprocessable):
    """An AI level the game does not have."""

    code = "unknown_level"


class UnknownPlayer(Unprocessable):
    """A seat kept for a name that has no account."""

    code = "unknown_player"


class BadVersion(Unprocessable):
    """A version past the game's end, or before its start."""

    code = "bad_version"


class NotSeated(Forbidden):
    """A player, known, asks for a seat's part at a game where they have no seat."""

    code = "not_seated"


class RateLimited(ServiceError):
    """A client sent more than its share; it may try again after `retry_after` seconds."""

    code = "rate_limited"

    def __init__(self, message: str, *, retry_after: int = 1) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class TooManyOpenStreams(RateLimited):
    """A client address holds as many streams and sockets open in this process as it may."""

    code = "too_many_open_streams"


class TooManyOpenGames(RateLimited):
    """A client address has as many running games as it may have created."""

    code = "too_many_open_games"


class StoreUnavailable(ServiceError):
    """Redis does not answer (restarting, down, or hung); nothing is known to be written."""

    code = "store_unavailable"


class StreamsFull(ServiceError):
    """This process streams to as many clients as it may (`STREAMS_MAX`); try again later."""

    code = "too_many_streams"

    def __init__(self, message: str, *, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after


class BusyHashing(ServiceError):
    """This process checks as many passwords as it may at once, and as many wait (`HASH_WORKERS`,
    `HASH_QUEUE`); try again after `retry_after` seconds."""

    code = "busy_hashing"

    def __init__(self, message: str, *, retry_after: int = 2) -> None:
        super().__init__(message)
        self.retry_after = retry_after
