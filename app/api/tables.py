"""Open tables over HTTP: open one, list them, take a seat, leave, decline, start; a finished
game's rematch; where a player's games are. Each route decodes, calls `app.people.hosting`,
and answers; refusals go through `on_error`."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, Response, get, post
from litestar.params import FromPath

from app.api.http import client_address, decode_body
from app.api.identity import people_of, player_required
from app.api.lobby_stream import TableList
from app.api.routes import creating, viewing
from app.people.forming import OpenTableView
from app.people.hosting import Hosting, OpenTable
from app.people.my_games import MyGames, my_games
from app.people.rematch import rematch, rematch_of


class Join(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body of a join: the seat wanted (else the one kept for you, else the first open)."""

    seat: Annotated[int, msgspec.Meta(ge=0)] | None = None


def hosting_of(request: Request[Any, Any, Any]) -> Hosting:
    return people_of(request).tables


async def acting(request: Request[Any, Any, Any]) -> None:
    """Count one move at a table as a command of the caller's address."""
    await request.app.state.guard.admit("command", client_address(request))


@post("/api/tables", status_code=201)
async def open_table(request: Request[Any, Any, Any]) -> OpenTableView:
    """Open a table of a game: its seats open, AI or kept for a named player."""
    player = player_required(request)
    asked = decode_body(await request.body(), OpenTable)
    async with creating(request):
        return await hosting_of(request).open(player, asked)


@get("/api/tables")
async def list_tables(request: Request[Any, Any, Any]) -> TableList:
    """The forming tables, newest first."""
    await viewing(request)
    return TableList(await hosting_of(request).lobby())


@get("/api/tables/{table_id:str}")
async def show_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> OpenTableView:
    """A table: who sits where, which seats are free, its game once started."""
    await viewing(request)
    return await hosting_of(request).view(table_id)


@post("/api/tables/{table_id:str}/join", status_code=200)
async def join_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> OpenTableView:
    """Take a seat (the game starts now if the table is full and asked to)."""
    player = player_required(request)
    body = await request.body()
    asked = decode_body(body, Join) if body.strip() else Join()
    await acting(request)
    return await hosting_of(request).join(player, table_id, asked.seat)


@post("/api/tables/{table_id:str}/leave", status_code=200)
async def leave_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> OpenTableView:
    """Stand up before the start; the creator leaving closes the table."""
    player = player_required(request)
    await acting(request)
    return await hosting_of(request).leave(player, table_id)


@post("/api/tables/{table_id:str}/decline", status_code=200)
async def decline_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> OpenTableView:
    """Decline the seat kept for you: it stays empty and is left out at the start."""
    player = player_required(request)
    await acting(request)
    return await hosting_of(request).decline(player, table_id)


@post("/api/tables/{table_id:str}/start", status_code=200)
async def start_table(request: Request[Any, Any, Any], table_id: FromPath[str]) -> OpenTableView:
    """The creator starts the game with those seated."""
    player = player_required(request)
    await acting(request)
    return await hosting_of(request).start(player, table_id)


@post("/api/games/{game_id:str}/rematch", status_code=201)
async def ask_rematch(
    request: Request[Any, Any, Any], game_id: FromPath[str]
) -> Response[OpenTableView]:
    """Play again: the finished game's rematch table (201 when this opened it, else 200)."""
    player = player_required(request)
    await acting(request)
    table, opened = await rematch(hosting_of(request), player, game_id)
    return Response(table, status_code=201 if opened else 200)


@get("/api/games/{game_id:str}/rematch")
async def show_rematch(request: Request[Any, Any, Any], game_id: FromPath[str]) -> OpenTableView:
    """The game's rematch table, if someone asked for one."""
    await viewing(request)
    return await rematch_of(hosting_of(request), game_id)


@get("/api/me/games")
async def list_my_games(request: Request[Any, Any, Any]) -> MyGames:
    """Your running games (your turn first), the open tables you are at, and your last
    finished games."""
    player = player_required(request)
    await viewing(request)
    return await my_games(hosting_of(request), player, people_of(request).records.store)
