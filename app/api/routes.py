"""HTTP routes: each decodes, calls the service, and answers; refusals go through `on_error`.

The annotations `GameView`, `EventList`, `Applied` and `GameLog` are unions over the games a
process hosts; the app resolves them (`app.api.projection.namespace`).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import TYPE_CHECKING, Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.handlers import HTTPRouteHandler
from litestar.params import FromPath, FromQuery, Parameter
from prometheus_client import generate_latest

from app.api import lobby, logfile
from app.api.guard import Guard
from app.api.http import (
    client_address,
    decode_body,
    decode_command,
    idempotency_key,
    service_of,
    viewer,
)
from app.api.identity import identity_of
from app.api.importing import Checked
from app.api.lobby import GameType, Lobby
from app.api.projection import applied, event_list, game_view
from app.api.tickets import TICKET_SECONDS, Tickets
from app.base import metrics
from app.commands.errors import InvalidInput, RateLimited, Unprocessable
from app.commands.seats import PublicSeat
from app.commands.service import CreateGame
from app.machine.scheduler import ArqScheduler
from domain.errors import RuleError

if TYPE_CHECKING:  # unions over the hosted games, given to the app as its signature namespace
    from typing import TypeAlias

    GameView: TypeAlias = Any
    EventList: TypeAlias = Any
    Applied: TypeAlias = Any
    GameLog: TypeAlias = Any


class Created(msgspec.Struct, frozen=True):
    id: str
    game: str
    version: int
    seats: list[PublicSeat]


#: The refusals of a creation that give its place back: the request's own (a setup, an option,
#: a level the game does not take) and the cap on open games, all before anything is stored.
REFUNDED = (RuleError, Unprocessable, InvalidInput, RateLimited)


@contextlib.asynccontextmanager
async def creating(
    request: Request[Any, Any, Any], refunded: tuple[type[Exception], ...] = REFUNDED
) -> AsyncIterator[tuple[Guard, str]]:
    """A creation counted against the caller's address, its place given back when it is
    refused for one of `refunded` (never for a failure after the game was stored)."""
    guard: Guard = request.app.state.guard
    address = client_address(request)
    window = await guard.admit("create", address)
    try:
        await guard.check_open(address)
        yield guard, address
    except refunded:
        with contextlib.suppress(Exception):  # the refusal is what the caller must hear
            await guard.refund(window)
        raise


async def viewing(request: Request[Any, Any, Any]) -> None:
    """Count one view (or list of events, replay, timeline, export, lobby page)."""
    await request.app.state.guard.admit("view", client_address(request))


@post("/api/games", status_code=201)
async def create_game(request: Request[Any, Any, Any]) -> Created:
    """Create a game. Human seats get their secret token here, and only here."""
    data = decode_body(await request.body(), CreateGame)
    async with creating(request) as (guard, address):
        table, seats = await service_of(request).create(data)
    await guard.opened(address, table.id)
    return Created(table.id, table.game.name, table.version, seats)


@get("/api/games")
async def list_games(
    request: Request[Any, Any, Any],
    offset: Annotated[int, Parameter(ge=0, le=1_000_000_000)] = 0,
    limit: Annotated[int, Parameter(ge=1, le=100)] = 20,
) -> Lobby:
    """Games, newest first."""
    await viewing(request)
    return await lobby.games(service_of(request).store, offset, limit)


@get("/api/games/types")
async def list_game_types(request: Request[Any, Any, Any]) -> list[GameType]:
    """The games this server hosts: seats, shape, AI levels and options of each."""
    return lobby.game_types(service_of(request).catalogue)


@get("/api/games/{game_id:str}")
async def show_game(
    request: Request[Any, Any, Any], game_id: FromPath[str], hints: FromQuery[bool] = False
) -> GameView:
    """The caller's view (with a seat token), or the spectator's view (without); with
    `hints=true`, what each legal command would bring (the score of each placement)."""
    await viewing(request)
    service = service_of(request)
    table = await service.load(game_id)
    return game_view(table, viewer(request, table), service.clock(), hints=hints)


@post("/api/games/{game_id:str}/commands", status_code=200)
async def send_command(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Applied:
    """Apply one command of the caller's seat."""
    await request.app.state.guard.admit("command", client_address(request))
    service = service_of(request)
    table = await service.current(game_id)  # the append checks the version: no read needed
    seat = viewer(request, table, required=True)
    kind = service.catalogue[table.game.name]
    body = await request.body()
    command, expected = decode_command(kind, body, service.catalogue.command_tags)
    key = idempotency_key(request)
    after, outcome = await service.execute(
        game_id, seat, command, expected_version=expected, idempotency_key=key, loaded=table
    )
    return applied(after, outcome.version, outcome.replayed, outcome.entries, seat)


