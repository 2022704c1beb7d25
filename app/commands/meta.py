"""A game's metadata: one typed record, kept as a Redis hash beside the game's stream.

The hash's fields are this struct's fields, each JSON-encoded, so that the append script can
set `status` alone. Nothing outside this module spells a field name.
"""

from __future__ import annotations

from typing import Literal

import msgspec

from app.commands.seats import Seat
from domain.game import Setup

Status = Literal["active", "over"]


class GameMeta(msgspec.Struct, frozen=True):
    """What a game is, who sits where (token hashes included), how it was set up (its seed
    included: never sent while the game runs, nor the salt of its commitment), its status and
    when it was created (ms)."""

    game: str
    status: Status
    created: int
    setup: Setup
    seats: list[Seat]
    archived: bool = False  # its stream was replaced by a compressed archive (app.store.lifecycle)
    seeded: bool = False  # its creator chose the seed: everyone is told it, and it is casual
    rated: bool = False  # its table asked for a rated game (a rematch asks the same)
    salt: str | None = None  # of the commitment to the seed the service drew: commitment.py


_FIELDS = GameMeta.__struct_fields__
_REQUIRED = _FIELDS[: len(_FIELDS) - len(GameMeta.__struct_defaults__)]
_encoder = msgspec.json.Encoder()


def to_fields(meta: GameMeta) -> dict[str, str]:
    """The hash fields of a game's metadata."""
    return {name: _encoder.encode(getattr(meta, name)).decode() for name in _FIELDS}


def status_field(status: Status) -> dict[str, str]:
    """The one field an append sets when a game's status changes."""
    return {"status": _encoder.encode(status).decode()}


def from_fields(fields: dict[str, str]) -> GameMeta | None:
    """The metadata from its hash; None for a game that is unknown or only half made."""
    if not set(_REQUIRED) <= fields.keys():
        return None
    present = [n for n in _FIELDS if n in fields]
    raw = b"{" + b",".join(f'"{n}":{fields[n]}'.encode() for n in present) + b"}"
    try:
        return msgspec.json.decode(raw, type=GameMeta)
    except msgspec.DecodeError:
        return None
