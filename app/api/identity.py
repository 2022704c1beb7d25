"""Who a request comes from: a player (a session cookie or a personal token), a seat (a seat
token), or nobody; and CSRF protection for what a browser writes with its session cookie.

`identify` runs before every HTTP handler: it looks the player up only when the request brings
a session cookie or a personal token, so a guest's or a seat token's request costs nothing more.
It notes the keys of that identity too (`app.store.ends`): a stream, or a ticket, asked for with
it ends with it.
"""

from __future__ import annotations

import secrets
from typing import Any

from litestar import Request, Response
from litestar.config.csrf import CSRFConfig
from litestar.connection import ASGIConnection
from litestar.enums import ScopeType
from litestar.middleware.csrf import CSRFMiddleware
from litestar.types import ASGIApp, Receive, Scope, Send
from redis.asyncio import Redis

from app.api.callers import REVOKED, NotLoggedIn, UnknownToken, bearer_of
from app.base.config import Settings
from app.people.accounts import Player
from app.people.players import People
from app.people.sessions import COOKIE
from app.people.sessions import identity_of as session_identity
from app.people.tokens import identity_of as token_identity
from app.people.tokens import is_personal

CSRF_COOKIE = "csrftoken"
CSRF_HEADER = "x-csrftoken"
#: The writes a browser makes before it has a session: they are checked too (no login CSRF).
LOGGING_IN = {"/api/session", "/api/accounts"}
_SAFE = {"GET", "HEAD", "OPTIONS"}
#: The secret of a CSRF config until the first request that needs it reads Redis's.
UNSET_SECRET = "read from Redis at the first request that needs it"


def people_of(request: Request[Any, Any, Any]) -> People:
    people: People = request.app.state.people
    return people


async def identify(request: Request[Any, Any, Any]) -> None:
    """Set `request.state.player`: the player of the personal token the request carries (401
    if the token is unknown or revoked), else of its session cookie (none if it has closed),
    else None; and `request.state.identity`, the keys of that token or session (or none)."""
    player: Player | None = None
    identity: tuple[str, ...] = ()
    authorization = request.headers.get("authorization")
    if authorization is not None:
        token = bearer_of(authorization)
        if token is not None and is_personal(token):
            player = await people_of(request).tokens.player(token)
            if player is None:
                raise UnknownToken(REVOKED)
            identity = token_identity(token, player)
    elif (session := request.cookies.get(COOKIE)) is not None:
        player = await people_of(request).sessions.player(session)
        if player is not None:
            identity = session_identity(session, player)
    request.state.player = player
    request.state.identity = identity


def identity_of(request: Request[Any, Any, Any]) -> tuple[str, ...]:
    """The keys of the identity the request acts with (`identify`); none for a seat token."""
    identity: tuple[str, ...] = request.state.get("identity", ())
    return identity


def player_of(request: Request[Any, Any, Any]) -> Player | None:
    player: Player | None = request.state.get("player")
    return player


def player_required(request: Request[Any, Any, Any]) -> Player:
    player = player_of(request)
    if player is None:
        raise NotLoggedIn(
            "Log in first (or send your personal token as 'Authorization: Bearer <token>').",
        )
    return player


def with_session(
    request: Request[Any, Any, Any], response: Response[Any], session_id: str | None
) -> Response[Any]:
    """The answer with the session cookie set (or cleared, for None)."""
    settings: Settings = request.app.state.settings
    secure = settings.secure_cookies or request.url.scheme == "https"
    if session_id is None:
        response.delete_cookie(COOKIE, path="/")
    else:
        response.set_cookie(
            COOKIE,
            session_id,
            max_age=round(settings.session_days * 86400),
            path="/",
            httponly=True,
            secure=secure,
            samesite="lax",
        )
    return response


async def csrf_secret(redis: Redis) -> str:
    """The secret every API process signs CSRF tokens with: made once, kept in Redis."""
    await redis.set("csrf:secret", secrets.token_hex(32), nx=True)
    found = await redis.get("csrf:secret")
    assert found is not None
    return str(found.decode())


def csrf_config(secret: str, settings: Settings) -> CSRFConfig:
    return CSRFConfig(
        secret=secret,
        cookie_name=CSRF_COOKIE,
        header_name=CSRF_HEADER,
        cookie_secure=settings.secure_cookies,
        cookie_samesite="strict",
    )


class CookieCSRF:
    """Litestar's CSRF middleware for what a browser does with its cookies: a write that
    brings the session cookie, or logs in or signs up, must send the CSRF cookie's token in
    `X-CSRFToken`; a read without an Authorization header is given the CSRF cookie. A program
    that sends a token and no session cookie is not asked (no cookie, no forgery)."""

    def __init__(self, app: ASGIApp, config: CSRFConfig) -> None:
        self.app = app
        self.config = config
        self.csrf = CSRFMiddleware(app, config)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != ScopeType.HTTP:
            await self.app(scope, receive, send)
            return
        cookie = False
        authorized = False
        for name, _value in scope["headers"]:
            if name == b"cookie":
                cookie = True
            elif name == b"authorization":
                authorized = True
        if scope["method"] in _SAFE:
            guarded = not authorized
        else:
            # The session's cookie as the session reader finds it (the same parser: a
            # `session =<id>` it takes is guarded too).
            sent = cookie and COOKIE in ASGIConnection[Any, Any, Any, Any](scope).cookies
            guarded = sent or scope["path"] in LOGGING_IN
        if guarded and self.config.secret == UNSET_SECRET:
            # Every API process signs with the one secret kept in Redis; read when first
            # needed, so that a process starts while Redis is away (a 503 until it is back).
            self.config.secret = await csrf_secret(scope["app"].state.service.store.client)
        await (self.csrf if guarded else self.app)(scope, receive, send)
