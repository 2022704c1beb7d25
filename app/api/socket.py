"""GET /api/games/{id}/socket: a seat's persistent connection (a WebSocket).

What `POST .../commands` and `GET .../stream` do, on one connection and without a request per
command: commands go up, the seat's events come down, each event exactly once and in the order
of its version. The same refusals (status and code), idempotency keys and version checks as over
HTTP; a command is acknowledged only once its events are in the game's stream in Redis.

The messages (JSON text frames; `docs/api.md` has the details):

    -> {"type": "hello", "token": T, "after": N, "chat_after": M}     first, always (token:
                                                          unless sent otherwise; M: optional)
    <- {"type": "welcome", "game", "seat", "version"}, then the events after N, then the
       table's chat messages after M
    -> {"type": "command", "key": K, "command": {...}}    the body of POST .../commands
    -> {"type": "view", "hints": false}                   <- {"type": "view", "view": {...}}
    <- {"type": "applied", "key", "version", "replayed", "events"}
    <- {"type": "refused", "key", "status", "code", "message"}
    <- {"type": "events", "events": [...]}              the seat's view of new events, live
    <- {"type": "chat", "id", "at", "seat", "name", "text"}   each message of the table's chat

A connection acts only while the identity it said hello with does (a personal token, or a
ticket issued to a session or a personal token; a seat token is no identity): once that ends,
in any API process, it is refused 401 (`unknown_token`, `not_logged_in`) and closed with 4401
(`app.live.identities`: news of the end, and a recheck every `SOCKET_RECHECK_SECONDS`).
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Sequence
from typing import Annotated, Any, Literal, Protocol

import msgspec
from litestar import WebSocket, websocket
from litestar.datastructures import State
from litestar.exceptions import WebSocketDisconnect

from app.api.callers import caller_of, ended, resume_after
from app.api.guard import Guard
from app.api.http import checked_key, client_address, command_of, json_body
from app.api.input_errors import BadIdempotencyKey, BodyTooLarge, InvalidMessage, NoHello
from app.api.projection import entries, game_view
from app.api.refusals import judged
from app.api.tickets import Tickets
from app.api.wording import plainly
from app.commands.errors import Unauthorized, UnknownGame
from app.commands.service import GameService
from app.commands.table import Entry, Outcome, Table
from app.live.hub import Hub, Passed, Said, Subscription
from app.people.chat import Chat
from app.people.tokens import PersonalTokens
from app.store.chat import ChatMessage

log = logging.getLogger(__name__)

#: How long a new connection may take to say hello.
HELLO_SECONDS = 10.0
#: The largest message taken, as the largest HTTP body.
MAX_MESSAGE = 64 * 1024

_encoder = msgspec.json.Encoder()


class Welcome(msgspec.Struct, frozen=True, tag="welcome", tag_field="type"):
    game: str
    seat: int | None
    version: int


class Events(msgspec.Struct, frozen=True, tag="events", tag_field="type"):
    events: list[Any]


class Applied(msgspec.Struct, frozen=True, tag="applied", tag_field="type"):
    key: str | None
    version: int
    replayed: bool
    events: list[Any]


class Refused(msgspec.Struct, frozen=True, tag="refused", tag_field="type"):
    key: str | None
    status: int
    code: str
    message: str


class View(msgspec.Struct, frozen=True, tag="view", tag_field="type"):
    view: Any


class ChatLine(msgspec.Struct, frozen=True, tag="chat", tag_field="type"):
    """A message of the table's chat (`app.store.chat.ChatMessage`, tagged)."""

    id: int
    at: int
    seat: int
    name: str
    text: str

    @classmethod
    def of(cls, message: ChatMessage) -> ChatLine:
        return cls(message.id, message.at, message.seat, message.name, message.text)


