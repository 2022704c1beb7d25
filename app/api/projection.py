"""What the API answers with, typed per game so that the schema describes each game's views,
commands and events as tagged unions (so that a client can be generated from it).

Every game gets its own structs (made once, from the game's declared types), each tagged by the
field ``game``: ``CrazyminoGameView``, ``CrazyminoEventList``, ``CrazyminoApplied``,
``CrazyminoLog``, and the ``CrazyminoEntry`` and ``CrazyminoRecord`` they list. The routes are
annotated with the unions of these over the games a process hosts (`namespace`).
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any, Literal, NamedTuple, Union

import msgspec

from app.commands.catalogue import Catalogue
from app.commands.commitment import Commitment, FairDeal, Salt
from app.commands.seats import PublicSeat
from app.commands.table import Entry, Table
from domain.game import AnyGame, Setup, Standing

Status = Literal["active", "over"]
LOG_FORMAT: Literal["boardgames-log/2"] = "boardgames-log/2"


class ApiTypes(NamedTuple):
    view: Any
    entry: Any
    record: Any
    events: Any
    applied: Any
    log: Any


def _list_of(item: Any) -> Any:
    return list[item]


@functools.cache
def api_types(game: AnyGame) -> ApiTypes:
    """The answer structs of one game."""
    title = "".join(part.title() for part in game.name.replace("-", "_").split("_"))

    def struct(suffix: str, fields: list[tuple[Any, ...]], **config: Any) -> Any:
        name = f"{title}{suffix}"
        return msgspec.defstruct(
            name, fields, tag=game.name, tag_field="game", frozen=True, module=__name__, **config
        )

    entry = msgspec.defstruct(
        f"{title}Entry",
        [
            ("version", int),
            ("at", int),
            ("by", int | None),
            ("event", game.event_type),
            ("text", str),
        ],
        frozen=True,
        module=__name__,
    )
    record = msgspec.defstruct(
        f"{title}Record",
        [("at", int), ("by", int | None), ("event", game.event_type)],
        frozen=True,
        forbid_unknown_fields=True,
        module=__name__,
    )
    view = struct(
        "GameView",
        [
            ("id", str),
            ("version", int),
            ("now", int),
            ("status", Status),
            ("seat", int | None),
            ("to_act", list[int]),
            ("scores", list[int]),
            ("standings", list[Standing]),
            ("seats", list[PublicSeat]),
            ("legal", _list_of(game.command_type)),
            ("hints", _list_of(game.hint_type)),
            ("state", game.view_type),
            # The table around the game (turn clock, who has left); None for a game without.
            ("table", None if game.seating_type is None else game.seating_type | None),
            # The seed when its creator chose it (told to everyone); None while it is secret.
            ("seed", int | None),
            ("casual", bool),
            # The commitment to the seed the service drew, from the start; its seed and salt
            # once the game is over. None for a chosen seed (public) or an older game.
            ("fair_deal", FairDeal | None),
        ],
    )
    listed = _list_of(entry)
    events = struct(
        "EventList",
        [
            ("version", int),
            ("status", Status),
            ("events", listed),
            ("seed", int | None),
            ("casual", bool),
        ],
    )
    applied = struct("Applied", [("version", int), ("replayed", bool), ("events", listed)])
    log = struct(
        "Log",
        [
            ("format", Literal["boardgames-log/2"]),
            ("setup", Setup),
            ("seats", list[PublicSeat]),
            ("events", _list_of(record)),
            # The commitment published at the start and its salt (the seed is the setup's);
            # absent from the log of a chosen seed or of an older game.
            ("commitment", Commitment | None, None),
            ("salt", Salt | None, None),
        ],
        forbid_unknown_fields=True,
    )
    return ApiTypes(view, entry, record, events, applied, log)


def namespace(catalogue: Catalogue) -> dict[str, Any]:
    """The unions the routes' annotations name, over the games of `catalogue`."""
    kinds = [api_types(kind.game) for kind in catalogue]

    def union(field: str) -> Any:
        members = tuple(getattr(types, field) for types in kinds)
        return members[0] if len(members) == 1 else Union[members]  # noqa: UP007

    return {
        "GameView": union("view"),
        "EventList": union("events"),
        "Applied": union("applied"),
        "GameLog": union("log"),
    }


def status_of(table: Table) -> Status:
    return "over" if table.over else "active"


def game_view(
    table: Table,
    viewer: int | None,
    now: int,
    state: Any = None,
    version: int | None = None,
    *,
    hints: bool = False,
) -> Any:
    """The view of the table at server time `now`, with the hints of the legal commands when
    asked for; or, for replays, of `state` at `version` (`now` is then the time of that
    version's event): no legal command, and everything shown once the game is over."""
    game = table.game
    replaying = state is not None
    state = table.state if state is None else state
    over = game.is_over(state)
    legal = [] if viewer is None or over or replaying else game.legal(state, viewer, now)
    # A finished game's replay shows everything; a running game's, what the viewer could see.
    shown = game.full_view(state) if replaying and table.over else game.view(state, viewer)
    return api_types(game).view(
        id=table.id,
        version=table.version if version is None else version,
        now=now,
        status="over" if over else "active",
        seat=viewer,
        to_act=sorted(game.to_act(state)),
        scores=list(game.scores(state)),
        standings=game.standings(state),
        seats=[s.public() for s in table.seats],
        legal=legal,
        hints=game.hints(state, viewer, legal) if hints and legal and viewer is not None else [],
        state=shown,
        table=game.seating(state),
        seed=table.seed,
        casual=table.casual,
        fair_deal=None if table.deal is None else table.deal.shown(table.over),
    )


def entries(
    table: Table, events: Sequence[Entry], viewer: int | None, *, over: bool | None = None
) -> list[Any]:
    """Events as the viewer may see them: all of them once the game is over (`over`, or the
    table's own state when not given)."""
    entry = api_types(table.game).entry
    shown = table.over if over is None else over
    game = table.game
    names = [s.name for s in table.seats]
    out = []
    for e in events:
        event = e.event if shown else game.redact(e.event, viewer)
        out.append(entry(e.version, e.at, e.by, event, game.describe(event, names)))
    return out


def event_list(table: Table, events: Sequence[Entry], viewer: int | None) -> Any:
    shown = entries(table, events, viewer)
    return api_types(table.game).events(
        table.version, status_of(table), shown, table.seed, table.casual
    )


def applied(
    table: Table, version: int, replayed: bool, events: Sequence[Entry], viewer: int | None
) -> Any:
    return api_types(table.game).applied(version, replayed, entries(table, events, viewer))
