"""GET /api/games/{id}/stream: server-sent events of the caller's view of the game.

Each message carries one event; its id is the event's version. A client reconnecting with
`Last-Event-ID` gets what it missed first (from the store), then live events (from the hub),
with no gap and no repeat. A comment is sent as keep-alive when nothing happens.

The table's chat comes on the same stream as messages named `chat` (data: the message), with
no id, so that `Last-Event-ID` stays the game's version: first the messages after
`?chat_after=` (the id of the last message the client has; 0, the default: every message
kept), then each new one, in order, each once.

A stream opened with a session or a personal token (or a ticket issued to one) ends as soon
as that identity ends, in any API process (`app.live.identities`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from typing import Annotated, Any

import msgspec
from litestar import Request, get
from litestar.params import FromPath, Parameter
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.base import ASGIResponse
from litestar.types import Receive, Scope, Send

from app.api.callers import caller_of, resume_after
from app.api.guard import Guard
from app.api.http import client_address, service_of
from app.api.identity import identity_of
from app.api.projection import entries
from app.api.tickets import Tickets
from app.base.config import Settings
from app.commands.table import Entry, Table
from app.live.hub import Hub, Said, Subscription
from app.people.players import People
from app.store.chat import ChatMessage

_encoder = msgspec.json.Encoder()


def _message(table: Table, entry: Entry, seat: int | None, over: bool) -> ServerSentEventMessage:
    """One event as the seat may see it (everything once the game is over)."""
    (shown,) = entries(table, [entry], seat, over=over)
    return ServerSentEventMessage(data=_encoder.encode(shown).decode(), id=entry.version)


def _said(message: ChatMessage) -> ServerSentEventMessage:
    """One chat message, with no id: the stream's ids are the game's versions."""
    return ServerSentEventMessage(data=_encoder.encode(message).decode(), event="chat")


class _Stream(ServerSentEvent):
    """An SSE response that leaves the hub once sent, whether the client stayed or left.

    Cleaning up here, not in the generator's `finally`, does not depend on when an abandoned
    generator is collected.
    """

    def __init__(
        self, hub: Hub, subscription: Subscription, content: Any, ended: Callable[[], None]
    ) -> None:
        super().__init__(content)
        self._hub = hub
        self._subscription = subscription
        self._ended = ended  # the place the stream held among its address's, given back

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        sender = super().to_asgi_response(*args, **kwargs)
        hub, subscription, ended = self._hub, self._subscription, self._ended

        class Leaving:
            async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
                try:
                    await sender(scope, receive, send)
                finally:
                    hub.unsubscribe(subscription)
                    ended()

        return Leaving()  # type: ignore[return-value]


async def _messages(
    subscription: Subscription,
    table: Table,
    backlog: list[Entry],
    seat: int | None,
    after: int,
    chat: tuple[list[ChatMessage], int],
    keep_alive: float,
    lifetime: float,
) -> AsyncIterator[ServerSentEventMessage]:
    """The backlog after `after`, the chat's (`chat`: its messages, and the id of the last
    message the client had), then live events and messages, for at most `lifetime` seconds
    (then the stream ends and its client reconnects with the last id it has: nothing is
    missed)."""
    loop = asyncio.get_running_loop()
    end = loop.time() + lifetime
    sent = after
    for entry in backlog:
        yield _message(table, entry, seat, table.over)
        sent = entry.version
    said_backlog, said = chat
    for message in said_backlog:
        if message.id > said:
            yield _said(message)
            said = message.id
    while True:
        if subscription.dropped and subscription.queue.empty():
            return
        left = end - loop.time()
        if left <= 0:
            return
        try:
            delivery = await asyncio.wait_for(subscription.queue.get(), min(keep_alive, left))
        except TimeoutError:
            if loop.time() < end:
                yield ServerSentEventMessage(comment="keep-alive", data=None)
            continue
        if delivery is None:
            return
        if isinstance(delivery, Said):
            if delivery.message.id > said:
                yield _said(delivery.message)
                said = delivery.message.id
            continue
        if delivery.entry.version <= sent:
            continue
        yield _message(table, delivery.entry, seat, delivery.over)
        sent = delivery.entry.version


@get("/api/games/{game_id:str}/stream")
async def stream(
    request: Request[Any, Any, Any],
    game_id: FromPath[str],
    chat_after: Annotated[int, Parameter(ge=0, le=2**53)] = 0,
) -> ServerSentEvent:
    """The caller's view of each new event, and the table's chat, as server-sent events."""
    service = service_of(request)
    table = await service.load(game_id)
    tickets: Tickets = request.app.state.tickets
    seat, identity = await caller_of(
        table,
        tickets,
        ticket=request.query_params.get("ticket"),
        authorization=request.headers.get("authorization"),
        player=request.state.get("player"),
        identity=identity_of(request),
    )
    hub: Hub = request.app.state.hub
    settings: Settings = request.app.state.settings
    guard: Guard = request.app.state.guard
    raw = request.headers.get("last-event-id") or request.query_params.get("after") or "0"
    after = resume_after(table, raw)
    address = client_address(request)
    await guard.admit("stream", address)
    held = guard.hold(address)
    people: People = request.app.state.people
    try:
        said, last = await people.chat.messages(game_id, chat_after)
        subscription = hub.subscribe(table, said=last, identity=identity)
    except BaseException:
        guard.release(held)
        raise
    try:  # the backlog is read before the answer starts: a Redis away is a 503, not a cut
        if subscription.heard > last:  # passed on here before this stream joined
            more, last = await people.chat.messages(game_id, last)
            said += more
        table, backlog = await service.events(game_id, after)
    except BaseException:
        hub.unsubscribe(subscription)
        guard.release(held)
        raise
    messages = _messages(
        subscription,
        table,
        backlog,
        seat,
        after,
        (said, min(chat_after, last)),
        settings.keep_alive_seconds,
        settings.stream_max_seconds,
    )
    return _Stream(hub, subscription, messages, lambda: guard.release(held))
