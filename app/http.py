"""What every route shares: who is asking, and how a command is decoded."""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec
from litestar import Request
from litestar.connection import ASGIConnection

from app.catalogue import Kind
from app.config import Settings
from app.errors import InvalidInput, Unauthorized, Unprocessable
from app.seats import seat_of
from app.service import GameService, Table

#: `Authorization: Bearer <token>`, the scheme in any case (as the schema declares it).
BEARER = re.compile(r"[Bb][Ee][Aa][Rr][Ee][Rr] ([A-Za-z0-9_-]{1,64})")
_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def bearer(request: ASGIConnection[Any, Any, Any, Any]) -> str | None:
    """The seat token the request carries; None without an Authorization header."""
    return bearer_of(request.headers.get("authorization"))


def bearer_of(header: str | None) -> str | None:
    """The seat token of an Authorization header; None without one."""
    if header is None:
        return None
    found = BEARER.fullmatch(header)
    if found is None:
        raise Unauthorized("Send your seat's token as 'Authorization: Bearer <token>'.")
    return found.group(1)


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
    return None if key is None else checked_key(key)


def checked_key(key: str) -> str:
    """An idempotency key, or `InvalidInput` when it is not 1 to 128 of `A-Za-z0-9-_.:`."""
    if _KEY.fullmatch(key) is None:
        raise InvalidInput(
            "An Idempotency-Key is 1 to 128 letters, digits, '-', '_', '.' or ':'.",
            code="bad_idempotency_key",
        )
    return key


def service_of(request: Request[Any, Any, Any]) -> GameService:
    service: GameService = request.app.state.service
    return service


def json_body(body: bytes, code: str = "invalid_request") -> Any:
    """A JSON body as plain values. A number with no fraction is a whole number, as JSON Schema
    has it (`1.0` is the integer 1). Deep nesting is refused by the caller's error handler."""
    try:
        return integral(msgspec.json.decode(body))
    except msgspec.DecodeError as error:
        if "out of range" in str(error):
            raise InvalidInput("A number in the body is out of range.", code=code) from error
        raise InvalidInput("The body is not valid JSON.", code="malformed_json") from error


def integral(value: Any) -> Any:
    """`value` with every float that has no fraction turned into an int."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral(v) for v in value]
    return value


def decode_body(body: bytes, kind: Any, code: str = "invalid_request") -> Any:
    """A JSON body as the given type; `InvalidInput` with `code` when it is not one."""
    raw = json_body(body, code)
    try:
        return msgspec.convert(raw, type=kind)
    except msgspec.ValidationError as error:
        raise InvalidInput(f"{str(error).replace('`', '')}.", code=code) from error


@functools.cache
def typed_decoder(command_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder straight to the game's commands (no plain values in between)."""
    return msgspec.json.Decoder(command_type)


def decode_command(kind: Kind, body: bytes, others: frozenset[str]) -> tuple[Any, int | None]:
    """A command of the game from a JSON body, and its optional `expected_version`. A command
    of another hosted game (`others`: every game's command types) is well-formed but refused
    here (422); a type no game has is malformed (400).

    A body that is exactly one of the game's commands is decoded once, straight to it; any
    other body (an `expected_version`, `1.0` for an integer, anything refused) takes the path
    that names what is wrong."""
    if b"expected_version" not in body:
        try:
            return typed_decoder(kind.game.command_type).decode(body), None
        except msgspec.DecodeError:  # a ValidationError too: the careful path says why
            pass
    return command_of(kind, json_body(body, "invalid_command"), others)


def command_of(kind: Kind, raw: Any, others: frozenset[str]) -> tuple[Any, int | None]:
    """`decode_command` of a body already decoded to plain values (it is changed in place)."""
    if not isinstance(raw, dict):
        raise InvalidInput("A command is a JSON object with a 'type'.")
    expected = raw.pop("expected_version", None)
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise InvalidInput("'expected_version' must be a whole number.")
    tag = raw.get("type")
    if tag is None:
        raise InvalidInput("A command needs a 'type'.", code="missing_type")
    if tag not in kind.tags:
        message = f"{kind.game.title} has no command {tag!r} (it has: {', '.join(kind.tags)})."
        if isinstance(tag, str) and tag in others:
            raise Unprocessable(message, code="not_in_this_game")
        raise InvalidInput(message, code="unknown_command")
    try:
        return msgspec.convert(raw, type=kind.game.command_type), expected
    except msgspec.ValidationError as error:
        raise InvalidInput(f"The command is not valid: {error}.") from error


def client_address(request: ASGIConnection[Any, Any, Any, Any]) -> str:
    """Who is asking, for the limits: the peer's address, or the first address of
    X-Forwarded-For behind a trusted proxy (TRUST_PROXY)."""
    settings: Settings = request.app.state.settings
    if settings.trust_proxy:
        forwarded = request.headers.get("x-forwarded-for", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first[:64]
    return request.client.host if request.client else "unknown"
