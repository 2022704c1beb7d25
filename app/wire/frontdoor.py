"""Each new connection's first bytes, read before uvicorn's HTTP protocol is made.

`python -m app` gives uvicorn `FrontDoor.of(seat_wire)` as its HTTP protocol. A plain upgrade to
a seat's socket, whole in the connection's first bytes (`app.wire.seatwire.seat_upgrade`), goes
straight to `SeatWire`: no HTTP parser, no ASGI scope, and no request written out again for the
WebSocket protocol (what uvicorn does before it hands an upgrade on; every game a seat plays
opens a socket). Anything else goes to uvicorn's own HTTP protocol, given those bytes; it then
owns the connection as if it had been made for it (an upgrade it reads goes to `SeatWire` as
before).
"""

from __future__ import annotations

import asyncio
from typing import Any, ClassVar, cast

from uvicorn.protocols.http.auto import AutoHTTPProtocol

from app.wire.seatwire import SeatWire, seat_upgrade


class FrontDoor(asyncio.Protocol):
    """A new connection until its first bytes say who serves it."""

    seat_wire: ClassVar[type[SeatWire]]

    @classmethod
    def of(cls, seat_wire: type[SeatWire]) -> type[FrontDoor]:
        """The protocol class to give uvicorn (`uvicorn.Config(http=)`)."""
        return type("FrontDoor", (cls,), {"seat_wire": seat_wire})

    def __init__(
        self,
        config: Any,
        server_state: Any,
        app_state: dict[str, Any],
        _loop: asyncio.AbstractEventLoop | None = None,
    ) -> None:
        self.config, self.server_state, self.app_state = config, server_state, app_state
        self.loop = _loop
        self.transport: asyncio.Transport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass
        self.server_state.connections.add(self)  # uvicorn closes it when it stops

    def data_received(self, data: bytes) -> None:
        transport = self.transport
        assert transport is not None
        self.server_state.connections.discard(self)
        taken = seat_upgrade(data)
        if taken is not None:
            wire = self.seat_wire(self.config, self.server_state, self.app_state)
            transport.set_protocol(wire)
            wire.connection_made(transport)
            wire.upgraded(*taken)
            return
        http = AutoHTTPProtocol(  # type: ignore[call-arg]
            config=self.config,
            server_state=self.server_state,
            app_state=self.app_state,
            _loop=self.loop,
        )
        transport.set_protocol(http)
        http.connection_made(transport)
        http.data_received(data)

    def eof_received(self) -> bool:
        return False  # the client left before it asked anything: the transport closes

    def connection_lost(self, exc: Exception | None) -> None:
        self.server_state.connections.discard(self)

    def shutdown(self) -> None:
        """uvicorn stops: a connection that asked nothing yet is closed."""
        if self.transport is not None:
            self.transport.close()
