"""Accounts: a unique name and a password hashed with argon2id (argon2-cffi).

`player:{KEY}` (a hash, KEY the name in lower case) holds the name as it was chosen, the
password's hash and when the account was made. The hash is computed off the event loop, in a
bounded pool of its own (`app.people.hashing`): it takes 64 MiB and tens of milliseconds on
purpose. A password longer than PASSWORD_MAX is refused wherever it is given, never cut.
"""

from __future__ import annotations

import time

import argon2
import msgspec
from redis.asyncio import Redis

from app.commands.errors import Conflict, InvalidInput, Unauthorized, Unprocessable
from app.people.hashing import HashPool
from app.people.names import checked, key_of, player_key

PASSWORD_MIN = 8
PASSWORD_MAX = 256

# KEYS: the player's hash. ARGV: name, hash, created. Replies 1 when made, 0 when taken.
_SIGN_UP = """
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
redis.call('HSET', KEYS[1], 'name', ARGV[1], 'hash', ARGV[2], 'created', ARGV[3])
return 1
"""


class NameTaken(Conflict):
    code = "name_taken"


class BadPassword(InvalidInput):
    """A password too short or too long (the schema says so too)."""

    code = "bad_password"


class PasswordTooLong(Unprocessable):
    """A password over PASSWORD_MAX characters: refused, never cut to fit."""

    code = "password_too_long"


class PasswordIsName(Unprocessable):
    """A password the schema lets through that is still refused: the name itself."""

    code = "password_is_name"


class WrongLogin(Unauthorized):
    """The name and password match no account (which of the two is wrong is not said)."""

    code = "wrong_login"


class WrongPassword(Unauthorized):
    """The current password given to change it is not the player's."""

    code = "wrong_password"


class Player(msgspec.Struct, frozen=True):
    """Who an account is: its key (the name in lower case) and its name as chosen."""

    key: str
    name: str


def not_too_long(password: str) -> str:
    """The password, if it has at most PASSWORD_MAX characters; else `PasswordTooLong`."""
    if isinstance(password, str) and len(password) > PASSWORD_MAX:
        raise PasswordTooLong(
            f"A password has at most {PASSWORD_MAX} characters; this one has {len(password)}."
        )
    return password


def checked_password(password: str, name: str) -> str:
    not_too_long(password)
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise BadPassword(f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters.")
    if key_of(password) == key_of(name):
        raise PasswordIsName("A password may not be the name itself.")
    return password


class Accounts:
    def __init__(
        self,
        redis: Redis,
        hasher: argon2.PasswordHasher | None = None,
        pool: HashPool | None = None,
    ) -> None:
        self._redis = redis
        self._hasher = hasher or argon2.PasswordHasher()  # argon2id, RFC 9106's low-memory profile
        self._pool = pool or HashPool()
        self._sign_up = redis.register_script(_SIGN_UP)
        # Verifying a name that has no account costs as much as one that has (no timing tell).
        self._dummy = self._hasher.hash("not a password of anyone")

    async def sign_up(self, name: str, password: str) -> Player:
        checked(name)
        checked_password(password, name)
        hashed = await self._pool.run(self._hasher.hash, password)
        made = await self._sign_up(
            keys=[player_key(name)], args=[name, hashed, int(time.time() * 1000)]
        )
        if not int(made):
            raise NameTaken("That name is taken: choose another.")
        return Player(key_of(name), name)

    async def find(self, name: str) -> Player | None:
        """The account of this name (in any case), or None."""
        if not isinstance(name, str) or len(name) > 20:
            return None
        found = await self._redis.hget(player_key(name), "name")  # type: ignore[misc]
        return None if found is None else Player(key_of(name), found.decode())

    async def log_in(self, name: str, password: str) -> Player:
        """The player whose name and password these are; `WrongLogin` for any mismatch."""
        not_too_long(password)
        stored = None
        if isinstance(name, str) and 0 < len(name) <= 20:
            stored = await self._redis.hmget(player_key(name), ["name", "hash"])  # type: ignore[misc]
        shown, hashed = stored if stored else (None, None)
        target = hashed.decode() if hashed is not None else self._dummy
        try:
            await self._pool.run(self._hasher.verify, target, password)
        except (argon2.exceptions.VerificationError, argon2.exceptions.InvalidHashError):
            raise WrongLogin("That name and password do not match an account.") from None
        if shown is None or hashed is None:
            raise WrongLogin("That name and password do not match an account.")
        if self._hasher.check_needs_rehash(target):
            await self._set_hash(name, password)
        return Player(key_of(name), shown.decode())

    async def change_password(self, player: Player, current: str, new: str) -> None:
        """Set `new` as the player's password; `WrongPassword` if `current` is not theirs."""
        checked_password(new, player.name)
        not_too_long(current)
        try:
            await self.log_in(player.name, current)
        except WrongLogin:
            raise WrongPassword("Your current password is not right.") from None
        await self._set_hash(player.name, new)

    async def _set_hash(self, name: str, password: str) -> None:
        hashed = await self._pool.run(self._hasher.hash, password)
        await self._redis.hset(player_key(name), "hash", hashed)  # type: ignore[misc]
