"""GET /api/tables/stream: the forming tables, live, as server-sent events.

Each API process runs one watcher: once a second, while anyone here watches the lobby, it
reads `tables:version` (one key that every change to a table counts up); when that moved, or
a listed table's time ran out, it reads the lobby once and hands it to every stream of the
process. Each message is event `tables` with the lobby as data (`{"tables": [...]}`), sent at
once and again at each change; a comment keeps a quiet stream alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Callable
from typing import Any

import msgspec
from litestar import Request, get
from litestar.response import ServerSentEvent, ServerSentEventMessage
from litestar.response.base import ASGIResponse
from litestar.types import Receive, Scope, Send

from app.api.guard import Guard
from app.api.http import client_address
from app.base.config import Settings
from app.commands.errors import StreamsFull
from app.people.forming import OpenTableView
from app.people.hosting import Hosting

log = logging.getLogger(__name__)


class TableList(msgspec.Struct, frozen=True):
    tables: list[OpenTableView]


_encoder = msgspec.json.Encoder()


class LobbyWatch:
    """The process's lobby streams, and the task that tells them of changes."""

    def __init__(self, hosting: Hosting, poll_seconds: float = 1.0, most: int = 20000) -> None:
        self._hosting = hosting
        self._poll = poll_seconds
        self._most = most
        self._queues: set[asyncio.Queue[str]] = set()

    @property
    def watchers(self) -> int:
        return len(self._queues)

    async def listing(self) -> tuple[str, int | None]:
        """The lobby as JSON text, and when the first of its tables closes (ms)."""
        tables = await self._hosting.lobby()
        closes = min((t.closes_at for t in tables), default=None)
        return _encoder.encode(TableList(tables)).decode(), closes

    def subscribe(self) -> asyncio.Queue[str]:
        """A queue that is given the lobby at each change (only the latest is kept)."""
        if len(self._queues) >= self._most:
            raise StreamsFull("This server streams the lobby to as many as it can; try again.")
        queue: asyncio.Queue[str] = asyncio.Queue(maxsize=1)
        self._queues.add(queue)
        return queue

    def unsubscribe(self, queue: asyncio.Queue[str]) -> None:
        self._queues.discard(queue)

    @contextlib.asynccontextmanager
    async def running(self) -> AsyncIterator[LobbyWatch]:
        task = asyncio.create_task(self._watch(), name="lobby-watch")
        try:
            yield self
        finally:
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _watch(self) -> None:
        version: int | None = None
        last: str | None = None
        closes: int | None = None
        while True:
            await asyncio.sleep(self._poll)
            if not self._queues:
                version = last = None
                continue
            try:
                now_version = await self._hosting.tables.version()
                due = closes is not None and self._hosting.tables.clock() >= closes
                if now_version == version and not due:
                    continue
                data, closes = await self.listing()
                version = now_version
            except Exception as error:  # Redis away: the streams wait, and try again
                log.warning("the lobby's watcher could not read the tables: %s", error)
                continue
            if data != last:
                last = data
                for queue in list(self._queues):
                    if queue.full():
                        queue.get_nowait()
                    queue.put_nowait(data)


class _LobbyStream(ServerSentEvent):
    """An SSE response that gives back what it held once sent, whether the client stayed."""

    def __init__(self, content: Any, ended: Callable[[], None]) -> None:
        super().__init__(content)
        self._ended = ended

    def to_asgi_response(self, *args: Any, **kwargs: Any) -> ASGIResponse:
        sender = super().to_asgi_response(*args, **kwargs)
        ended = self._ended

        class Leaving:
            async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
                try:
                    await sender(scope, receive, send)
                finally:
                    ended()

        return Leaving()  # type: ignore[return-value]


async def _messages(
    queue: asyncio.Queue[str], first: str, keep_alive: float, lifetime: float
) -> AsyncIterator[ServerSentEventMessage]:
    loop = asyncio.get_running_loop()
    end = loop.time() + lifetime
    yield ServerSentEventMessage(event="tables", data=first)
    while (left := end - loop.time()) > 0:
        try:
            data = await asyncio.wait_for(queue.get(), min(keep_alive, left))
        except TimeoutError:
            if loop.time() < end:
                yield ServerSentEventMessage(comment="keep-alive", data=None)
            continue
        yield ServerSentEventMessage(event="tables", data=data)


@get("/api/tables/stream")
async def tables_stream(request: Request[Any, Any, Any]) -> ServerSentEvent:
    """The forming tables now, then again at each change, as server-sent events."""
    watch: LobbyWatch = request.app.state.lobby
    settings: Settings = request.app.state.settings
    guard: Guard = request.app.state.guard
    address = client_address(request)
    await guard.admit("stream", address)
    held = guard.hold(address)
    try:
        queue = watch.subscribe()
    except BaseException:
        guard.release(held)
        raise

    def ended() -> None:
        watch.unsubscribe(queue)
        guard.release(held)

    try:  # read before the answer starts: a Redis away is a 503, not a cut stream
        first, _ = await watch.listing()
    except BaseException:
        ended()
        raise
    messages = _messages(queue, first, settings.keep_alive_seconds, settings.stream_max_seconds)
    return _LobbyStream(messages, ended)
