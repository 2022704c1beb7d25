"""One check of a new game's setup and one casual rule, for every way a game is made: a
creation (`POST /api/games`), an open table (checked when it opens, again when its game is
made), a rematch.

The check answers the refusals of `docs/api.md`: 422 `unknown_game_type`, `unknown_level`,
`bad_setup` (the game's own sentence on its seat count), `bad_option.<name>`, `unknown_option`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import msgspec

from app.commands.catalogue import Catalogue, Kind
from app.commands.errors import UnknownGameType, UnknownLevel
from domain.game import AnyGame, Setup


def casual(seeded: bool, seat_types: Iterable[str]) -> bool:
    """Whether a game counts for nobody's rating: its creator chose the seed, or an AI sits
    at it (`docs/api.md`: `casual`)."""
    return seeded or any(kind == "ai" for kind in seat_types)


def kind_of(catalogue: Catalogue, name: str) -> Kind:
    """The hosted game called `name`; 422 `unknown_game_type` naming the others."""
    kind = catalogue.kind(name)
    if kind is None:
        known = ", ".join(catalogue.names)
        raise UnknownGameType(f"There is no game called {name!r} ({known}).")
    return kind


def check_levels(game: AnyGame, levels: Iterable[str | None]) -> None:
    """422 `unknown_level` for an AI level the game has no policy for."""
    for level in levels:
        if level is not None and level not in game.policies:
            known = ", ".join(sorted(game.policies))
            raise UnknownLevel(f"No AI level {level!r}: choose one of {known}.")


def checked_setup(
    game: AnyGame,
    levels: Sequence[str | None],
    names: Sequence[str],
    options: dict[str, Any],
    seed: int,
    now: int = 0,
) -> tuple[Setup, list[Any]]:
    """The setup of a new game of these seats (`levels`: each seat's AI level, None for a
    person's seat; `names`: each seat's name), its options with their defaults filled in, and
    its first events made at `now`; or the refusal of the first thing wrong with it."""
    check_levels(game, levels)
    asked = Setup(seed=seed, players=tuple(names), options=options)
    taken = msgspec.to_builtins(game.options(asked))
    machines = tuple(n for n, level in enumerate(levels) if level is not None)
    setup = Setup(seed=seed, players=tuple(names), options=taken, ai_seats=machines)
    return setup, game.start(setup, now)
