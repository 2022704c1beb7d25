"""The web client: one HTML page for every screen, its scripts and styles, and the games' rules.

The client is a program of the public API like any other (`app/web/static/js`); this module only
serves its files. Screens: `/` (lobby), `/play/{id}#t=TOKEN` (a seat; the token stays in the
fragment, which never reaches the server), `/watch/{id}` (a spectator), `/replay/{id}` and
`/rules/{game}`; a player's `/login`, `/signup`, `/account`, and `/tables/{id}` (a table
being formed, until its game starts); a player's page `/players/{name}` (ratings, charts,
last games) and a title's `/leaderboards/{game}`. A game's rules are written for its players in
`app/web/rules/{game}.md`, with the pictures of the developers' notes (`docs/rules/`) in the
player's labels (`player-NAME.svg`, see `app.api.player_pictures`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from litestar import Request, Response, get
from litestar.exceptions import NotFoundException
from litestar.params import FromPath
from litestar.static_files import create_static_files_router

from app.api.http import service_of
from app.api.player_pictures import PREFIX, player_picture

WEB = Path(__file__).resolve().parents[1] / "web"
PLAYER_RULES = WEB / "rules"
RULES = Path(__file__).resolve().parents[2] / "docs" / "rules"
_PICTURES = {".svg": "image/svg+xml", ".png": "image/png"}


SCREENS = [
    "/",
    "/play/{game_id:str}",
    "/watch/{game_id:str}",
    "/replay/{game_id:str}",
    "/tables/{table_id:str}",
    "/login",
    "/signup",
    "/account",
    "/players/{name:str}",
    "/leaderboards/{game:str}",
]


@get([*SCREENS, "/rules/{name:str}"], include_in_schema=False, sync_to_thread=False)
def page() -> Response[bytes]:
    """The client's page; it reads which screen to show from its own address."""
    return Response((WEB / "index.html").read_bytes(), media_type="text/html; charset=utf-8")


@get("/api/games/types/{name:str}/rules", media_type="text/markdown")
async def rules(request: Request[Any, Any, Any], name: FromPath[str]) -> bytes:
    """A hosted game's rules for its players, in Markdown (pictures under /rules-files/)."""
    path = PLAYER_RULES / f"{name}.md"
    if name not in service_of(request).catalogue or not path.is_file():
        raise NotFoundException()
    return path.read_bytes()


@get("/rules-files/{name:str}", include_in_schema=False, sync_to_thread=False)
def rules_picture(name: FromPath[str]) -> Response[bytes]:
    """A picture of a rules page (SVG or PNG from docs/rules); `player-NAME.svg` is NAME
    in the labels of the players' pages."""
    name = Path(name).name
    source = name.removeprefix(PREFIX)
    path = RULES / source
    kind = _PICTURES.get(path.suffix)
    if kind is None or not path.is_file():
        raise NotFoundException()
    if source != name and path.suffix == ".svg":
        return Response(player_picture(source, path.read_text()).encode(), media_type=kind)
    return Response(path.read_bytes(), media_type=kind)


static = create_static_files_router(path="/static", directories=[WEB / "static"], name="static")