class Hello(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    type: str
    token: str | None = None
    after: int = 0
    chat_after: Annotated[int, msgspec.Meta(ge=0)] = 0


@functools.cache
def _envelope(command_type: Any) -> msgspec.json.Decoder[Any]:
    """A decoder of `{"type": "command", "key": K, "command": C}` for one game's commands."""
    fields: list[Any] = [("type", Literal["command"]), ("command", command_type)]
    fields.append(("key", Any, None))
    return msgspec.json.Decoder(msgspec.defstruct("CommandMessage", fields))


class Closing(Exception):
    """Refused for good: the connection closes with 4000 + the refusal's status."""

    def __init__(self, refused: Refused) -> None:
        super().__init__(refused.message)
        self.refused = refused


def refused(error: BaseException, key: str | None = None) -> Refused:
    """The refusal of an error, with the status and code the HTTP routes give it."""
    if known := judged(error):
        return Refused(key, *known)
    log.error("unexpected error on a game socket", exc_info=error)
    return Refused(key, 500, "internal_error", "Something went wrong on our side.")


class Gone(Exception):
    """The connection is closed: nothing more goes out on it."""


class Link(Protocol):
    """One WebSocket connection as a seat's connection uses it, whoever serves it: Litestar
    (`AsgiLink`, under any ASGI server) or `python -m app` straight from its sockets
    (`app.wire.seatwire`)."""

    game_id: str
    address: str  # who is asking, for the limits
    ticket: str | None  # `?ticket=`
    authorization: str | None  # the `Authorization` header

    async def receive(self) -> bytes | None:
        """The next message's bytes (text or binary); None once the client has left."""

    async def send(self, data: bytes) -> None:
        """Send one text message (UTF-8 JSON); `Gone` once the connection is closed."""

    def ready(self) -> bool:
        """A message can be written at once (`send_now`): open, and the client reading."""

    def send_now(self, data: bytes) -> None:
        """Write one text message now (only when `ready`)."""

    async def close(self, code: int, reason: str) -> None:
        """Close with this code and reason."""


def _sized(raw: bytes) -> bytes:
    if len(raw) > MAX_MESSAGE:
        raise BodyTooLarge("A message is at most 64 KiB.")
    return raw


class Connection:
    """One seat's (or a spectator's) connection to one game."""

    def __init__(self, link: Link, state: State) -> None:
        self.link = link
        self.service: GameService = state.service
        self.hub: Hub = state.hub
        self.guard: Guard = state.guard
        self.tickets: Tickets = state.tickets
        self.personal: PersonalTokens = state.people.tokens
        self.chat: Chat = state.people.chat
        self.game_id = link.game_id
        self.seat: int | None = None
        self.identity: tuple[str, ...] = ()  # the keys of the identity it acts with
        self.sent = 0  # the version of the last event sent
        self.said = 0  # the id of the last chat message sent
        self.turn = asyncio.Lock()  # held while sending events and moving `sent`
        self.table: Table | None = None
        self.closed = False
        self._subscription = Subscription(self.game_id, 1)  # the hub's, once subscribed

    async def send(self, message: Any) -> None:
        if not self._sent(message):
            if self.closed:
                raise Gone("this side closed the connection")
            await self.link.send(_encoder.encode(message))

    def _sent(self, message: Any) -> bool:
        """Write the message there and then if the link can take it now (no await: an answer
        goes out through no coroutine of its own); False when it could not."""
        if self.closed or not self.link.ready():
            return False
        self.link.send_now(_encoder.encode(message))
        return True

    async def close(self, code: int, reason: str) -> None:
        """Close once; whatever would be sent after is not."""
        if not self.closed:
            self.closed = True
            await self.link.close(code, reason)

    async def serve(self) -> None:
        try:
            await self.guard.admit("stream", self.link.address)
            held = self.guard.hold(self.link.address)
        except Exception as error:
            await self._refuse(Closing(refused(error)))
            return
        try:
            await self._serve()
        finally:
            self.guard.release(held)

    async def _refuse(self, closing: Closing) -> None:
        await self.send(closing.refused)
        await self.close(4000 + closing.refused.status, closing.refused.code)

    async def _serve(self) -> None:
        try:
            table, after, (said, last) = await self._greet()
        except Closing as closing:
            await self._refuse(closing)
            return
        self._subscription = subscription = self.hub.subscribe(
            table, said=last, identity=self.identity
        )
        pusher: asyncio.Task[None] | None = None
        try:
            await self.send(Welcome(table.game.name, self.seat, table.version))
            if subscription.heard > last:  # passed on here before this connection joined
                more, last = await self.chat.messages(self.game_id, last)
                said += more
            table, backlog = await self.service.events(self.game_id, after)
            self.table, self.sent = table, after
            if backlog:
                await self.send(Events(entries(table, backlog, self.seat)))
                self.sent = backlog[-1].version
            for line in said:
                await self.send(ChatLine.of(line))
                self.said = line.id
            pusher = asyncio.create_task(self._push(), name=f"ws:{self.game_id}")
            subscription.sink = self._sent_now
            while (message := await self.link.receive()) is not None:
                await self._command(message)
        finally:
            if pusher is not None:
                pusher.cancel()
                with contextlib.suppress(asyncio.CancelledError, Gone, OSError):
                    await pusher
            self.hub.unsubscribe(subscription)

    async def _greet(self) -> tuple[Table, int, tuple[list[ChatMessage], int]]:
        """The hello: who the caller is, where its events resume, and the chat it lacks (the
        messages after its `chat_after`, and the id of the chat's last message)."""
        try:
            async with asyncio.timeout(HELLO_SECONDS):  # (no task of its own, as `wait_for` has)
                message = await self.link.receive()
        except TimeoutError:
            raise Closing(refused(NoHello("Say hello first."))) from None
        if message is None:
            raise Gone("left before hello")
        try:
            raw = json_body(_sized(message), InvalidMessage)
            if not isinstance(raw, dict) or raw.get("type") != "hello":
                raise InvalidMessage(
                    'The first message is {"type": "hello", "token": ..., "after": ...}.',
                )
            try:
                hello = msgspec.convert(raw, Hello)
            except msgspec.ValidationError as error:
                reason = f"The hello is not valid: {plainly(error)}"
                raise InvalidMessage(reason) from error
            table = await self.service.load(self.game_id)
            self.seat, self.identity = await caller_of(
                table,
                self.tickets,
                ticket=self.link.ticket,
                authorization=self.link.authorization,
                token=hello.token,
                personal=self.personal,
            )
            resume_after(table, hello.after)
            said, last = await self.chat.messages(self.game_id, hello.chat_after)
        except Exception as error:
            raise Closing(refused(error)) from error
        self.said = min(hello.chat_after, last)
        return table, hello.after, (said, last)

    async def _command(self, message: bytes) -> None:
        key = None
        try:
            data = _sized(message)
            fast = self._decoded(data)
            if fast is None:
                raw = json_body(data, InvalidMessage)
                if isinstance(raw, dict) and raw.get("type") == "view":
                    await self._view(raw.get("hints") is True)
                    return
                if not isinstance(raw, dict) or raw.get("type") != "command":
                    raise InvalidMessage(
                        'A message is {"type": "command", "key": ..., "command": {...}} '
                        'or {"type": "view"}.',
                    )
                given = raw.get("key")
            else:
                given = fast.key
            if given is not None:
                if not isinstance(given, str):
                    raise BadIdempotencyKey("A key is a string.")
                key = checked_key(given)
            if self.seat is None:
                raise Unauthorized("Send your seat's token in the hello to send commands.")
            if self._subscription.ended is not None:
                raise ended(self._subscription.ended)
            await self.guard.admit("command", self.link.address)
            service = self.service
            table = service.cached(self.game_id) or await service.current(self.game_id)
            if fast is None:
                kind = service.catalogue[table.game.name]
                tags = service.catalogue.command_tags
                command, expected = command_of(kind, raw.get("command"), tags)
            else:
                command, expected = fast.command, None
        except Gone:
            raise  # the client went away: nothing to answer (`serve` ends quietly)
        except Exception as error:
            await self.send(refused(error, key))
            return
        async with self.turn:  # no event goes out on its own until the answer has gone
            if waiting := self._waiting():
                await self._pass_on(waiting)
            try:
                after, outcome = await service.execute(
                    self.game_id,
                    self.seat,
                    command,
                    expected_version=expected,
                    idempotency_key=key,
                    loaded=table,
                    answering=self._subscription,  # its events go in the answer
                )
            except Gone:
                raise
            except Exception as error:
                await self.send(refused(error, key))
                return
            await self._acknowledge(key, after, outcome)

    def _decoded(self, data: bytes) -> Any:
        """A command message decoded straight to the game's command (`key`, `command`), or
        None for any other message (the careful path decodes it and says what is wrong)."""
        if self.table is None or b"expected_version" in data:
            return None
        try:
            return _envelope(self.table.game.command_type).decode(data)
        except msgspec.DecodeError:
            return None

    async def _view(self, hints: bool) -> None:
        """The caller's view now, as `GET /api/games/{id}` answers it."""
        if self._subscription.ended is not None:
            raise ended(self._subscription.ended)
        await self.guard.admit("view", self.link.address)
        table = await self.service.load(self.game_id)
        await self.send(View(game_view(table, self.seat, self.service.clock(), hints=hints)))

    def _waiting(self) -> list[Passed]:
        """What the hub has brought and the pusher has not taken yet."""
        queue = self._subscription.queue
        waiting: list[Passed] = []
        while not queue.empty():
            delivery = queue.get_nowait()
            if delivery is None:  # the end: the pusher's to act on
                queue.put_nowait(None)
                break
            waiting.append(delivery)
        return waiting

    async def _acknowledge(self, key: str | None, after: Table, outcome: Outcome) -> None:
        """The answer to a command, with the events up to its version that this connection
        has not sent yet: any before its own (read, when the hub has not brought them), then
        its own (unless a replayed command's were sent already)."""
        first = outcome.entries[0].version if outcome.entries else outcome.version + 1
        missing: list[Entry] = []
        if self.sent < first - 1:
            _, read = await self.service.events(self.game_id, self.sent)
            missing = [e for e in read if e.version < first]
        own = [e for e in outcome.entries if e.version > self.sent]
        shown = entries(after, [*missing, *own], self.seat)
        answer = Applied(key, outcome.version, outcome.replayed, shown)
        if not self._sent(answer):
            await self.send(answer)
        self.sent = max(self.sent, outcome.version)

    async def _pass_on(self, deliveries: Sequence[Passed]) -> None:
        """Send the deliveries this connection has not sent yet: the events between two chat
        messages as one message."""
        for message in self._shown(deliveries):
            await self.send(message)

    def _sent_now(self, deliveries: Sequence[Passed]) -> bool:
        """The hub's sink: its deliveries written there and then when nothing is in flight on
        this connection (no command being answered, no push being sent, the client reading);
        False to have them queued for the pusher."""
        if self.turn.locked() or self.closed or not self.link.ready():
            return False
        if self._subscription.ended is not None:
            return False  # the pusher refuses and closes
        for message in self._shown(deliveries):
            self.link.send_now(_encoder.encode(message))
        return True

    def _shown(self, deliveries: Sequence[Passed]) -> list[Events | ChatLine]:
        """The deliveries not sent yet, as the seat may see them, in order (events in between
        chat messages together); they count as sent."""
        assert self.table is not None
        messages: list[Events | ChatLine] = []
        shown: list[Any] = []
        for delivery in deliveries:
            if isinstance(delivery, Said):
                if delivery.message.id > self.said:
                    if shown:
                        messages.append(Events(shown))
                        shown = []
                    messages.append(ChatLine.of(delivery.message))
                    self.said = delivery.message.id
                continue
            if delivery.entry.version <= self.sent:
                continue
            shown += entries(self.table, [delivery.entry], self.seat, over=delivery.over)
            self.sent = delivery.entry.version
        if shown:
            messages.append(Events(shown))
        return messages

    async def _push(self) -> None:
        """Live events from the hub, as the seat may see each; the connection closes when the
        hub ends it (1012: the process stops) or drops it (1013: it fell too far behind), and
        the client reconnects with the last version it has; or, when the game was deleted,
        with the refusal a new connection would get (404 `unknown_game`, closed with 4404); or,
        when the identity it acts with ended, with that refusal (401, closed with 4401)."""
        subscription = self._subscription
        while True:
            delivery = await subscription.queue.get()
            if subscription.ended is not None:
                refusal = refused(ended(subscription.ended))
                await self.send(refusal)
                await self.close(4401, refusal.code)
                return
            async with self.turn:
                waiting = [] if delivery is None else [delivery, *self._waiting()]
                await self._pass_on(waiting)
            if delivery is None and subscription.gone:
                gone = Refused(None, 404, UnknownGame.code, "There is no game with that id.")
                await self.send(gone)
                await self.close(4404, gone.code)
                return
            if delivery is None:
                await self.close(1012, "the server is restarting: reconnect")
                return
            if subscription.dropped and subscription.queue.empty():
                await self.close(1013, "too far behind: reconnect")
                return


class AsgiLink:
    """A `Link` over Litestar's WebSocket."""

    def __init__(self, socket: WebSocket[Any, Any, Any]) -> None:
        self.socket = socket
        self.game_id: str = socket.path_params["game_id"]
        self.address = client_address(socket)
        self.ticket: str | None = socket.query_params.get("ticket")
        self.authorization: str | None = socket.headers.get("authorization")

    async def receive(self) -> bytes | None:
        message = await self.socket.receive()
        if message["type"] == "websocket.disconnect":
            return None
        text, data = message.get("text"), message.get("bytes")
        if isinstance(text, str):
            return text.encode()
        return data if isinstance(data, bytes) else b""

    async def send(self, data: bytes) -> None:
        try:
            await self.socket.send_text(data.decode())
        except (WebSocketDisconnect, OSError) as gone:  # the server's ClientDisconnected too
            raise Gone(str(gone) or type(gone).__name__) from gone

    def ready(self) -> bool:
        return False  # every message goes through the ASGI server's `send`

    def send_now(self, data: bytes) -> None:
        raise NotImplementedError("an ASGI connection sends with `send`")

    async def close(self, code: int, reason: str) -> None:
        with contextlib.suppress(WebSocketDisconnect, OSError):
            await self.socket.close(code, reason)


@websocket("/api/games/{game_id:str}/socket")
async def game_socket(socket: WebSocket[Any, Any, Any]) -> None:
    """A seat's persistent connection: commands up, the seat's events down. `python -m app`
    serves this path itself (`app.wire.seatwire`); this route serves it under any other ASGI
    server."""
    await socket.accept()
    with contextlib.suppress(Gone, WebSocketDisconnect, OSError):
        await Connection(AsgiLink(socket), socket.app.state).serve()
