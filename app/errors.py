"""Refusals the service gives: each has an HTTP status, a stable code and a readable message."""

from __future__ import annotations

from domain.errors import RuleError, TurnError


class ServiceError(Exception):
    """A refusal with its status and code; nothing was written."""

    status = 400
    code = "bad_request"

    def __init__(self, message: str, *, code: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        if code is not None:
            self.code = code


class BadCommand(ServiceError):
    status, code = 400, "invalid_command"


class Unauthorized(ServiceError):
    status, code = 401, "unauthorized"


class UnknownGame(ServiceError):
    status, code = 404, "unknown_game"


class Conflict(ServiceError):
    status, code = 409, "conflict"


class Unprocessable(ServiceError):
    status, code = 422, "unprocessable"


def from_rule(error: RuleError) -> ServiceError:
    """A domain rule error as a refusal: 409 for a seat that may not act now, else 422."""
    kind = Conflict if isinstance(error, TurnError) else Unprocessable
    return kind(error.message, code=error.code)
