"""The seats' sockets served straight from the server's connections, below ASGI and Litestar.

`python -m app` gives uvicorn `SeatWire.of(app)` as its WebSocket protocol. An upgrade to
`/api/games/{id}/socket` is answered here: the handshake by `app.wire.handshake` when it is
plain, else by the `websockets` library's sans-I/O protocol; the frames both ways by
`app.wire.frames` (read as they come, written straight to the transport), and the seat's
`app.api.socket.Connection` (the same one the Litestar route runs) on top.
A message costs no ASGI event, no Litestar wrapper and no pause and resume of reading (what
uvicorn's own WebSocket protocols do per message); `docs/benchmarks.md` has the measurements.
An upgrade to any other path goes on to uvicorn's WebSocket protocol and the app, as before.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import os
import re
from typing import Any, ClassVar, cast
from urllib.parse import parse_qs, unquote

from litestar import Litestar
from websockets.http11 import Request
from websockets.server import ServerProtocol

from app.api.callers import address_of
from app.api.socket import MAX_MESSAGE, Connection, Gone
from app.base.config import Settings
from app.wire.frames import (
    BINARY,
    CLOSE,
    PING,
    PONG,
    TEXT,
    Failure,
    FrameReader,
    close_code,
    close_payload,
    frame,
)
from app.wire.guarded import GuardedSansIO
from app.wire.handshake import Upgrade, plain_upgrade

log = logging.getLogger(__name__)
#: The protocol's own lines: a connection opened and closed at INFO, each time. Per connection
#: lines are the access log's (`ACCESS_LOG=1`); without it, only its warnings are kept.
protocol_log = logging.getLogger(f"{__name__}.protocol")

#: The request line of an upgrade this module serves: the game and the query.
_SEAT_SOCKET = re.compile(rb"GET /api/games/([^/?# ]+)/socket(?:\?([^# ]*))? HTTP/1\.1\r\n")
#: Messages taken from the client and not yet read before reading pauses.
_INBOX = 16
#: Seconds the client has to answer this side's close before the connection is cut.
CLOSE_SECONDS = 10.0
#: Pings a client may send while it reads nothing (its pongs would only pile up here): past
#: them it is closed with 1008 and the connection dropped.
UNREAD_PINGS = 64


def seat_upgrade(request: bytes) -> tuple[re.Match[bytes], Upgrade] | None:
    """`request` is a whole, plain upgrade to a seat's socket (`app.wire.handshake`): its
    request line and its answer; None for anything else."""
    found = _SEAT_SOCKET.match(request)
    if found is None:
        return None
    plain = plain_upgrade(request)
    return None if plain is None else (found, plain)


class SeatWire(asyncio.Protocol):
    """One upgraded connection: a seat's socket (a `Link` for its `Connection`), or handed on."""

    app: ClassVar[Litestar]

    @classmethod
    def of(cls, app: Litestar, *, access_log: bool = False) -> type[SeatWire]:
        """The protocol class that serves this app's seat sockets (for `uvicorn.Config(ws=)`)."""
        protocol_log.setLevel(logging.INFO if access_log else logging.WARNING)
        return type("SeatWire", (cls,), {"app": app})

    def __init__(self, config: Any, server_state: Any, app_state: dict[str, Any]) -> None:
        self.config, self.server_state, self.app_state = config, server_state, app_state
        self.loop = asyncio.get_running_loop()
        self.transport: asyncio.Transport | None = None
        self.handshake: ServerProtocol | None = None  # until the upgrade is answered
        self.reader: FrameReader | None = None  # from then on
        self.open = False  # upgraded, and no close sent or received
        self.inbox: collections.deque[bytes] = collections.deque()
        self.waiter: asyncio.Future[bytes | None] | None = None
        self.left = False  # the client closed or the connection was lost
        self.closing = False  # this side has sent its close
        self.paused = False
        self.writable = asyncio.Event()
        self.writable.set()
        self.timer: asyncio.TimerHandle | None = None  # the next ping, or the close deadline
        self.ping: bytes | None = None  # the payload of the ping awaiting its pong
        self.unread = 0  # pings not answered while the client read nothing
        self.unanswered: bytes | None = None  # the latest of them, answered once it reads
        # what a Link tells
        self.game_id = ""
        self.address = "unknown"
        self.ticket: str | None = None
        self.authorization: str | None = None

    # -- asyncio.Protocol ------------------------------------------------------------------

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.server_state.connections.add(self)

    def data_received(self, data: bytes) -> None:
        reader = self.reader
        if reader is None:
            self._upgrade(data)
            return
        try:
            frames = reader.feed(data)
        except Failure as failure:
            self._fail(failure.code, failure.reason)
            return
        for opcode, payload in frames:
            if opcode in (TEXT, BINARY):
                self._deliver(payload)
            elif opcode == PING:
                if not self.open:
                    continue
                if self.writable.is_set():
                    self._write(frame(PONG, payload))
                    continue
                self.unread += 1  # the client sends but does not read what it is sent
                self.unanswered = payload  # answered once it reads again (the latest only)
                if self.unread > UNREAD_PINGS:
                    self._drop(1008, "read what you are sent")
                    return
            elif opcode == PONG:
                if self.open and payload == self.ping:
                    self.ping = None
                    self._keep_alive()
            elif opcode == CLOSE:
                self._closed_by_client(payload)
                return

    def eof_received(self) -> bool:
        self._gone()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)
        self._cancel_timer()
        self._gone()
        self.writable.set()  # a send waiting for the buffer to drain ends (with Gone)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.unread = 0
        if self.unanswered is not None:
            self._write(frame(PONG, self.unanswered))
            self.unanswered = None
        self.writable.set()

    def shutdown(self) -> None:
        """uvicorn stops: close (1012, as its own protocols do) and let the client reconnect."""
        if self.open:
            self._close(1012, "the server is restarting: reconnect")
        elif self.transport is not None:
            self.transport.close()

    # -- the Link of the seat's Connection -------------------------------------------------

    async def receive(self) -> bytes | None:
        if self.inbox:
            message = self.inbox.popleft()
            if self.paused and len(self.inbox) < _INBOX // 2 and self.transport is not None:
                self.paused = False
                self.transport.resume_reading()
            return message
        if self.left:
            return None
        self.waiter = self.loop.create_future()
        try:
            return await self.waiter
        finally:
            self.waiter = None

    async def send(self, data: bytes) -> None:
        if not self.open or self.transport is None or self.transport.is_closing():
            raise Gone("the connection is closed")
        self.transport.write(frame(TEXT, data))
        if not self.writable.is_set():  # the client reads slower than it is sent to
            await self.writable.wait()

    def ready(self) -> bool:
        transport = self.transport
        return (
            self.open
            and self.writable.is_set()
            and transport is not None
            and not transport.is_closing()
        )

    def send_now(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(frame(TEXT, data))

    async def close(self, code: int, reason: str) -> None:
        if self.open:
            self._close(code, reason)

    # -- inside ----------------------------------------------------------------------------

    def upgraded(self, found: re.Match[bytes], plain: Upgrade) -> None:
        """Answer a plain upgrade to a seat's socket (`seat_upgrade`) and serve the socket."""
        self._take(found)
        protocol_log.info("connection open")
        forwarded = [] if plain.forwarded is None else [plain.forwarded]
        self._open(plain.answer, plain.authorization, forwarded)

    def _upgrade(self, data: bytes) -> None:
        """The upgrade request (uvicorn gives it whole): a seat's socket is answered here."""
        if self.handshake is None:
            found = _SEAT_SOCKET.match(data)
            if found is None:
                self._hand_on(data)
                return
            plain = plain_upgrade(data)
            if plain is not None:  # answered here, as `websockets` would
                self.upgraded(found, plain)
                return
            self._take(found)
            self.handshake = ServerProtocol(max_size=MAX_MESSAGE, logger=protocol_log)
        self.handshake.receive_data(data)
        for event in self.handshake.events_received():
            if isinstance(event, Request):
                self._accept(self.handshake, event)
                return

    def _take(self, found: re.Match[bytes]) -> None:
        """What the request line tells: the game and the ticket."""
        self.game_id = unquote(found.group(1).decode("latin-1"))
        query = parse_qs((found.group(2) or b"").decode("latin-1"))
        self.ticket = query["ticket"][0] if "ticket" in query else None

    def _hand_on(self, data: bytes) -> None:
        """Not a seat's socket: uvicorn's WebSocket protocol and the app take the connection
        (this protocol stays the transport's and passes every call on to it)."""
        assert self.transport is not None
        self.server_state.connections.discard(self)
        self.other = other = GuardedSansIO(
            config=self.config, server_state=self.server_state, app_state=self.app_state
        )
        for name in ("data_received", "eof_received", "connection_lost"):
            setattr(self, name, getattr(other, name))
        for name in ("pause_writing", "resume_writing", "shutdown"):
            setattr(self, name, getattr(other, name))
        other.connection_made(self.transport)
        other.data_received(data)

    def _accept(self, handshake: ServerProtocol, request: Request) -> None:
        response = handshake.accept(request)
        handshake.send_response(response)
        answer = b"".join(handshake.data_to_send())
        self.handshake = None
        if response.status_code != 101:
            self._write(answer)
            self._cut()
            return
        headers = request.headers
        self._open(answer, headers.get("Authorization"), headers.get_all("X-Forwarded-For"))

    def _open(self, answer: bytes, authorization: str | None, forwarded: list[str]) -> None:
        """Send the upgrade's 101 answer and serve the seat's socket."""
        self._write(answer)
        self.open = True
        self.reader = FrameReader(MAX_MESSAGE)
        self.authorization = authorization
        self.address = self._address(forwarded)
        task = self.loop.create_task(self._serve(), name=f"ws:{self.game_id}")
        self.server_state.tasks.add(task)
        task.add_done_callback(self.server_state.tasks.discard)
        self._keep_alive()

    def _address(self, forwarded: list[str]) -> str:
        """Who is asking (`app.api.callers.address_of`)."""
        settings: Settings = self.app.state.settings
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        return address_of(str(peer[0]) if peer else None, forwarded, settings)

    async def _serve(self) -> None:
        try:
            await Connection(self, self.app.state).serve()
        except (Gone, OSError):
            pass
        except Exception:
            log.exception("a seat's socket failed")
            await self.close(1011, "internal error")
        else:
            await self.close(1000, "")

    def _deliver(self, message: bytes) -> None:
        if self.closing:
            return  # this side is closing: what the client still sends is not read
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(message)
            return
        self.inbox.append(message)
        if len(self.inbox) >= _INBOX and not self.paused and self.transport is not None:
            self.paused = True
            self.transport.pause_reading()

    def _gone(self) -> None:
        if not self.left:
            self.left = True
            if self.waiter is not None and not self.waiter.done():
                self.waiter.set_result(None)

    def _write(self, data: bytes) -> None:
        if self.transport is not None and not self.transport.is_closing():
            self.transport.write(data)

    def _closed_by_client(self, payload: bytes) -> None:
        """The client's close: the answer to this side's, or its own (answered with its code);
        either way the server then ends the TCP connection."""
        try:
            code = close_code(payload)
        except Failure as failure:
            self._fail(failure.code, failure.reason)
            return
        if self.open:
            self._write(frame(CLOSE, b"" if code is None else close_payload(code, "")))
        self.open = False
        self._gone()
        self._cut()

    def _fail(self, code: int, reason: str) -> None:
        """The client broke the protocol (or stopped answering): close with `code` and end the
        connection at once."""
        if self.open:
            self._write(frame(CLOSE, close_payload(code, reason)))
        self.open, self.closing = False, True
        self._gone()
        self._cut()

    def _drop(self, code: int, reason: str) -> None:
        """A client that reads nothing: its close is written (it may never read it) and the
        connection dropped at once, with whatever waits to be sent to it."""
        self._fail(code, reason)
        if self.transport is not None:
            self.transport.abort()

    def _close(self, code: int, reason: str) -> None:
        """Start the closing handshake; the connection is cut when the client answers, or
        after CLOSE_SECONDS."""
        self._write(frame(CLOSE, close_payload(code, reason)))
        self.open, self.closing = False, True
        self._gone()
        self._cancel_timer()
        if self.transport is not None and not self.transport.is_closing():
            self.timer = self.loop.call_later(CLOSE_SECONDS, self._cut)
            if self.paused:
                self.paused = False
                self.transport.resume_reading()  # to read the client's answer

    def _cut(self) -> None:
        self._cancel_timer()
        if self.transport is not None and not self.transport.is_closing():
            self.transport.close()

    def _keep_alive(self) -> None:
        """Ping every `ws_ping_interval` seconds; a client that does not answer within
        `ws_ping_timeout` is gone (1011), as with uvicorn's own protocols."""
        self._cancel_timer()
        interval = self.config.ws_ping_interval
        if interval:
            self.timer = self.loop.call_later(interval, self._send_ping)

    def _send_ping(self) -> None:
        self.timer = None
        if not self.open:
            return
        self.ping = os.urandom(4)
        self._write(frame(PING, self.ping))
        timeout = self.config.ws_ping_timeout
        if timeout:
            self.timer = self.loop.call_later(timeout, self._no_pong)

    def _no_pong(self) -> None:
        self.timer = None
        self._fail(1011, "keepalive ping timeout")

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
