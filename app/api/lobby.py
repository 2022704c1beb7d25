"""The read side of the lobby: the games a server holds, and the kinds of game it hosts.

Game types describe each game so that a client can build its creation form from them: seat
range, shape, AI levels, and every option with its type, default and range.
"""

from __future__ import annotations

from typing import Any

import msgspec

from app.commands.catalogue import Catalogue
from app.commands.meta import from_fields
from app.commands.seats import PublicSeat
from app.commands.setup import casual
from app.store.events import EventStore
from domain.game import AnyGame, Shape
from domain.option_words import option_fields


class Listed(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: str
    seats: list[PublicSeat]
    options: dict[str, Any]
    created: int
    seed: int | None = None  # only when its creator chose it
    casual: bool = False  # a chosen seed, or an AI at the table


class Lobby(msgspec.Struct, frozen=True):
    total: int
    offset: int
    limit: int
    games: list[Listed]


class OptionSpec(msgspec.Struct, frozen=True, omit_defaults=True):
    """One option of a game: its name, JSON type, default, the label and help sentence a form
    shows, and its range (in `unit`) or choices."""

    name: str
    type: str
    default: Any
    label: str | None = None
    description: str | None = None
    minimum: float | None = None
    maximum: float | None = None
    unit: str | None = None
    choices: list[Any] | None = None


class Seats(msgspec.Struct, frozen=True):
    min: int
    max: int


class GameType(msgspec.Struct, frozen=True):
    name: str
    title: str
    seats: Seats
    shape: Shape
    levels: list[str]
    options: list[OptionSpec]


async def games(store: EventStore, offset: int, limit: int) -> Lobby:
    """A page of games, newest first; a half-made game is passed over."""
    total, ids = await store.lobby(offset, limit)
    listed = []
    for game_id, fields in zip(ids, await store.metas(ids), strict=True):
        meta = from_fields(fields)
        if meta is not None:
            seats = [s.public() for s in meta.seats]
            options = dict(meta.setup.options)
            seed = meta.setup.seed if meta.seeded else None
            played = casual(meta.seeded, (s.type for s in meta.seats))
            listed.append(
                Listed(game_id, meta.game, meta.status, seats, options, meta.created, seed, played)
            )
    return Lobby(total, offset, limit, listed)


def game_types(catalogue: Catalogue) -> list[GameType]:
    return [game_type(kind.game) for kind in catalogue]


def game_type(game: AnyGame) -> GameType:
    return GameType(
        name=game.name,
        title=game.title,
        seats=Seats(game.min_seats, game.max_seats),
        shape=game.shape,
        levels=sorted(game.policies),
        options=option_specs(game.options_type),
    )


def option_specs(options_type: Any) -> list[OptionSpec]:
    """The options of a game, as its options Struct declares them (`domain.option_words`)."""
    defaults = msgspec.to_builtins(options_type())
    return [
        OptionSpec(
            name=field.name,
            type=field.type,
            default=defaults.get(field.name),
            label=field.label,
            description=field.description,
            minimum=field.minimum,
            maximum=field.maximum,
            unit=field.unit,
            choices=list(field.choices) if field.choices else None,
        )
        for field in option_fields(options_type)
    ]
