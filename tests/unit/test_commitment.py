"""The commitment to a drawn seed (`app.commands.commitment`): what is hashed is what the docs
say a shell hashes; a view shows the commitment alone until the end; the service's own text of
a deal never shows the secret; the salt is kept in the game's meta (the service's creation of
games: `tests/e2e/test_fair_deal.py`)."""

from __future__ import annotations

import msgspec
import pytest

from app.commands.commitment import CommitmentBroken, commitment_of, dealt, new_salt, opened
from app.commands.meta import GameMeta, from_fields, to_fields
from app.commands.seats import Seat
from domain.game import Setup

SEED = 8_123_456_789_011_121_314
SALT = "00112233445566778899aabbccddeeff"
#: `printf '%s:%s' 8123456789011121314 00112233445566778899aabbccddeeff | sha256sum`
KNOWN = "8570295aa9e3f6105e9187c43c7b5d04b3b9c05db7cd5761036edb9e72be6722"


def test_the_commitment_is_the_sha256_of_seed_colon_salt_as_a_shell_makes_it() -> None:
    assert commitment_of(SEED, SALT) == KNOWN


def test_a_view_shows_the_commitment_alone_until_the_end_then_the_seed_and_salt() -> None:
    deal = dealt(SEED, SALT)
    assert deal is not None
    running = msgspec.json.encode(deal.shown(over=False)).decode()
    assert running == f'{{"commitment":"{KNOWN}","seed":null,"salt":null}}'
    over = msgspec.to_builtins(deal.shown(over=True))
    assert over == {"commitment": KNOWN, "seed": str(SEED), "salt": SALT}


def test_the_text_of_a_deal_never_shows_its_secret() -> None:
    deal = dealt(SEED, SALT)
    for text in (repr(deal), str(deal), f"{deal}", repr([deal])):
        assert str(SEED) not in text and SALT not in text and KNOWN in text


def test_no_salt_no_deal_and_each_salt_is_new() -> None:
    assert dealt(SEED, None) is None
    salts = {new_salt() for _ in range(100)}
    assert len(salts) == 100 and all(len(s) == 32 for s in salts)


def test_a_log_opens_its_commitment_or_says_why_not() -> None:
    assert opened(SEED, KNOWN, SALT) is True
    assert opened(SEED, None, None) is False
    for seed, commitment, salt in [
        (SEED + 1, KNOWN, SALT),
        (SEED, KNOWN, None),
        (SEED, None, SALT),
    ]:
        with pytest.raises(CommitmentBroken) as refused:
            opened(seed, commitment, salt)
        assert refused.value.code == "commitment_broken"


def test_the_salt_is_kept_in_the_meta_and_older_metas_have_none() -> None:
    setup = Setup(seed=SEED, players=("Ann",))
    meta = GameMeta("bazaar", "active", 1, setup, [Seat(0, "human", "Ann")], salt=SALT)
    fields = to_fields(meta)
    assert from_fields(fields) == meta
    del fields["salt"]
    older = from_fields(fields)
    assert older is not None and older.salt is None
