"""A program's command, `POST /api/games/{id}/commands` with a seat token, served below Litestar.

`python -m app` gives uvicorn `CommandWire(app)`: it answers the command POST that carries a
seat token (`Authorization: Bearer <seat token>`), no cookie, and a `Content-Length` within the
app's limit, and passes every other request, and every other kind of ASGI event, on to the
app. A command so answered costs no routing, middleware, dependency or response object of
Litestar's; it takes the steps of `app.api.routes.send_command` in the same order (the limit,
the game, the seat, the body, the command, the key, the service), and a refusal is judged as
`app.api.refusals.on_error` judges it. The answers are the route's, byte for byte (the tests
compare the two); `ASGI_COMMANDS=1` sends every command through the route.

What goes on to the app: a cookie (a browser's write: the CSRF check is the app's), a
personal token (a player, looked up by `app.api.identity`), no token or one not shaped as a
bearer token (refused there), no `Content-Length` or one past the limit (413 there).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

import msgspec
from litestar import Litestar
from litestar.enums import ScopeType
from litestar.types import (
    HTTPResponseBodyEvent,
    HTTPResponseStartEvent,
    Receive,
    ReceiveMessage,
    Scope,
    Send,
)

from app.api.callers import BEARER, address_of, seat_of_token
from app.api.guard import Guard
from app.api.http import checked_key, decode_command
from app.api.projection import applied
from app.api.refusals import answer_of
from app.base.config import Settings
from app.commands.service import GameService
from app.people.tokens import is_personal

_COMMANDS = re.compile(r"/api/games/([^/]+)/commands")
_encoder = msgspec.json.Encoder()
_JSON = (b"content-type", b"application/json")
_NOSNIFF = (b"x-content-type-options", b"nosniff")


class CommandWire:
    """The ASGI app uvicorn serves: the app, with a program's command answered here."""

    def __init__(self, app: Litestar, max_body: int) -> None:
        self.app = app
        self.max_body = max_body
        #: The app's parts, taken from its state at the first command (the lifespan sets them).
        self._parts: tuple[GameService, Guard, Settings] | None = None

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == ScopeType.HTTP and scope["method"] == "POST":
            found = _COMMANDS.fullmatch(scope["path"])
            if found is not None:
                plain = program_command(scope["headers"], self.max_body)
                if plain is not None:
                    await self._serve(scope, found.group(1), *plain, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _serve(
        self,
        scope: Scope,
        game_id: str,
        token: str,
        key: str | None,
        receive: Receive,
        send: Send,
    ) -> None:
        """`app.api.routes.send_command`, step by step."""
        if self._parts is None:
            state = self.app.state
            self._parts = (state.service, state.guard, state.settings)
        service, guard, settings = self._parts
        try:
            client = scope.get("client")
            forwarded = _headers(scope["headers"], b"x-forwarded-for")
            address = address_of(client[0] if client else None, forwarded, settings)
            await guard.admit("command", address)
            table = await service.current(game_id)
            seat = seat_of_token(table, token, required=True)
            kind = service.catalogue[table.game.name]
            body = await _body(receive)
            if body is None:
                return  # the client left before it sent the body: nobody to answer
            command, expected = decode_command(kind, body, service.catalogue.command_tags)
            checked = None if key is None else checked_key(key)
            after, outcome = await service.execute(
                game_id,
                seat,
                command,
                expected_version=expected,
                idempotency_key=checked,
                loaded=table,
            )
            answer = applied(after, outcome.version, outcome.replayed, outcome.entries, seat)
            status, content, extra = 200, _encoder.encode(answer), None
        except Exception as error:
            status, refusal, extra = answer_of(error, settings, "POST", scope["path"])
            content = _encoder.encode(refusal)
        await _answer(send, status, content, extra)


def program_command(
    headers: Iterable[tuple[bytes, bytes]], max_body: int
) -> tuple[str, str | None] | None:
    """A program's command by its headers: its seat token and idempotency key; None for what
    goes on to the app (see above)."""
    token: str | None = None
    length: int | None = None
    key: str | None = None
    for name, value in headers:
        if name == b"authorization":
            if token is not None:
                return None
            found = BEARER.fullmatch(value.decode("latin-1"))
            if found is None or is_personal(found.group(1)):
                return None
            token = found.group(1)
        elif name == b"content-length":
            if length is not None or not value.isdigit():
                return None
            length = int(value)
        elif name == b"idempotency-key":
            if key is not None:
                return None
            key = value.decode("latin-1")
        elif name in (b"cookie", b"transfer-encoding"):
            return None
    if token is None or length is None or length > max_body:
        return None
    return token, key


def _headers(headers: Iterable[tuple[bytes, bytes]], wanted: bytes) -> list[str]:
    """The values of every `wanted` header line, in their order."""
    return [value.decode("latin-1") for name, value in headers if name == wanted]


async def _body(receive: Receive) -> bytes | None:
    """The request's body (uvicorn keeps to its Content-Length), or None if the client left."""
    chunks: list[bytes] = []
    while True:
        message: ReceiveMessage = await receive()
        if message["type"] != "http.request":
            return None
        chunks.append(message.get("body", b""))
        if not message.get("more_body", False):
            return chunks[0] if len(chunks) == 1 else b"".join(chunks)


async def _answer(send: Send, status: int, content: bytes, extra: dict[str, str] | None) -> None:
    headers = []  # in the order the app gives them: its own, then the body's
    if extra:
        headers += [(k.lower().encode("latin-1"), v.encode("latin-1")) for k, v in extra.items()]
    headers += [_JSON, (b"content-length", str(len(content)).encode()), _NOSNIFF]
    start: HTTPResponseStartEvent = {
        "type": "http.response.start",
        "status": status,
        "headers": headers,
    }
    await send(start)
    body: HTTPResponseBodyEvent = {
        "type": "http.response.body",
        "body": content,
        "more_body": False,
    }
    await send(body)
