"""One multiplexed connection to a single Redis server for the command path's scripts.

redis-py takes a connection from its pool for every command, writes the command and awaits
its reply on that connection, through several layers of coroutines, a timeout scope each way
and its retry wrapper: under load that was about a fifth of a command's CPU. Redis answers a
connection's commands in the order it got them, so here every caller writes its command at
once to one shared connection and gets a future, which the reply resolves in turn (parsed by
hiredis); nothing is awaited but that future. The commands of all callers of one turn of the
event loop go out in one write.

Failures are redis-py's: an error reply raises what redis-py raises for it (`ResponseError` and
its kinds), a connection that cannot be made or is lost fails every command waiting on it with
`ConnectionError` (the next command connects again), and a connection that answers nothing for
`timeout` seconds while commands wait is dropped with `TimeoutError`. As with any client, a
command whose connection was lost may or may not have run: the append's idempotency key and
version check make sending it again safe.

Used for a plain `redis://` server (TCP, no TLS); a cluster and fakeredis keep redis-py.
"""

from __future__ import annotations

import asyncio
import collections
import hashlib
from collections.abc import Awaitable
from typing import Any, cast

import hiredis
from redis._parsers.base import BaseParser  # what redis-py raises for each error reply
from redis.asyncio import Redis
from redis.asyncio.connection import SSLConnection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError
from redis.exceptions import TimeoutError as RedisTimeoutError

Arg = bytes | str | int


def pack(args: tuple[Arg, ...]) -> bytes:
    """A command in RESP: an array of bulk strings (packed by hiredis, in C)."""
    packed: bytes = hiredis.pack_command(cast(Any, args))  # its stub takes one argument only
    return packed


class _Protocol(asyncio.Protocol):
    def __init__(self, timeout: float) -> None:
        self.timeout = timeout
        self.reader = hiredis.Reader()
        self.waiting: collections.deque[asyncio.Future[Any]] = collections.deque()
        self.transport: asyncio.Transport | None = None
        self.lost: Exception | None = None
        self.loop = asyncio.get_running_loop()
        self.deadline: asyncio.TimerHandle | None = None
        self.outgoing: list[bytes] = []  # written together once the running callbacks are done

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = cast(asyncio.Transport, transport)  # uvloop's is not a subclass

    def send(self, data: bytes) -> asyncio.Future[Any]:
        if self.lost is not None or self.transport is None:
            raise RedisConnectionError("Connection to Redis lost.")
        future = self.loop.create_future()
        if not self.waiting:
            self.deadline = self.loop.call_later(self.timeout, self._timed_out)
        self.waiting.append(future)
        if not self.outgoing:
            self.loop.call_soon(self._flush)
        self.outgoing.append(data)
        return future

    def _flush(self) -> None:
        """One write (one system call) for the commands of every caller of this turn of the
        event loop."""
        data, self.outgoing = b"".join(self.outgoing), []
        if self.lost is None and self.transport is not None:
            self.transport.write(data)

    def data_received(self, data: bytes) -> None:
        reader, waiting = self.reader, self.waiting
        reader.feed(data)
        try:
            reply = reader.gets()
        except hiredis.ProtocolError as error:
            self._fail(RedisConnectionError(f"Redis protocol error: {error}"))
            return
        answered = False
        while reply is not False:
            if not waiting:
                self._fail(RedisConnectionError("Redis answered a command never sent."))
                return
            answered = True
            future = waiting.popleft()
            if not future.done():
                if isinstance(reply, hiredis.ReplyError):
                    future.set_exception(BaseParser.parse_error(str(reply)))  # type: ignore[no-untyped-call]
                else:
                    future.set_result(reply)
            reply = reader.gets()
        if answered and self.deadline is not None:
            self.deadline.cancel()
            self.deadline = self.loop.call_later(self.timeout, self._timed_out) if waiting else None

    def _timed_out(self) -> None:
        self._fail(RedisTimeoutError("Timeout reading from Redis."))

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(RedisConnectionError(f"Connection to Redis lost: {exc or 'closed'}."))

    def _fail(self, error: Exception) -> None:
        if self.lost is None:
            self.lost = error
        if self.deadline is not None:
            self.deadline.cancel()
            self.deadline = None
        while self.waiting:
            future = self.waiting.popleft()
            if not future.done():
                future.set_exception(error)
        if self.transport is not None:
            self.transport.abort()


