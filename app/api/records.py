"""The players' records over HTTP: a player's page, a title's leaderboard, and a finished
game's result with each player's rating change. Anyone may read them; each route calls
`app.people.records` and answers."""

from __future__ import annotations

from typing import Any

from litestar import Request, get
from litestar.params import FromPath

from app.api.http import service_of
from app.api.identity import people_of
from app.api.routes import viewing
from app.commands.errors import GameRunning
from app.people.records import GameRecord, Leaderboard, PlayerPage


@get("/api/players/{name:str}")
async def show_player(request: Request[Any, Any, Any], name: FromPath[str]) -> PlayerPage:
    """A player's ratings per title with their charts, statistics and last games."""
    await viewing(request)
    return await people_of(request).records.player(name)


@get("/api/leaderboards/{game:str}")
async def show_leaderboard(request: Request[Any, Any, Any], game: FromPath[str]) -> Leaderboard:
    """The title's established players (10 rated games or more), best first: the top 100;
    and each AI level's strength on the same scale (`ai_levels`), measured apart in games of
    AIs alone, since a game with an AI seat moves no rating."""
    await viewing(request)
    return await people_of(request).records.leaderboard(game)


@get("/api/games/{game_id:str}/result")
async def show_result(request: Request[Any, Any, Any], game_id: FromPath[str]) -> GameRecord:
    """A finished game's places and scores, and each player's rating before and after it;
    `recorded` is false for the moment between its end and its record."""
    await viewing(request)
    meta = await service_of(request).meta(game_id)
    if meta.status != "over":
        raise GameRunning("The game is still being played: its result comes at its end.")
    return await people_of(request).records.game(meta.game, game_id, meta.rated)
