"""Seats of a table: who sits there (a person or an AI), and the secret tokens of people."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata
from typing import Literal

import msgspec

from app.commands.errors import InvalidInput

TOKEN_BYTES = 24  # 192 bits
#: What a player's personal token starts with (`app.people.tokens`). A seat's token never does,
#: or the service would take it for a personal token and refuse it as unknown.
PERSONAL_PREFIX = "bgp_"


class InvalidName(InvalidInput):
    """A player's name with characters it may not hold, or too long."""

    code = "bad_name"


class SeatRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """A seat as asked for when creating a game."""

    type: Literal["human", "ai"]
    name: str | None = None
    level: str | None = None


class Seat(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat as kept in the game's meta; `token_hash` never leaves the service. A seat of a
    player account (`player`: the account's name in lower case) is acted for by that player's
    session or personal token, and has no seat token."""

    seat: int
    type: Literal["human", "ai"]
    name: str
    level: str | None = None
    token_hash: str | None = None
    player: str | None = None

    def public(self) -> PublicSeat:
        return PublicSeat(self.seat, self.type, self.name, self.level, player=self.player)


class PublicSeat(msgspec.Struct, frozen=True, omit_defaults=True):
    seat: int
    type: Literal["human", "ai"]
    name: str
    level: str | None = None
    token: str | None = None
    player: str | None = None  # the account that sits there (its name in lower case)


def new_token() -> str:
    """A seat's secret token: 192 random bits, URL-safe, never a personal token's prefix (about
    one draw in 17 million starts with it, and is drawn again)."""
    while (token := secrets.token_urlsafe(TOKEN_BYTES)).startswith(PERSONAL_PREFIX):
        pass
    return token


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def seat_of(seats: list[Seat], token: str) -> int | None:
    """The seat whose token this is, compared in constant time; None if it is no seat's."""
    presented = token_hash(token)
    found = None
    for seat in seats:
        if seat.token_hash is not None and hmac.compare_digest(seat.token_hash, presented):
            found = seat.seat
    return found


def seat_of_player(seats: list[Seat], player: str) -> int | None:
    """The seat of the player account `player` (its key), if it sits at this game."""
    return next((s.seat for s in seats if s.player is not None and s.player == player), None)


seats_encoder = msgspec.json.Encoder()
seats_decoder = msgspec.json.Decoder(list[Seat])


#: The longest name a seat may have, in characters (after NFC normalisation).
NAME_LENGTH = 40
_REFUSED = {"Cc", "Cf", "Cs", "Zl", "Zp"}


def check_name(name: str) -> str:
    """`InvalidName` when a name holds a control, format (a bidi override, a zero-width
    character, a tag character: category Cf in every plane), line or paragraph separator or a
    lone surrogate, or has more than `NAME_LENGTH` characters; else the name."""
    bad = next((c for c in name if unicodedata.category(c) in _REFUSED), None)
    if bad is not None:
        raise InvalidName(
            f"A name may not hold the invisible or control character U+{ord(bad):04X}."
        )
    if len(name) > NAME_LENGTH:
        raise InvalidName(f"A name has at most {NAME_LENGTH} characters.")
    return name


def clean_name(name: str) -> str:
    """A player's name as asked for: checked, NFC-normalised and trimmed."""
    return unicodedata.normalize("NFC", check_name(name)).strip()
