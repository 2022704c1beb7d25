"""The games a process hosts: the built-in ones, plus any named in the `EXTRA_GAMES` setting.

A new game plugs in by being a `domain.game.Game`: list it in `domain/registry.py`, or name it
as ``module:attribute`` in `EXTRA_GAMES` (the test suite's small timed game comes in that way).
Everything the service needs of a game (decoders, option specs, API types) is derived here
from its declarations, once per process.
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

import msgspec

from domain.game import AnyGame
from domain.registry import TABLES
from domain.seating import seated


class Kind:
    """One hosted game and what the service derives from its declarations; `others`: the other
    games hosted beside it (whose commands are well-formed here, though not this game's)."""

    def __init__(self, game: AnyGame, others: Sequence[AnyGame] = ()) -> None:
        self.game = game
        self.record_decoder = msgspec.json.Decoder(game.event_type)
        self.tags: tuple[str, ...] = tuple(
            str(m.__struct_config__.tag) for m in _members(game.command_type)
        )
        self._others = tuple(other for other in others if other.name != game.name)

    def decode_event(self, data: bytes) -> Any:
        return self.record_decoder.decode(data)

    def elsewhere(self, raw: Any) -> AnyGame | None:
        """The other hosted game one of whose commands `raw` (plain values) is, if any: a
        Mondo `place_tile` sent to Crazymino, whose `place_tile` has other fields."""
        for other in self._others:
            try:
                msgspec.convert(raw, type=other.command_type)
            except msgspec.ValidationError:
                continue
            return other
        return None


class Catalogue:
    """Games by name."""

    def __init__(self, games: Iterable[AnyGame]) -> None:
        hosted = list(games)
        self._kinds: dict[str, Kind] = {}
        for game in hosted:
            if game.name in self._kinds:
                raise ValueError(f"two games are called {game.name!r}")
            self._kinds[game.name] = Kind(game, hosted)

    @classmethod
    def with_extras(cls, extras: Sequence[str] = ()) -> Catalogue:
        """The built-in games and the extra ones (each named ``module:attribute``), each at a
        table (`domain.seating`)."""
        return cls([*TABLES.values(), *(seated(_load(spec)) for spec in extras)])

    def __contains__(self, name: object) -> bool:
        return name in self._kinds

    def __iter__(self) -> Iterator[Kind]:
        return iter(self._kinds.values())

    def kind(self, name: str) -> Kind | None:
        return self._kinds.get(name)

    def __getitem__(self, name: str) -> Kind:
        return self._kinds[name]

    @property
    def names(self) -> list[str]:
        return sorted(self._kinds)

    @functools.cached_property
    def command_tags(self) -> frozenset[str]:
        """The command types of every hosted game."""
        return frozenset(tag for kind in self._kinds.values() for tag in kind.tags)


def _members(union: Any) -> tuple[Any, ...]:
    return tuple(getattr(union, "__args__", (union,)))


def _load(spec: str) -> AnyGame:
    module, _, attribute = spec.strip().partition(":")
    game = getattr(importlib.import_module(module), attribute or "GAME")
    if not all(hasattr(game, a) for a in ("name", "decide", "evolve", "view")):
        raise TypeError(f"{spec} is not a game")
    return game  # type: ignore[no-any-return]
