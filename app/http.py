"""What every route shares: who is asking, how a refusal looks, how a command is decoded."""

from __future__ import annotations

import logging
from typing import Any

import msgspec
from litestar import Request, Response
from litestar.exceptions import HTTPException, ValidationException

from app.errors import BadCommand, ServiceError, Unauthorized
from app.seats import seat_of
from app.service import GameService, Table

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


class Refusal(msgspec.Struct, frozen=True):
    """Every 4xx answer: a stable code and a sentence a player understands."""

    code: str
    message: str


def refusal(status: int, code: str, message: str) -> Response[Refusal]:
    return Response(Refusal(code, message), status_code=status)


def on_error(request: Request[Any, Any, Any], error: Exception) -> Response[Refusal]:
    """Map any exception to a refusal; an unexpected one is logged and answered 500."""
    if isinstance(error, ServiceError):
        return refusal(error.status, error.code, error.message)
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
        raise BadCommand(
            "An Idempotency-Key is 1 to 128 letters, digits, '-', '_', '.' or ':'.",
            code="bad_idempotency_key",
        )
    return key


def service_of(request: Request[Any, Any, Any]) -> GameService:
    service: GameService = request.app.state.service
    return service


def decode_command(table: Table, body: bytes) -> tuple[Any, int | None]:
    """A command from a JSON body, and its optional `expected_version`."""
    try:
        raw = msgspec.json.decode(body)
    except msgspec.DecodeError as error:
        raise BadCommand("The body is not valid JSON.", code="malformed_json") from error
    if not isinstance(raw, dict):
        raise BadCommand("A command is a JSON object with a 'type'.")
    expected = raw.pop("expected_version", None)
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise BadCommand("'expected_version' must be a whole number.")
    kind = raw.get("type")
    if kind is None:
        raise BadCommand("A command needs a 'type'.", code="missing_type")
    known = _command_tags(table)
    if kind not in known:
        raise BadCommand(
            f"{table.game.name} has no command {kind!r} (it has: {', '.join(known)}).",
            code="unknown_command",
        )
    try:
        return msgspec.convert(raw, type=table.game.command_type), expected
    except msgspec.ValidationError as error:
        raise BadCommand(f"The command is not valid: {error}.") from error


def _command_tags(table: Table) -> list[str]:
    members = getattr(table.game.command_type, "__args__", (table.game.command_type,))
    return [str(m.__struct_config__.tag) for m in members]
