"""Listening to the games' news channels: one connection per Redis server (per cluster node),
subscribed (SSUBSCRIBE) to the channels ``game:{ID}:news`` of the games the hub has
subscribers for. A channel carries a game's new version, `GONE`, or ``c<n>``: the game's chat
has message n (`app.store.chat`), told to the hub's `chat` callback. Each listens as well to
``people:{ends}:news`` (`app.store.ends`): the identities that ended, told to its `ended`
callback (and None when that subscription is made again: what was missed meanwhile is asked).

`WireListener` serves a server reached over plain TCP with a protocol of its own: hiredis parses
the pushes inside the connection's callback and the hub is told there and then, with no task
woken, no poll and no timeout scope per notification (redis-py's PubSub loop cost about 7% of a
socket command's CPU under load; `docs/benchmarks.md`). `PubSubListener` keeps redis-py's PubSub
for the rest (fakeredis, TLS, a Unix socket).

Both subscribe again to everything after their connection is made again (0.5 s after it is
lost), and the confirmation of each subscription makes the hub read the game: nothing between
a subscriber's load and its subscription, or during a lost connection, is missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable
from typing import Any, Protocol, cast

import hiredis
from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.store.chat import chat_news
from app.store.ends import ENDS, ended_of
from app.store.pipe import Arg, pack, plain_tcp

log = logging.getLogger(__name__)

#: The hub's `notify(game_id, version)`: the game has news (up to `version`, when known).
Notify = Callable[[str, int | None], None]
#: The hub's `chatted(game_id, number)`: the game's chat has message `number`.
Chatted = Callable[[str, int], None]
#: The hub's `ended(keys)`: these identities ended (None: listening again, so recheck them all).
Ended = Callable[[list[str] | None], None]
#: How long to wait before listening again after the connection was lost.
AGAIN_SECONDS = 0.5


class Listener(Protocol):
    want: set[str]  # the channels it is to be subscribed to

    def add(self, channel: str) -> None: ...

    def remove(self, channel: str) -> None: ...

    async def aclose(self) -> None: ...


def listener(
    notify: Notify,
    client: Redis,
    *,
    owned: bool,
    chat: Chatted | None = None,
    ended: Ended | None = None,
) -> Listener:
    """A listener on the server of `client` (`owned`: the PubSub listener closes the client;
    the wire listener never uses it); chat news goes to `chat`, identities' ends to `ended`
    (none: not told)."""
    return WireListener.of(notify, client, chat, ended) or PubSubListener(
        notify, client, owned=owned, chat=chat, ended=ended
    )


def _told(
    notify: Notify, reply: Any, chat: Chatted | None = None, ended: Ended | None = None
) -> None:
    """Tell the hub what a push says: news (with its version, or of the chat), identities'
    ends, or a subscription in place."""
    if not isinstance(reply, list | tuple) or len(reply) < 2:
        return
    kind = reply[0]  # as Redis writes it: lower case
    if kind == b"smessage" or kind == b"ssubscribe":
        channel = bytes(reply[1])  # b"game:{ID}:news"
        if channel == ENDS:
            if ended is not None:
                told = kind == b"smessage" and len(reply) > 2 and isinstance(reply[2], bytes)
                ended(ended_of(reply[2]) if told else None)
            return
        game_id = channel[6 : channel.find(b"}")].decode()
        if kind == b"smessage" and len(reply) > 2:
            payload = reply[2]
            said = chat_news(payload) if isinstance(payload, bytes) else None
            if said is not None:
                if chat is not None:
                    chat(game_id, said)
                return
            try:  # (a `try` costs nothing unless it catches: news comes with every append)
                version = int(payload)
            except (ValueError, TypeError):
                pass
            else:
                notify(game_id, version)
                return
        notify(game_id, None)


class _NewsProtocol(asyncio.Protocol):
    def __init__(self, notify: Notify, chat: Chatted | None, ended: Ended | None) -> None:
        self.notify = notify
        self.chat = chat
        self.ended = ended
        self.reader = hiredis.Reader()
        self.transport: asyncio.Transport | None = None
        self.lost: asyncio.Future[BaseException | None] = asyncio.get_running_loop().create_future()

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def data_received(self, data: bytes) -> None:
        self.reader.feed(data)
        try:
            while (reply := self.reader.gets()) is not False:
                if isinstance(reply, hiredis.ReplyError):
                    raise RedisError(f"Redis refused a subscription: {reply}")
                _told(self.notify, reply, self.chat, self.ended)
        except (hiredis.ProtocolError, RedisError) as error:
            self._end(error)
            if self.transport is not None:
                self.transport.abort()

    def connection_lost(self, exc: Exception | None) -> None:
        self._end(exc or ConnectionError("closed by the server"))

    def _end(self, error: BaseException | None) -> None:
        if not self.lost.done():
            self.lost.set_result(error)


class WireListener:
    """One connection of its own to one Redis server, parsed as it arrives."""

    def __init__(
        self,
        notify: Notify,
        host: str,
        port: int,
        *,
        username: str | None = None,
        password: str | None = None,
        timeout: float = 5.0,
        chat: Chatted | None = None,
        ended: Ended | None = None,
    ) -> None:
        self.notify = notify
        self.chat = chat
        self.ended = ended
        self.host, self.port, self.timeout = host, port, timeout
        self._hello: list[tuple[Arg, ...]] = []
        if password is not None:
            self._hello.append(("AUTH", username, password) if username else ("AUTH", password))
        self.want: set[str] = set()
        self.have: set[str] = set()  # asked for on the current connection
        self._protocol: _NewsProtocol | None = None
        self._outgoing: list[bytes] = []
        self.task = asyncio.get_running_loop().create_task(self._run(), name="hub-listener")

    @classmethod
    def of(
        cls, notify: Notify, client: Any, chat: Chatted | None = None, ended: Ended | None = None
    ) -> WireListener | None:
        """A listener on the server of a plain redis-py client (TCP, no TLS); None otherwise."""
        found = plain_tcp(client)
        if found is None:
            return None
        return cls(
            notify,
            found["host"],
            found["port"],
            username=found["username"],
            password=found["password"],
            timeout=found["timeout"],
            chat=chat,
            ended=ended,
        )

    def add(self, channel: str) -> None:
        self.want.add(channel)
        if self._protocol is not None and channel not in self.have:
            self.have.add(channel)
            self._send(("SSUBSCRIBE", channel))

    def remove(self, channel: str) -> None:
        self.want.discard(channel)
        if self._protocol is not None and channel in self.have:
            self.have.discard(channel)
            self._send(("SUNSUBSCRIBE", channel))

    async def aclose(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task

    def _send(self, command: tuple[Arg, ...]) -> None:
        """Sent with the others of this turn of the event loop, in one write."""
        if not self._outgoing:
            asyncio.get_running_loop().call_soon(self._flush)
        self._outgoing.append(pack(command))

    def _flush(self) -> None:
        data, self._outgoing = b"".join(self._outgoing), []
        protocol = self._protocol
        transport = protocol.transport if protocol is not None else None
        if transport is not None and not transport.is_closing():  # lost: `_run` listens again
            transport.write(data)

    async def _run(self) -> None:
        while True:
            protocol = None
            try:
                protocol = await self._connect()
                self._protocol, self.have = protocol, set()
                for command in self._hello:
                    self._send(command)
                for channel in sorted(self.want):
                    self.add(channel)
                error = await protocol.lost
            except (OSError, TimeoutError, RedisError) as failed:
                error = failed
            finally:
                self._protocol, self._outgoing = None, []
                if protocol is not None and protocol.transport is not None:
                    protocol.transport.abort()
            log.warning("stream notifications lost (%s); listening again", error)
            await asyncio.sleep(AGAIN_SECONDS)

    async def _connect(self) -> _NewsProtocol:
        loop = asyncio.get_running_loop()
        async with asyncio.timeout(self.timeout):
            _, protocol = await loop.create_connection(
                lambda: _NewsProtocol(self.notify, self.chat, self.ended), self.host, self.port
            )
        return protocol


class PubSubListener:
    """redis-py's PubSub on one connection, polled by a task."""

    def __init__(
        self,
        notify: Notify,
        client: Redis,
        *,
        owned: bool,
        chat: Chatted | None = None,
        ended: Ended | None = None,
    ) -> None:
        self.notify = notify
        self.chat = chat
        self.ended = ended
        self.client = client
        self.owned = owned
        self.want: set[str] = set()
        self.have: set[str] = set()
        self.changed = asyncio.Event()
        self.task = asyncio.get_running_loop().create_task(self._run(), name="hub-listener")

    def add(self, channel: str) -> None:
        self.want.add(channel)
        self.changed.set()

    def remove(self, channel: str) -> None:
        self.want.discard(channel)
        self.changed.set()

    async def aclose(self) -> None:
        self.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self.task
        if self.owned:
            await self.client.aclose()

    async def _run(self) -> None:
        while True:
            pubsub = self.client.pubsub()
            self.have = set()
            try:
                await self._listen(pubsub)
            except asyncio.CancelledError:
                raise
            except (ConnectionError, OSError, RedisError) as error:
                log.warning("stream notifications lost (%s); listening again", error)
                await asyncio.sleep(AGAIN_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    def _on_connect(self, connection: Any) -> None:
        """A new connection (redis-py reconnects by itself) is subscribed to nothing."""
        self.have = set()
        self.changed.set()

    async def _listen(self, pubsub: Any) -> None:
        await pubsub.connect()
        pubsub.connection.register_connect_callback(self._on_connect)
        while True:
            self.changed.clear()
            for channel in self.want - self.have:
                await pubsub.execute_command("SSUBSCRIBE", channel)
                self.have.add(channel)
            for channel in self.have - self.want:
                await pubsub.execute_command("SUNSUBSCRIBE", channel)
                self.have.discard(channel)
            if not self.have:
                await self.changed.wait()
                continue
            response = await pubsub.parse_response(block=False, timeout=0.05)
            while response is not None:
                _told(self.notify, response, self.chat, self.ended)
                response = await pubsub.parse_response(block=False, timeout=0)
