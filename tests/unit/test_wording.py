"""A body that is not what a route takes is refused in words, from msgspec's own errors."""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
import pytest

from app.api.wording import plainly


class Seat(msgspec.Struct, forbid_unknown_fields=True):
    type: Literal["human", "ai"]
    name: Annotated[str, msgspec.Meta(max_length=3)] = ""


class Body(msgspec.Struct, forbid_unknown_fields=True):
    game: str
    seats: list[Seat]
    seed: Annotated[int, msgspec.Meta(ge=0)] | None = None


@pytest.mark.parametrize(
    ("raw", "said"),
    [
        ({"game": "x", "seats": [], "seed": -1}, "'seed' must be a whole number of at least 0."),
        (
            {"game": "x", "seats": [], "seed": "abc"},
            "'seed' must be a whole number or left out (null), not text.",
        ),
        ({"seats": []}, "The body needs 'game'."),
        ({"game": "x", "seats": [], "colour": 1}, "The body has no field 'colour'."),
        ({"game": "x", "seats": [{"type": "robot"}]}, "'seats[0].type' cannot be 'robot'."),
        (
            {"game": "x", "seats": [{"type": "ai", "name": "Anna"}]},
            "'seats[0].name' must have at most 3 characters.",
        ),
        ({"game": 7, "seats": []}, "'game' must be text, not a whole number."),
    ],
)
def test_a_validation_error_is_said_plainly(raw: object, said: str) -> None:
    with pytest.raises(msgspec.ValidationError) as error:
        msgspec.convert(raw, type=Body)
    assert plainly(error.value) == said


def test_what_it_cannot_read_it_keeps_without_backquotes() -> None:
    assert plainly("Expected `str` matching regex '^a$' - at `$.x`") == (
        "Expected str matching regex '^a$' - at $.x."
    )
