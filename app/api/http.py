"""What every route shares: who is asking, and how a command is decoded."""

from __future__ import annotations

import functools
import re
from typing import Any

import msgspec
from litestar import Request
from litestar.connection import ASGIConnection

from app.api.callers import address_of, bearer_of, seat_of_token
from app.api.input_errors import (
    BadIdempotencyKey,
    InvalidRequest,
    MalformedJson,
    MissingType,
    NotInThisGame,
    UnknownCommand,
)
from app.api.wording import plainly
from app.base.config import Settings
from app.commands.catalogue import Kind
from app.commands.errors import InvalidInput
from app.commands.service import GameService
from app.commands.table import Table

_KEY = re.compile(r"[A-Za-z0-9_.:-]{1,128}")


def viewer(request: Request[Any, Any, Any], table: Table, *, required: bool = False) -> int | None:
    """The caller's seat: from its seat token, else the seat of its player (logged in, or by
    personal token: `app.api.identity`); None for a spectator."""
    token = bearer_of(request.headers.get("authorization"))
    player = request.state.get("player")
    return seat_of_token(table, token, required=required, player=player)


def idempotency_key(request: Request[Any, Any, Any]) -> str | None:
    """The optional `Idempotency-Key` header: 1 to 128 letters, digits, '-', '_', '.' or ':'."""
    key = request.headers.get("idempotency-key")
    return None if key is None else checked_key(key)


def checked_key(key: str) -> str:
    """An idempotency key, or `InvalidInput` when it is not 1 to 128 of `A-Za-z0-9-_.:`."""
    if _KEY.fullmatch(key) is None:
        raise BadIdempotencyKey(
            "An Idempotency-Key is 1 to 128 letters, digits, '-', '_', '.' or ':'.",
        )
    return key


def service_of(request: Request[Any, Any, Any]) -> GameService:
    service: GameService = request.app.state.service
    return service


def json_body(body: bytes, refusal: type[InvalidInput] = InvalidRequest) -> Any:
    """A JSON body as plain values (a number out of range: `refusal`). A number with no fraction
    is a whole number, as JSON Schema has it (`1.0` is the integer 1). Deep nesting is refused
    by the caller's error handler."""
    try:
        return integral(msgspec.json.decode(body))
    except msgspec.DecodeError as error:
        if "out of range" in str(error):
            raise refusal("A number in the body is out of range.") from error
        raise MalformedJson("The body is not valid JSON.") from error


def integral(value: Any) -> Any:
    """`value` with every float that has no fraction turned into an int."""
    if isinstance(value, float):
        return int(value) if value.is_integer() else value
    if isinstance(value, dict):
        return {k: integral(v) for k, v in value.items()}
    if isinstance(value, list):
        return [integral(v) for v in value]
    return value


def decode_body(body: bytes, kind: Any, refusal: type[InvalidInput] = InvalidRequest) -> Any:
    """A JSON body as the given type; `refusal` when it is not one."""
    raw = json_body(body, refusal)
    try:
        return msgspec.convert(raw, type=kind)
    except msgspec.ValidationError as error:
        raise refusal(plainly(error)) from error


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
    return command_of(kind, json_body(body, InvalidInput), others)


def command_of(kind: Kind, raw: Any, others: frozenset[str]) -> tuple[Any, int | None]:
    """`decode_command` of a body already decoded to plain values (it is changed in place).
    A command of another hosted game, by its type alone or by its fields (two games may each
    have a `place_tile`), is 422 `not_in_this_game`; anything that is no game's command, 400."""
    if not isinstance(raw, dict):
        raise InvalidInput("A command is a JSON object with a 'type'.")
    expected = raw.pop("expected_version", None)
    if expected is not None and (not isinstance(expected, int) or isinstance(expected, bool)):
        raise InvalidInput("'expected_version' must be a whole number.")
    tag = raw.get("type")
    if tag is None:
        raise MissingType("A command needs a 'type'.")
    if tag not in kind.tags:
        message = f"{kind.game.title} has no command {tag!r} (it has: {', '.join(kind.tags)})."
        if isinstance(tag, str) and tag in others:
            raise NotInThisGame(message)
        raise UnknownCommand(message)
    try:
        return msgspec.convert(raw, type=kind.game.command_type), expected
    except msgspec.ValidationError as error:
        other = kind.elsewhere(raw)
        if other is not None:  # well-formed (the schema has it), but another game's
            raise NotInThisGame(
                f"This {tag!r} is {other.title}'s, not {kind.game.title}'s: {error}.",
            ) from error
        raise InvalidInput(f"The command is not valid: {plainly(error)}") from error


def client_address(request: ASGIConnection[Any, Any, Any, Any]) -> str:
    """Who is asking, for the limits (`app.api.callers.address_of`)."""
    settings: Settings = request.app.state.settings
    peer = request.client.host if request.client else None
    return address_of(peer, request.headers.getall("x-forwarded-for", []), settings)
