"""uvicorn's sans-I/O WebSocket protocol held to the bounds of `app.wire.frames`: what serves the
seat's socket through Litestar's route (`ASGI_SOCKETS=1`) and any other WebSocket path.

uvicorn's protocol keeps every fragment of a message and answers every ping, whatever its send
buffer holds; a client could make it hold memory without bound. Here every frame the client
sends is read by a `FrameReader` first (frames per message, bytes per message, UTF-8 of text),
and pings are counted while the client reads nothing; a breach closes the connection with its
code before uvicorn's protocol sees the bytes.
"""

from __future__ import annotations

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.server import ServerProtocol

from app.api.socket import MAX_MESSAGE
from app.wire.frames import CLOSE as CLOSE_FRAME
from app.wire.frames import PING, Failure, FrameReader, close_payload, frame

#: As `app.wire.seatwire.UNREAD_PINGS`: pings a client may send while it reads nothing.
UNREAD_PINGS = 64


class GuardedSansIO(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol with the client's frames checked before it reads them."""

    def __init__(self, *args: object, **kwargs: object) -> None:
        super().__init__(*args, **kwargs)  # type: ignore[arg-type]
        # No extension, as below ASGI: the messages are small JSON, and a compressed frame
        # (RSV1) could not be read by the guard.
        self.conn = ServerProtocol(
            extensions=[], max_size=self.config.ws_max_size, logger=self.conn.logger
        )
        self.guard = FrameReader(MAX_MESSAGE)
        self.unread = 0
        self.head: bytes | None = b""  # the upgrade request so far; None once it is whole

    def data_received(self, data: bytes) -> None:
        frames = data
        if self.head is not None:  # what follows the request's headers are frames already
            self.head += data
            end = self.head.find(b"\r\n\r\n")
            if end < 0:
                super().data_received(data)
                return
            frames, self.head = self.head[end + 4 :], None
        if frames and not self._checked(frames):
            return
        super().data_received(data)

    def _checked(self, data: bytes) -> bool:
        """Whether the client's frames keep within the bounds (else it is refused)."""
        try:
            frames = self.guard.feed(data)
        except Failure as failure:
            self._refuse(failure.code, failure.reason)
            return False
        for opcode, _ in frames:
            if opcode == PING and not self.writable.is_set():
                self.unread += 1
                if self.unread > UNREAD_PINGS:
                    self._refuse(1008, "read what you are sent")
                    return False
        return True

    def resume_writing(self) -> None:
        self.unread = 0
        super().resume_writing()

    def _refuse(self, code: int, reason: str) -> None:
        """Close with `code` and drop the connection (the app hears a disconnect)."""
        self.transport.write(frame(CLOSE_FRAME, close_payload(code, reason)))
        self.transport.abort()
