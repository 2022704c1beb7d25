"""What every route shares: who is asking, how a refusal looks, how a command is decoded."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from app.catalogue import Kind
from app.errors import (
    Busy,
    GameRunning,
    InvalidInput,
    ServiceError,
    StaleVersion,
    Unauthorized,
    UnknownGame,
    Unprocessable,
)
from app.seats import seat_of
from app.service import GameService, Table
from domain.errors import RuleError, TurnError

log = logging.getLogger(__name__)

_HTTP_CODES = {
    400: "bad_request",
    401: "unauthorized",
    404: "not_found",
    405: "method_not_allowed",
    413: "body_too_large",
}
_HTTP_MESSAGES = {
    404: "There is nothing at this address.",
    405: "This address does not take that method.",
    413: "The request body is larger than 64 KiB.",
}


#: The HTTP status of each kind of refusal (the service's errors carry none).
STATUS: dict[type[Exception], int] = {
    InvalidInput: 400,
    Unauthorized: 401,
    UnknownGame: 404,
    StaleVersion: 409,
    Busy: 409,
    GameRunning: 409,
    TurnError: 409,
    Unprocessable: 422,
    RuleError: 422,
}


def status_of(error: Exception) -> int:
    """The status of a refusal: that of the nearest kind it is."""
    for kind in type(error).__mro__:
        if kind in STATUS:
            return STATUS[kind]
    return 400


class Refusal(msgspec.Struct, frozen=True):
    """Every 4xx answer: a stable code and a sentence a player understands."""

    code: str
    message: str


def refusal(status: int, code: str, message: str) -> Response[Refusal]:
    return Response(Refusal(code, message), status_code=status)


def on_error(request: Request[Any, Any, Any], error: Exception) -> Response[Refusal]:
    """Map any exception to a refusal; an unexpected one is logged and answered 500."""
    if isinstance(error, ServiceError | RuleError):
        return refusal(status_of(error), error.code, error.message)
    if isinstance(error, HTTPException) and _malformed(error):
        return refusal(400, "malformed_json", "The body is not valid JSON.")
    if isinstance(error, ValidationException):
        return refusal(400, "invalid_request", _validation_message(error))
    if isinstance(error, HTTPException):
        status = error.status_code
        message = _HTTP_MESSAGES.get(status, str(error.detail))
        return refusal(status, _HTTP_CODES.get(status, "http_error"), message)
    log.exception("unexpected error on %s %s", request.method, request.url.path)
    return refusal(500, "internal_error", "Something went wrong on our side.")


def _malformed(error: HTTPException) -> bool:
    """A body that is no JSON at all (empty, cut short, or not JSON), as Litestar reports it."""
    if isinstance(error, ValidationException):
        extra = error.extra if isinstance(error.extra, list) else []
        return extra == [{"message": "'data'", "key": "data", "source": "body"}]
    detail = str(error.detail)
    return error.status_code == 400 and detail.startswith(("JSON is malformed", "Input data was"))


def _validation_message(error: ValidationException) -> str:
    """Litestar's validation details as one sentence: what is wrong, and where."""
    problems = []
    for item in error.extra if isinstance(error.extra, list) else []:
        if not isinstance(item, dict):
            continue
        key, message = item.get("key"), str(item.get("message", ""))
        if key and key != "data":
            problems.append(f"{message} (at {key})")
        else:
            problems.append(message)
    return "; ".join(problems) + "." if problems else "The request is not valid."


def bearer(request: Request[Any, Any, Any]) -> str | None:
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise Unauthorized("Send your seat's token as 'Authorization: Bearer <token>'.")
    return token.strip()


def viewer(request: Request[Any, Any, Any], table: Table, *, required: bool = False) -> int | None:
    """The caller's seat from its token; None for a spectator (no token)."""
    token = bearer(request)
    if token is None:
        if required:
            raise Unauthorized("Send your seat's token as 'Authorization: Bearer <token>'.")
        return None
    seat = seat_of(table.seats, token)
    if seat is None:
        raise Unauthorized("That token belongs to no seat of this game.")
    return seat


def idempotency_key(request: Request[Any, Any, Any]) -> str | None:
    """The optional `Idempotency-Key` header: 1 to 128 letters, digits, '-', '_', '.' or ':'."""
    key = request.headers.get("idempotency-key")
    if key is None:
        return None
    if not 0 < len(key) <= 128 or not all(
        c.isascii() and (c.isalnum() or c in "-_.:") for c in key
    ):
        raise InvalidInput(
            "An Idempotency-Key is 1 to 128 letters, digits, '-', '_', '.' or ':'.",
            code="bad_idempotency_key",
        )
    return key


def service_of(request: Request[Any, Any, Any]) -> GameService:
    service: GameService = request.app.state.service
    return service


def decode_command(kind: Kind, body: bytes) -> tuple[Any, int | None]:
    """A command of the game from a JSON body, and its optional `expected_version`."""
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        raise InvalidInput("The body is not valid JSON.", code="malformed_json") from error
    if not isinstance(raw, dict):
        raise InvalidInput("A command is a JSON object with a 'type'.")
    expected = raw.pop("expected_version", None)
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise InvalidInput("'expected_version' must be a whole number.")
    tag = raw.get("type")
    if tag is None:
        raise InvalidInput("A command needs a 'type'.", code="missing_type")
    if tag not in kind.tags:
        raise InvalidInput(
            f"{kind.game.title} has no command {tag!r} (it has: {', '.join(kind.tags)}).",
            code="unknown_command",
        )
    try:
        return msgspec.convert(raw, type=kind.game.command_type), expected
    except msgspec.ValidationError as error:
        raise InvalidInput(f"The command is not valid: {error}.") from error


