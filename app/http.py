"""What every route shares: who is asking, and how a command is decoded."""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request

from app.catalogue import Kind
from app.config import Settings
from app.errors import InvalidInput, Unauthorized
from app.seats import seat_of
from app.service import GameService, Table


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


def client_address(request: Request[Any, Any, Any]) -> str:
    """Who is asking, for the limits: the peer's address, or the first address of
    X-Forwarded-For behind a trusted proxy (TRUST_PROXY)."""
    settings: Settings = request.app.state.settings
    if settings.trust_proxy:
        forwarded = request.headers.get("x-forwarded-for", "")
        first = forwarded.split(",")[0].strip()
        if first:
            return first[:64]
    return request.client.host if request.client else "unknown"
