"""GET and POST /api/games/{id}/chat: a table's chat, read by anyone who may see the game and
written by its seated players (`app.people.chat`). Live, the messages come on the game's stream
(an SSE event `chat`) and its seats' sockets (`{"type": "chat", ...}`)."""

from __future__ import annotations

from typing import Annotated, Any

import msgspec
from litestar import Request, get, post
from litestar.params import FromPath, Parameter

from app.api.http import client_address, decode_body, service_of, viewer
from app.live.hub import Hub
from app.people.chat import Chat
from app.people.players import People
from app.store.chat import ChatMessage


class Say(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The body of a message: plain text, 1 to 300 characters."""

    text: str


class ChatMessages(msgspec.Struct, frozen=True):
    messages: list[ChatMessage]


def chat_of(request: Request[Any, Any, Any]) -> Chat:
    people: People = request.app.state.people
    return people.chat


@get("/api/games/{game_id:str}/chat")
async def read_chat(
    request: Request[Any, Any, Any],
    game_id: FromPath[str],
    after: Annotated[int, Parameter(ge=0, le=2**53)] = 0,
) -> ChatMessages:
    """The table's chat after message `after` (its id), oldest first: the same for every seat
    and every spectator."""
    await request.app.state.guard.admit("view", client_address(request))
    table = await service_of(request).current(game_id)
    viewer(request, table)  # a token it is sent must be a seat's, as on every route of a game
    messages, _ = await chat_of(request).messages(game_id, after)
    return ChatMessages(messages)


@post("/api/games/{game_id:str}/chat", status_code=201)
async def say(request: Request[Any, Any, Any], game_id: FromPath[str]) -> ChatMessage:
    """A message of the caller's seat, under the seat's name (at most `RATE_CHAT_PER_MINUTE`
    a minute a seat)."""
    service = service_of(request)
    table = await service.current(game_id)
    seat = viewer(request, table, required=True)
    assert seat is not None
    body = decode_body(await request.body(), Say)
    message = await chat_of(request).say(table, seat, body.text, service.clock())
    hub: Hub = request.app.state.hub
    hub.spoken(game_id, message)
    return message