class Pipe:
    """Commands to one Redis server over one shared connection (made when first needed)."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        db: int = 0,
        username: str | None = None,
        password: str | None = None,
        timeout: float = 5.0,
    ) -> None:
        self.host, self.port, self.db = host, port, db
        self._hello: list[tuple[Arg, ...]] = []
        if password is not None:
            self._hello.append(("AUTH", username, password) if username else ("AUTH", password))
        if db:
            self._hello.append(("SELECT", db))
        self.timeout = timeout
        self._protocol: _Protocol | None = None
        self._connecting: asyncio.Task[_Protocol] | None = None

    @classmethod
    def of(cls, client: Any) -> Pipe | None:
        """A pipe to the server of a plain redis-py client (TCP, no TLS); None otherwise (a
        cluster, fakeredis, a Unix socket)."""
        found = plain_tcp(client)
        if found is None:
            return None
        return cls(
            found["host"],
            found["port"],
            db=found["db"],
            username=found["username"],
            password=found["password"],
            timeout=found["timeout"],
        )

    def call(self, *args: Arg) -> Awaitable[Any]:
        """The reply to a command, to await: once connected, the future its reply resolves
        (no coroutine of its own: the command path awaits it through as few layers as it can)."""
        protocol = self._protocol
        if protocol is None or protocol.lost is not None:
            return self._call_connected(args)
        return protocol.send(pack(args))

    async def _call_connected(self, args: tuple[Arg, ...]) -> Any:
        protocol = await self._connected()
        return await protocol.send(pack(args))

    async def script(self, source: bytes, sha: str, keys: list[str], args: list[Arg]) -> Any:
        """EVALSHA, or EVAL when the server does not have the script (it was restarted)."""
        try:
            return await self.call("EVALSHA", sha, len(keys), *keys, *args)
        except NoScriptError:
            return await self.call("EVAL", source, len(keys), *keys, *args)

    async def _connected(self) -> _Protocol:
        if self._connecting is None:
            self._connecting = asyncio.ensure_future(self._connect())
        connecting = self._connecting
        try:
            return await asyncio.shield(connecting)
        finally:
            if self._connecting is connecting and connecting.done():
                self._connecting = None

    async def _connect(self) -> _Protocol:
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(self.timeout):
                _, protocol = await loop.create_connection(
                    lambda: _Protocol(self.timeout), self.host, self.port
                )
        except (OSError, TimeoutError) as error:
            raise RedisConnectionError(
                f"Cannot connect to Redis at {self.host}:{self.port}: {error}"
            ) from error
        try:
            for command in self._hello:
                await protocol.send(pack(command))
        except BaseException:
            protocol._fail(RedisConnectionError("Redis refused the connection's set-up."))
            raise
        self._protocol = protocol
        return protocol

    async def aclose(self) -> None:
        protocol, self._protocol = self._protocol, None
        if protocol is not None and protocol.transport is not None:
            protocol.transport.close()


def plain_tcp(client: Any) -> dict[str, Any] | None:
    """Where and how a plain redis-py client connects (`host`, `port`, `db`, `username`,
    `password`, `timeout`), when it is over TCP without TLS; None for anything else (a cluster,
    fakeredis, a Unix socket, TLS)."""
    if type(client) is not Redis:
        return None
    pool = client.connection_pool
    kwargs = pool.connection_kwargs
    if "path" in kwargs or issubclass(pool.connection_class, SSLConnection):
        return None
    return {
        "host": kwargs.get("host", "localhost"),
        "port": int(kwargs.get("port", 6379)),
        "db": int(kwargs.get("db", 0) or 0),
        "username": kwargs.get("username"),
        "password": kwargs.get("password"),
        "timeout": kwargs.get("socket_timeout") or 5.0,
    }


def sha_of(source: bytes) -> str:
    return hashlib.sha1(source).hexdigest()
