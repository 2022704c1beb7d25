"""What the API answers with: a viewer's view of a game, and its events as the viewer sees them."""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from app.seats import PublicSeat
from app.service import Table
from domain.game import Standing


class GameView(msgspec.Struct, frozen=True):
    """One viewer's view: the game's own view in `state`, and what to send in `legal`."""

    id: str
    game: str
    version: int
    status: Literal["active", "over"]
    seat: int | None
    to_act: list[int]
    scores: list[int]
    standings: list[Standing]
    seats: list[PublicSeat]
    legal: list[Any]
    state: Any


class EventEntry(msgspec.Struct, frozen=True):
    version: int
    event: Any


def game_view(
    table: Table, viewer: int | None, state: Any = None, version: int | None = None
) -> GameView:
    """The view of the table now (or of `state` at `version`, for replays)."""
    game = table.game
    state = table.state if state is None else state
    over = game.is_over(state)
    return GameView(
        id=table.id,
        game=game.name,
        version=table.version if version is None else version,
        status="over" if over else "active",
        seat=viewer,
        to_act=sorted(game.to_act(state)),
        scores=list(game.scores(state)),
        standings=game.standings(state),
        seats=[s.public() for s in table.seats],
        legal=[] if viewer is None or over else game.legal(state, viewer),
        state=game.view(state, viewer),
    )


def entries(table: Table, events: list[tuple[int, Any]], viewer: int | None) -> list[EventEntry]:
    """Events as the viewer may see them (all of them once the game is over)."""
    return [EventEntry(version, table.visible(event, viewer)) for version, event in events]
