"""A player's name: 3 to 20 letters, digits, `_` and `-`, unique without regard to case."""

from __future__ import annotations

import re

from app.commands.errors import InvalidInput

NAME_PATTERN = r"^[A-Za-z0-9_-]{3,20}$"
_NAME = re.compile(NAME_PATTERN)


class BadAccountName(InvalidInput):
    code = "bad_account_name"


def checked(name: str) -> str:
    """The name as given, or `BadAccountName` when it is not 3 to 20 of `A-Za-z0-9_-`."""
    if not isinstance(name, str) or _NAME.fullmatch(name) is None:
        raise BadAccountName("A player's name is 3 to 20 letters, digits, '_' or '-'.")
    return name


def key_of(name: str) -> str:
    """The name as every key and comparison holds it: two names that differ only in case
    are one name."""
    return name.lower()


def player_key(name: str, suffix: str = "") -> str:
    """A Redis key of the player's (all of a player's keys share one cluster slot)."""
    return f"player:{{{key_of(name)}}}{suffix}"
