"""HTTP routes: each decodes, calls the service, and answers; refusals go through `on_error`."""

from __future__ import annotations

import time
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.params import Parameter

from app import logfile
from app.http import decode_command, idempotency_key, service_of, viewer
from app.logfile import GameLog
from app.projection import EventEntry, GameView, entries, game_view
from app.seats import PublicSeat, SeatRequest, seats_decoder
from app.service import CreateGame


class Created(msgspec.Struct, frozen=True):
    id: str
    game: str
    version: int
    seats: list[PublicSeat]


class Applied(msgspec.Struct, frozen=True):
    version: int
    replayed: bool
    events: list[EventEntry]


class EventList(msgspec.Struct, frozen=True):
    version: int
    status: str
    events: list[EventEntry]


class Listed(msgspec.Struct, frozen=True):
    id: str
    game: str
    status: str
    seats: list[PublicSeat]
    created: float


class Lobby(msgspec.Struct, frozen=True):
    total: int
    offset: int
    limit: int
    games: list[Listed]


@post("/api/games", status_code=201)
async def create_game(request: Request[Any, Any, Any], data: CreateGame) -> Created:
    """Create a game. Human seats get their secret token here, and only here."""
    table, seats = await service_of(request).create(data, time.time())
    return Created(table.id, table.game.name, table.version, seats)


@get("/api/games")
async def list_games(
    request: Request[Any, Any, Any],
    offset: Annotated[int, Parameter(ge=0, le=1_000_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=100)] = 20,
) -> Lobby:
    """Games, newest first."""
    store = service_of(request).store
    total, ids = await store.lobby(offset, limit)
    games = []
    for game_id, meta in zip(ids, await store.metas(ids), strict=True):
        if {"game", "status", "seats", "created"} <= meta.keys():  # skips a half-made game
            seats = [s.public() for s in seats_decoder.decode(meta["seats"])]
            created = float(meta["created"])
            games.append(Listed(game_id, meta["game"], meta["status"], seats, created))
    return Lobby(total, offset, limit, games)


@get("/api/games/{game_id:str}")
async def show_game(request: Request[Any, Any, Any], game_id: str) -> GameView:
    """The caller's view (with a seat token), or the spectator's view (without)."""
    table = await service_of(request).load(game_id)
    return game_view(table, viewer(request, table))


@post("/api/games/{game_id:str}/commands", status_code=200)
async def send_command(request: Request[Any, Any, Any], game_id: str) -> Applied:
    """Apply one command of the caller's seat."""
    service = service_of(request)
    table = await service.load(game_id)
    seat = viewer(request, table, required=True)
    command, expected = decode_command(table, await request.body())
    key = idempotency_key(request)
    after, outcome = await service.execute(
        game_id, seat, command, expected_version=expected, idempotency_key=key, loaded=table
    )
    return Applied(outcome.version, outcome.replayed, entries(after, outcome.events, seat))


@get("/api/games/{game_id:str}/events")
async def list_events(
    request: Request[Any, Any, Any], game_id: str, after: Annotated[int, Parameter(ge=0)] = 0
) -> EventList:
    """The log after a version, as the caller may see it."""
    service = service_of(request)
    table, events = await service.events(game_id, after)
    status = "over" if table.over else "active"
    return EventList(table.version, status, entries(table, events, viewer(request, table)))


@get("/api/games/{game_id:str}/replay")
async def replay(
    request: Request[Any, Any, Any], game_id: str, at: Annotated[int, Parameter(ge=1)]
) -> GameView:
    """The caller's view as it was at a version."""
    table, state = await service_of(request).state_at(game_id, at)
    return game_view(table, viewer(request, table), state, at)


class Health(msgspec.Struct, frozen=True):
    status: str
    subscribers: int


@get("/healthz")
async def health(request: Request[Any, Any, Any]) -> Health:
    """Ok once Redis answers; with the number of live stream subscribers in this process."""
    await service_of(request).store.version("healthz")
    return Health("ok", request.app.state.hub.subscribers)


@get("/api/games/{game_id:str}/export")
async def export_log(request: Request[Any, Any, Any], game_id: str) -> Response[GameLog]:
    """The whole log of a finished game, as a file."""
    service = service_of(request)
    table, events = await service.events(game_id)
    log = logfile.export(table, await service.setup_of(game_id), events)
    disposition = f'attachment; filename="{table.game.name}-{game_id}.json"'
    return Response(log, headers={"Content-Disposition": disposition})


@post("/api/games/import", status_code=201)
async def import_log(request: Request[Any, Any, Any]) -> Created:
    """A new game rebuilt from an exported log, once every event is checked against the rules."""
    log, game, events, _ = logfile.read(await request.body())
    requests = [SeatRequest(s.type, s.name, s.level) for s in log.seats]
    table, seats = await service_of(request).open(game, log.setup, requests, events, time.time())
    return Created(table.id, table.game.name, table.version, seats)
