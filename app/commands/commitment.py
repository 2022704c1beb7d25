"""The commitment to a game's secret seed: published at its start, opened at its end.

The service draws a game's seed itself (unless its creator chose one: public from the start),
and every draw of the game comes from it. So that no player has to trust that the service did
not steer the deal while the game ran, it draws a salt with the seed and publishes to every
seat and watcher, from the first view on, the SHA-256 of the two: the *commitment*. Once the
game is over its views and its exported log reveal the seed and the salt; anyone can hash them
again and replay the log from that seed (`python -m app verify FILE`). The salt keeps the seed
from being found by hashing every possible seed.

What is hashed is the text ``<seed in decimal>:<salt in hex>`` in ASCII, so that a shell checks
it too: ``printf '%s:%s' SEED SALT | sha256sum``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from typing import Annotated, NamedTuple

import msgspec

from app.commands.errors import Unprocessable

#: A commitment as written: SHA-256 in lower-case hex.
Commitment = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{64}$")]
#: A salt as written: lower-case hex, 16 to 64 bytes.
Salt = Annotated[str, msgspec.Meta(pattern="^[0-9a-f]{32,128}$")]

SALT_BYTES = 16


def new_salt() -> str:
    """A fresh salt for a seed the service draws."""
    return secrets.token_bytes(SALT_BYTES).hex()


def commitment_of(seed: int, salt: str) -> str:
    """The SHA-256 (hex) of ``<seed>:<salt>``."""
    return hashlib.sha256(f"{seed}:{salt}".encode("ascii")).hexdigest()


class FairDeal(msgspec.Struct, frozen=True):
    """The commitment as every view shows it, and once the game is over the seed (as decimal
    text: a seed may be past what a JavaScript number holds exactly) and the salt that open it."""

    commitment: str
    seed: str | None = None
    salt: str | None = None


class Deal(NamedTuple):
    """A game's secret seed and its salt as the service holds them, with their commitment.
    Its text shows the commitment only, so that no log line or message shows the secret."""

    seed: int
    salt: str
    commitment: str

    def __repr__(self) -> str:
        return f"Deal(commitment={self.commitment!r})"

    def shown(self, over: bool) -> FairDeal:
        """What a view shows of it: the commitment, and the seed and salt once `over`."""
        if not over:
            return FairDeal(self.commitment)
        return FairDeal(self.commitment, str(self.seed), self.salt)


def dealt(seed: int, salt: str | None) -> Deal | None:
    """The deal of a game whose seed the service drew with `salt`; None without a salt (a seed
    its creator chose, a game from before commitments)."""
    return None if salt is None else Deal(seed, salt, commitment_of(seed, salt))


class CommitmentBroken(Unprocessable):
    """The seed and salt a log reveals do not hash to the commitment it published."""

    code = "commitment_broken"


def opened(seed: int, commitment: str | None, salt: str | None) -> bool:
    """Whether a log's `seed` and `salt` open its `commitment` (True), or it has none (False);
    `CommitmentBroken` when it has one that they do not open."""
    if commitment is None and salt is None:
        return False
    if commitment is None or salt is None:
        missing = "salt" if salt is None else "commitment"
        raise CommitmentBroken(f"The log's commitment comes without its {missing}.")
    if not hmac.compare_digest(commitment_of(seed, salt), commitment):
        raise CommitmentBroken(
            "The seed and salt revealed at the end do not hash to the commitment published at"
            " the start: this is not the seed the game was dealt from."
        )
    return True
