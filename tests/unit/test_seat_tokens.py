"""A seat's token is never taken for a player's personal token."""

from __future__ import annotations

import secrets

import pytest

from app.commands import seats
from app.people.tokens import PREFIX, is_personal


def test_a_seat_token_never_starts_as_a_personal_token(monkeypatch: pytest.MonkeyPatch) -> None:
    # About one random draw in 17 million starts with the personal prefix: force two of them.
    draws = iter([PREFIX + "a" * 28, PREFIX + "b" * 28, "c" * 32])
    monkeypatch.setattr(seats.secrets, "token_urlsafe", lambda n: next(draws))
    token = seats.new_token()
    assert token == "c" * 32
    assert not is_personal(token)


def test_a_seat_token_is_192_random_bits_url_safe() -> None:
    tokens = {seats.new_token() for _ in range(1000)}
    assert len(tokens) == 1000
    assert all(len(t) == len(secrets.token_urlsafe(seats.TOKEN_BYTES)) for t in tokens)
    assert all(not is_personal(t) for t in tokens)
