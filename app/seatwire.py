"""The seats' sockets served straight from the server's connections, below ASGI and Litestar.

`python -m app` gives uvicorn `SeatWire.of(app)` as its WebSocket protocol. An upgrade to
`/api/games/{id}/socket` is answered here: the handshake and the client's frames by the
`websockets` library's sans-I/O protocol, the server's text frames written straight to the
transport, and the seat's `app.socket.Connection` (the same one the Litestar route runs) on top.
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
import struct
from typing import Any, ClassVar, cast
from urllib.parse import parse_qs, unquote

from litestar import Litestar
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.exceptions import InvalidState
from websockets.frames import Frame, Opcode
from websockets.http11 import Request
from websockets.protocol import CLOSED, OPEN
from websockets.server import ServerProtocol

from app.config import Settings
from app.socket import MAX_MESSAGE, Connection, Gone

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


def frame_header(size: int) -> bytes:
    """The header of one unmasked, final text frame of `size` bytes (RFC 6455, 5.2)."""
    if size < 126:
        return bytes((0x81, size))
    if size < 1 << 16:
        return struct.pack("!BBH", 0x81, 126, size)
    return struct.pack("!BBQ", 0x81, 127, size)


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
        self.ws = ServerProtocol(max_size=MAX_MESSAGE, logger=protocol_log)
        self.inbox: collections.deque[bytes] = collections.deque()
        self.waiter: asyncio.Future[bytes | None] | None = None
        self.fragments: list[bytes] = []
        self.left = False  # the client closed or the connection was lost
        self.closing = False  # this side has sent its close
        self.paused = False
        self.writable = asyncio.Event()
        self.writable.set()
        self.timer: asyncio.TimerHandle | None = None  # the next ping, or the close deadline
        self.ping: bytes | None = None  # the payload of the ping awaiting its pong
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
        if self.ws.state is not OPEN and not self.game_id:  # the upgrade request
            found = _SEAT_SOCKET.match(data)
            if found is None:
                self._hand_on(data)
                return
            self._take(found)
        self.ws.receive_data(data)
        for event in self.ws.events_received():
            if isinstance(event, Frame):
                self._frame(event)
            elif isinstance(event, Request):
                self._accept(event)
        self._flush()

    def eof_received(self) -> None:
        self.ws.receive_eof()
        self._flush()

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)
        self._cancel_timer()
        self._gone()
        self.writable.set()  # a send waiting for the buffer to drain ends (with Gone)

    def pause_writing(self) -> None:
        self.writable.clear()

    def resume_writing(self) -> None:
        self.writable.set()

    def shutdown(self) -> None:
        """uvicorn stops: close (1012, as its own protocols do) and let the client reconnect."""
        if self.ws.state is OPEN:
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
        if self.ws.state is not OPEN or self.transport is None or self.transport.is_closing():
            raise Gone("the connection is closed")
        self.transport.write(frame_header(len(data)) + data)
        if not self.writable.is_set():  # the client reads slower than it is sent to
            await self.writable.wait()

    def ready(self) -> bool:
        transport = self.transport
        return (
            self.ws.state is OPEN
            and self.writable.is_set()
            and transport is not None
            and not transport.is_closing()
        )

    def send_now(self, data: bytes) -> None:
        assert self.transport is not None
        self.transport.write(frame_header(len(data)) + data)

    async def close(self, code: int, reason: str) -> None:
        if self.ws.state is OPEN:
            self._close(code, reason)

    # -- inside ----------------------------------------------------------------------------

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
        self.other = other = WebSocketsSansIOProtocol(
            config=self.config, server_state=self.server_state, app_state=self.app_state
        )
        for name in ("data_received", "eof_received", "connection_lost"):
            setattr(self, name, getattr(other, name))
        for name in ("pause_writing", "resume_writing", "shutdown"):
            setattr(self, name, getattr(other, name))
        other.connection_made(self.transport)
        other.data_received(data)

    def _accept(self, request: Request) -> None:
        response = self.ws.accept(request)
        self.ws.send_response(response)
        if response.status_code != 101:
            self._flush()
            self._cut()
            return
        self.authorization = request.headers.get("Authorization")
        self.address = self._address(request)
        task = self.loop.create_task(self._serve(), name=f"ws:{self.game_id}")
        self.server_state.tasks.add(task)
        task.add_done_callback(self.server_state.tasks.discard)
        self._keep_alive()

    def _address(self, request: Request) -> str:
        """Who is asking, as `app.http.client_address` tells it."""
        settings: Settings = self.app.state.settings
        if settings.trust_proxy:
            first = request.headers.get("X-Forwarded-For", "").split(",")[0].strip()
            if first:
                return first[:64]
        assert self.transport is not None
        peer = self.transport.get_extra_info("peername")
        return str(peer[0]) if peer else "unknown"

    async def _serve(self) -> None:
        try:
            await Connection(self, self.app.state).serve()
        except (Gone, OSError, InvalidState):
            pass
        except Exception:
            log.exception("a seat's socket failed")
            await self.close(1011, "internal error")
        else:
            await self.close(1000, "")

    def _frame(self, frame: Frame) -> None:
        opcode = frame.opcode
        if opcode is Opcode.TEXT or opcode is Opcode.BINARY or opcode is Opcode.CONT:
            self.fragments.append(bytes(frame.data))
            if frame.fin:
                message = b"".join(self.fragments)
                self.fragments = []
                self._deliver(message)
        elif opcode is Opcode.PONG:
            if self.ping is not None and bytes(frame.data) == self.ping and self.ws.state is OPEN:
                self.ping = None
                self._keep_alive()
        elif opcode is Opcode.CLOSE:  # the protocol has answered it (sent by _flush)
            self._gone()

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

    def _flush(self) -> None:
        """Write what the protocol has to send; cut the connection when it is over."""
        if self.transport is None:
            return
        for data in self.ws.data_to_send():
            if data:
                self.transport.write(data)
            else:  # the end of the stream: the server closes the TCP connection first
                self._cut()
                return
        if self.ws.state is CLOSED or self.ws.parser_exc is not None:
            self._gone()
            self._cut()

    def _close(self, code: int, reason: str) -> None:
        """Start the closing handshake; the connection is cut when the client answers, or
        after CLOSE_SECONDS."""
        self.closing = True
        self.ws.send_close(code, reason)
        self._flush()
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
        if self.ws.state is not OPEN:
            return
        self.ping = os.urandom(4)
        self.ws.send_ping(self.ping)
        self._flush()
        timeout = self.config.ws_ping_timeout
        if timeout:
            self.timer = self.loop.call_later(timeout, self._no_pong)

    def _no_pong(self) -> None:
        self.timer = None
        if self.ws.state is OPEN:
            self.ws.fail(1011, "keepalive ping timeout")
            self._flush()
            self._gone()
            self._cut()

    def _cancel_timer(self) -> None:
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