@get("/api/games/{game_id:str}/events")
async def list_events(
    request: Request[Any, Any, Any],
    game_id: FromPath[str],
    after: Annotated[int, Parameter(ge=0)] = 0,
) -> EventList:
    """The log after a version, as the caller may see it."""
    await viewing(request)
    table, events = await service_of(request).events(game_id, after)
    return event_list(table, events, viewer(request, table))


@get("/api/games/{game_id:str}/replay")
async def replay(
    request: Request[Any, Any, Any], game_id: FromPath[str], at: Annotated[int, Parameter(ge=1)]
) -> GameView:
    """The caller's view as it was at a version."""
    await viewing(request)
    table, state, then = await service_of(request).state_at(game_id, at)
    return game_view(table, viewer(request, table), then, state, at)


class Point(msgspec.Struct, frozen=True):
    version: int
    at: int
    scores: list[int]


class Timeline(msgspec.Struct, frozen=True):
    """Every seat's score after each event that changed one, from the first event on."""

    version: int
    seats: list[str]
    points: list[Point]


@get("/api/games/{game_id:str}/timeline")
async def timeline(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Timeline:
    """The scores over the game, for a chart (scores are public in every game)."""
    await viewing(request)
    service = service_of(request)
    table, events = await service.events(game_id)
    viewer(request, table)
    game, state = table.game, table.game.initial()
    points: list[Point] = []
    for entry in events:
        state = game.evolve(state, entry.event)
        scores = list(game.scores(state))
        if not points or scores != points[-1].scores:
            points.append(Point(entry.version, entry.at, scores))
    return Timeline(table.version, [s.name for s in table.seats], points)


class Ticket(msgspec.Struct, frozen=True):
    ticket: str
    expires_in: int


@post("/api/games/{game_id:str}/tickets", status_code=201)
async def issue_ticket(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Ticket:
    """A ticket for one stream of the caller's seat: `GET .../stream?ticket=T`, once, within a
    minute (a browser's EventSource cannot send the Authorization header)."""
    await request.app.state.guard.admit("ticket", client_address(request))
    table = await service_of(request).load(game_id)
    seat = viewer(request, table, required=True)
    assert seat is not None
    tickets: Tickets = request.app.state.tickets
    return Ticket(await tickets.issue(game_id, seat, identity_of(request)), TICKET_SECONDS)


@get("/metrics", media_type="text/plain; version=0.0.4; charset=utf-8")
async def prometheus(request: Request[Any, Any, Any]) -> bytes:
    """This process's measures, in Prometheus's text format (`app.base.metrics`)."""
    metrics.SUBSCRIBERS.set(request.app.state.hub.subscribers)
    scheduler = service_of(request).scheduler
    if isinstance(scheduler, ArqScheduler):
        with contextlib.suppress(Exception):  # the measures still answer while Redis is away
            for queue, depth in (await asyncio.wait_for(scheduler.depths(), 0.5)).items():
                metrics.QUEUE_DEPTH.labels(queue).set(depth)
    return generate_latest(metrics.REGISTRY)


class Health(msgspec.Struct, frozen=True):
    status: str
    subscribers: int


@get("/healthz")
async def health(request: Request[Any, Any, Any]) -> Health:
    """Ok while Redis answers within a second (else 503 `store_unavailable`); with the number
    of live stream subscribers in this process."""
    await asyncio.wait_for(service_of(request).store.ping(), timeout=1.0)
    return Health("ok", request.app.state.hub.subscribers)


@get("/api/games/{game_id:str}/export")
async def export_log(request: Request[Any, Any, Any], game_id: FromPath[str]) -> Response[GameLog]:
    """The whole log of a finished game, as a file."""
    await viewing(request)
    service = service_of(request)
    table, events = await service.events(game_id)
    viewer(request, table)  # a token it is sent must be a seat's, as on every route of a game
    log = logfile.export(table, await service.meta(game_id), events)
    disposition = f'attachment; filename="{table.game.name}-{game_id}.json"'
    return Response(log, headers={"Content-Disposition": disposition})


def import_route(max_bytes: int) -> HTTPRouteHandler:
    """`POST /api/games/import`, which takes a body of up to `max_bytes` (`IMPORT_MAX_BYTES`):
    the log of a long game is larger than the 64 KiB every other route takes."""
    return post("/api/games/import", status_code=201, request_max_body_size=max_bytes)(import_log)


async def import_log(request: Request[Any, Any, Any]) -> Created:
    """A new game rebuilt from an exported log, once every event is checked against the rules."""
    service = service_of(request)
    # A log that does not replay keeps its place: checking it replayed every command.
    async with creating(request, (RateLimited,)) as (guard, address):
        # read and replayed in another process: the event loop only stores what it found
        log: Checked = await request.app.state.log_checks.check(await request.body())
        game = service.catalogue[log.game].game
        now = service.clock()
        table, seats = await service.open(
            game, log.setup, log.seats, log.events, now, state=log.state, salt=log.salt
        )
    await guard.opened(address, table.id)
    return Created(table.id, table.game.name, table.version, seats)
