"""The lobby's form offers exactly what creating a game accepts: each game's AI levels."""

from __future__ import annotations

import pytest

from app.api.lobby import game_type
from app.commands.catalogue import Catalogue

KINDS = list(Catalogue.with_extras())


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.game.name)
def test_the_takeover_level_choices_of_a_game_are_exactly_its_ai_levels(kind: object) -> None:
    described = game_type(kind.game)  # type: ignore[attr-defined]
    (option,) = [o for o in described.options if o.name == "takeover_level"]
    assert option.choices is not None
    assert sorted(option.choices) == described.levels
    assert option.default in described.levels
