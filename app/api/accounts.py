"""Accounts over HTTP: sign up, log in and out, change the password, personal tokens, me."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator
from typing import Annotated, Any

import msgspec
from litestar import Request, Response, delete, get, post
from litestar.params import FromPath

from app.api.guard import Guard
from app.api.http import client_address, json_body
from app.api.identity import people_of, player_required, with_session
from app.api.input_errors import InvalidRequest
from app.api.wording import plainly
from app.commands.errors import Forbidden, InvalidInput
from app.people.accounts import (
    PASSWORD_MAX,
    PASSWORD_MIN,
    BadPassword,
    Player,
    WrongLogin,
    WrongPassword,
    not_too_long,
)
from app.people.names import NAME_PATTERN, BadAccountName, key_of
from app.people.sessions import COOKIE
from app.people.tokens import LABEL_LENGTH, BadLabel, MadeToken, NoSuchToken, TokenInfo


class LogIn(Forbidden):
    """Personal tokens are made by a player logged in, not with a personal token."""

    code = "log_in"


AccountName = Annotated[str, msgspec.Meta(pattern=NAME_PATTERN)]
#: Its length over PASSWORD_MAX is refused by the service (422 `password_too_long`), not here.
Password = Annotated[str, msgspec.Meta(min_length=PASSWORD_MIN)]


class NewAccount(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: AccountName
    password: Password


class Credentials(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    name: str
    password: str


class NewPassword(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    current: str
    new: Password
    keep_tokens: bool = False  # else the player's personal tokens are revoked


class TokenRequest(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    label: Annotated[str, msgspec.Meta(min_length=1, max_length=LABEL_LENGTH)]


class Me(msgspec.Struct, frozen=True):
    name: str


async def _admitted(request: Request[Any, Any, Any]) -> None:
    guard: Guard = request.app.state.guard
    await guard.admit("login", client_address(request))


#: What a player reads when a field of an account's body is not as the schema has it.
_FIELD_WORDS: dict[str, tuple[type[InvalidInput], str]] = {
    "name": (BadAccountName, "A player's name is 3 to 20 letters, digits, '_' or '-'."),
    "password": (BadPassword, f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."),
    "new": (BadPassword, f"A password has {PASSWORD_MIN} to {PASSWORD_MAX} characters."),
    "keep_tokens": (InvalidRequest, "keep_tokens is true or false."),
    "label": (BadLabel, f"A token's label has 1 to {LABEL_LENGTH} characters."),
}


async def _body(request: Request[Any, Any, Any], kind: Any) -> Any:
    """The body as `kind` (its schema in `app.api.openapi.BODIES`); a field that is not as
    the schema has it is named in the player's words."""
    raw = json_body(await request.body())
    try:
        return msgspec.convert(raw, type=kind)
    except msgspec.ValidationError as error:
        field = re.search(r"at `\$\.(\w+)`", str(error))
        if field and field.group(1) in _FIELD_WORDS and "unknown field" not in str(error):
            refusal, words = _FIELD_WORDS[field.group(1)]
            raise refusal(words) from error
        raise InvalidRequest(plainly(error)) from error


@post("/api/accounts", status_code=201)
async def sign_up(request: Request[Any, Any, Any]) -> Response[Me]:
    """Make an account and log in with it (the answer sets the session cookie)."""
    await _admitted(request)
    asked = await _body(request, NewAccount)
    people = people_of(request)
    player = await people.accounts.sign_up(asked.name, asked.password)
    await people.sessions.close(request.cookies.get(COOKIE))
    session = await people.sessions.open(player)
    return with_session(request, Response(Me(player.name), status_code=201), session)


@post("/api/session", status_code=200)
async def log_in(request: Request[Any, Any, Any]) -> Response[Me]:
    """Log in: a new session (any session the browser had is closed first)."""
    await _admitted(request)
    asked = await _body(request, Credentials)
    not_too_long(asked.password)
    guard: Guard = request.app.state.guard
    people = people_of(request)
    name = key_of(asked.name)[:20]
    guessed = await guard.admit("login_name", f"{name} {client_address(request)}")
    wait, tried = await guard.slowed(name)
    async with _counted_if(guard, WrongLogin, guessed, tried):
        await asyncio.sleep(wait)
        player = await people.accounts.log_in(asked.name, asked.password)
    await people.sessions.close(request.cookies.get(COOKIE))
    session = await people.sessions.open(player)
    return with_session(request, Response(Me(player.name)), session)


@delete("/api/session", status_code=204)
async def log_out(request: Request[Any, Any, Any]) -> Response[None]:
    """Log out: the session is closed at once, everywhere."""
    await people_of(request).sessions.close(request.cookies.get(COOKIE))
    return with_session(request, Response(None, status_code=204), None)


@get("/api/me")
async def me(request: Request[Any, Any, Any]) -> Me:
    """Who is logged in (401 `not_logged_in` when nobody)."""
    return Me(player_required(request).name)


@post("/api/me/password", status_code=204)
async def change_password(
    request: Request[Any, Any, Any],
) -> Response[None]:
    """A new password: every session of the player closes, this browser gets a new one; the
    player's personal tokens are revoked unless `keep_tokens`."""
    await _admitted(request)
    player = player_required(request)
    asked = await _body(request, NewPassword)
    not_too_long(asked.current)
    not_too_long(asked.new)
    people = people_of(request)
    guard: Guard = request.app.state.guard
    guessed = await guard.admit("password", player.key)
    async with _counted_if(guard, WrongPassword, guessed):
        await people.accounts.change_password(player, asked.current, asked.new)
    await people.sessions.close_all(player)
    if not asked.keep_tokens:
        for token in await people.tokens.listed(player):
            with contextlib.suppress(NoSuchToken):  # revoked meanwhile
                await people.tokens.revoke(player, token.id)
    if request.cookies.get(COOKIE) is None:  # a program with a personal token: no cookie
        return Response(None, status_code=204)
    session = await people.sessions.open(player)
    return with_session(request, Response(None, status_code=204), session)


@get("/api/me/tokens")
async def list_tokens(request: Request[Any, Any, Any]) -> list[TokenInfo]:
    """Your personal tokens: label, when made, when last used (never the token)."""
    return await people_of(request).tokens.listed(player_required(request))


@post("/api/me/tokens", status_code=201)
async def make_token(request: Request[Any, Any, Any]) -> MadeToken:
    """A new personal token, shown in this answer only: a program plays as you with it."""
    player = _browser_player(request)
    asked = await _body(request, TokenRequest)
    return await people_of(request).tokens.make(player, asked.label)


@delete("/api/me/tokens/{token_id:str}", status_code=204)
async def revoke_token(request: Request[Any, Any, Any], token_id: FromPath[str]) -> None:
    """Revoke a personal token: the next request with it is refused."""
    await people_of(request).tokens.revoke(player_required(request), token_id)


@contextlib.asynccontextmanager
async def _counted_if(
    guard: Guard, failure: type[Exception], *windows: str | None
) -> AsyncIterator[None]:
    """A guess at a password, counted in `windows` if it fails as `failure`; its places are
    given back if it ends otherwise (right, or refused for another reason)."""
    try:
        yield
    except failure:
        raise
    except BaseException:
        with contextlib.suppress(Exception):
            await guard.refund(*windows)
        raise
    with contextlib.suppress(Exception):
        await guard.refund(*windows)


def _browser_player(request: Request[Any, Any, Any]) -> Player:
    """The logged-in player; a personal token may not make more tokens."""
    player = player_required(request)
    if request.headers.get("authorization") is not None:
        raise LogIn("Make personal tokens on your account page, logged in.")
    return player
