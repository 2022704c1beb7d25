"""Where a player's games are: the running games they sit at (their turn first), the open
tables they sit or are awaited at, and their last finished games (`GET /api/me/games`).

The index of a player's games (`player:{KEY}:games`) holds the games of their tables; each is
read to say whose turn it is. A finished game is read from the player's record (the worker
writes it moments after the end, `app.people.ratings`): its places, scores and rating changes.
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
from app.people.rating_store import RatingStore
from app.people.records import SeatLine, seat_line

#: How many finished games "My games" lists.
FINISHED_GAMES = 10


class MyGame(msgspec.Struct, frozen=True):
    id: str
    game: str
    title: str
    seat: int
    status: str
    your_turn: bool
    seats: list[PublicSeat]
    created: int


class FinishedGame(msgspec.Struct, frozen=True):
    """A finished game of the player's: `seat` is theirs among `seats` (each seat's place,
    score and, in a rated game, rating change)."""

    id: str
    game: str
    title: str
    ended: int
    rated: bool
    seat: int
    seats: list[SeatLine]


class MyGames(msgspec.Struct, frozen=True):
    games: list[MyGame]
    tables: list[OpenTableView]
    finished: list[FinishedGame] = []


async def my_games(host: Hosting, player: Player, records: RatingStore) -> MyGames:
    """The player's running games, those where it is their turn first, then the newest; the
    forming tables they are at, newest first; and their last finished games, newest first."""
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
    return MyGames(games, tables, await finished_games(host, player, records))


async def finished_games(
    host: Hosting, player: Player, records: RatingStore, count: int = FINISHED_GAMES
) -> list[FinishedGame]:
    """The player's last `count` recorded games of every title, newest first."""
    found = []
    for kind in host.catalogue:
        name = kind.game.name
        found += await records.results(name, await records.newest(name, f"h:{player.key}", count))
    found.sort(key=lambda r: r.order, reverse=True)
    titles = {kind.game.name: kind.game.title for kind in host.catalogue}
    return [
        FinishedGame(
            r.id, r.game, titles.get(r.game, r.game), r.ended, r.rated,
            next(s.seat for s in r.seats if s.player == player.key),
            [seat_line(s) for s in r.seats],
        )
        for r in found[:count]
        if any(s.player == player.key for s in r.seats)
    ]  # fmt: skip


async def _loaded(host: Hosting, game_id: str) -> Table | None:
    try:
        return await host.service.load(game_id)
    except UnknownGame:  # deleted meanwhile
        return None
