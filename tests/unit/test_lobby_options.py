"""`GET /api/games/types` says what each option is and which values it takes, so that a client
can build its form and its words from it: every option has a description, every whole-number
option its bounds (those an optional option has too), and the bounds are the ones the game
takes."""

from __future__ import annotations

import pytest

from app.api.lobby import game_type
from app.commands.catalogue import Catalogue
from domain.errors import OptionError
from domain.game import Setup

KINDS = list(Catalogue.with_extras())


@pytest.mark.parametrize("kind", KINDS, ids=lambda kind: kind.game.name)
def test_every_option_says_what_it_is_and_its_bounds_are_the_games(kind: object) -> None:
    game = kind.game  # type: ignore[attr-defined]
    players = tuple(f"P{n}" for n in range(game.min_seats))
    for option in game_type(game).options:
        assert option.description, f"{game.name}: {option.name} has no description"
        assert option.label and "_" not in option.label, f"{game.name}: {option.name}'s label"
        if option.type == "integer":
            assert option.unit, f"{game.name}: {option.name} has no unit"
        if option.type != "integer":
            continue
        assert option.minimum is not None and option.maximum is not None, option.name
        for value in (option.minimum, option.maximum):
            game.options(Setup(seed=1, players=players, options={option.name: int(value)}))
        for value in (option.minimum - 1, option.maximum + 1):
            with pytest.raises(OptionError) as refused:
                game.options(Setup(seed=1, players=players, options={option.name: int(value)}))
            # The refusal says what the form says, in the same words.
            bounds = f"between {int(option.minimum):,} and {int(option.maximum):,} {option.unit}"
            assert option.label in refused.value.message and bounds in refused.value.message
