"""Where a player's games are: the running games they sit at (their turn first), and the open
tables they sit or are awaited at (`GET /api/me/games`).

A finished game is left out (a player's history is for later). The index of a player's games
(`player:{KEY}:games`) holds the games of their tables; each is read to say whose turn it is.
"""

from __future__ import annotations

import asyncio

import msgspec

from app.commands.errors import UnknownGame
from app.commands.meta import from_fields
from app.commands.seats import PublicSeat, seat_of_player
from app.commands.table import Table
from app.people.accounts import Player
from app.people.forming import OpenTableView
from app.people.hosting import Hosting


class MyGame(msgspec.Struct, frozen=True):
    id: str
    game: str
    title: str
    seat: int
    status: str
    your_turn: bool
    seats: list[PublicSeat]
    created: int


class MyGames(msgspec.Struct, frozen=True):
    games: list[MyGame]
    tables: list[OpenTableView]


async def my_games(host: Hosting, player: Player) -> MyGames:
    """The player's running games, those where it is their turn first, then the newest; and
    the forming tables they are at, newest first."""
    ids = await host.tables.games_of(player.key)
    metas = await host.service.store.metas(ids) if ids else []
    running = []
    for game_id, fields in zip(ids, metas, strict=True):
        meta = from_fields(fields)
        if meta is not None and meta.status == "active":
            running.append((game_id, meta.created))
    loaded = await asyncio.gather(
        *(_loaded(host, game_id) for game_id, _ in running), return_exceptions=False
    )
    games = []
    for (game_id, created), table in zip(running, loaded, strict=True):
        seat = None if table is None else seat_of_player(table.seats, player.key)
        if table is None or seat is None or table.over:
            continue
        games.append(
            MyGame(
                game_id,
                table.game.name,
                table.game.title,
                seat,
                "active",
                seat in table.game.to_act(table.state),
                [s.public() for s in table.seats],
                created,
            )
        )
    games.sort(key=lambda g: (not g.your_turn, -g.created))
    tables = await host.views(await host.tables.of_player(player.key))
    return MyGames(games, tables)


async def _loaded(host: Hosting, game_id: str) -> Table | None:
    try:
        return await host.service.load(game_id)
    except UnknownGame:  # deleted meanwhile
        return None
