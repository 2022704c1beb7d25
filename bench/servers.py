"""What the service benchmarks share: a private redis-server, uvicorn processes, a light client.

Every server listens on 127.0.0.1 on a free port and is stopped when its `with` block ends.
The client is a minimal HTTP/1.1 keep-alive client on asyncio streams: far cheaper per request
than httpx, so that on a small machine the load generator leaves the CPU to the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.common import HOST, command_line, free_port, machine

ROOT = Path(__file__).resolve().parent.parent


@dataclass
class Server:
    """A started process: its pid and where it listens."""

    pid: int
    port: int
    url: str


def _stop(process: subprocess.Popen[bytes], sig: int = signal.SIGTERM) -> None:
    if process.poll() is None:
        process.send_signal(sig)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


@contextlib.contextmanager
def redis_server() -> Iterator[Server]:
    """A private redis-server without persistence, on a free port."""
    port = free_port()
    args = ["redis-server", "--port", str(port), "--bind", HOST, "--save", "", "--appendonly"]
    process = subprocess.Popen(
        [*args, "no", "--loglevel", "warning"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 10
        while True:
            with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.5) as s:
                s.sendall(b"PING\r\n")
                if s.recv(64).startswith(b"+PONG"):
                    break
            if time.monotonic() > deadline or process.poll() is not None:
                raise RuntimeError(f"redis-server on port {port} did not start")
            time.sleep(0.05)
        yield Server(process.pid, port, f"redis://{HOST}:{port}/0")
    finally:
        _stop(process)


@contextlib.contextmanager
def uvicorn_server(
    factory: str, env: dict[str, str] | None = None, *, ready_path: str = "/healthz"
) -> Iterator[Server]:
    """One uvicorn process (`--workers 1`) serving `module:factory`, until the block ends."""
    port = free_port()
    command = [sys.executable, "-m", "uvicorn", "--factory", factory, "--host", HOST]
    command += ["--port", str(port), "--workers", "1", "--log-level", "warning"]
    command += ["--timeout-graceful-shutdown", "2"]
    with tempfile.TemporaryFile() as errors:
        process = subprocess.Popen(
            command,
            cwd=ROOT,
            env={**os.environ, **(env or {})},
            stdout=subprocess.DEVNULL,
            stderr=errors,
        )
        try:
            _wait_ready(process, port, ready_path)
            yield Server(process.pid, port, f"http://{HOST}:{port}")
        except BaseException:
            errors.seek(0)
            sys.stderr.write(errors.read().decode(errors="replace")[-4000:])
            raise
        finally:
            _stop(process, signal.SIGINT)


def _wait_ready(process: subprocess.Popen[bytes], port: int, path: str) -> None:
    request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nConnection: close\r\n\r\n".encode()
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited with {process.returncode}")
        with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.5) as s:
            s.sendall(request)
            if s.recv(64).startswith(b"HTTP/1.1 200"):
                return
        time.sleep(0.1)
    raise RuntimeError(f"the server on port {port} was not ready in 30 s")


# -- a light HTTP/1.1 client ------------------------------------------------------------------


class HttpError(Exception):
    """The server answered with something this client cannot read."""


class Connection:
    """One keep-alive HTTP/1.1 connection; one request at a time."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def _open(self) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
        if self._reader is None or self._writer is None:
            self._reader, self._writer = await asyncio.open_connection(HOST, self.port)
        return self._reader, self._writer

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        self._reader = self._writer = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: str = ""
    ) -> tuple[int, bytes]:
        """(status, body). `headers` is extra header lines, each ending in CRLF.

        A kept-alive connection that the server closed while idle (uvicorn closes them after
        5 s) is opened again and the request sent once more, as HTTP clients do.
        """
        reused = self._reader is not None
        try:
            return await self._exchange(method, path, body, headers)
        except (ConnectionError, asyncio.IncompleteReadError) as error:
            partial = getattr(error, "partial", b"")
            if not reused or partial:
                raise
        return await self._exchange(method, path, body, headers)

    async def _exchange(
        self, method: str, path: str, body: bytes, headers: str
    ) -> tuple[int, bytes]:
        reader, writer = await self._open()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: {HOST}\r\nContent-Length: {len(body)}\r\n"
            f"Content-Type: application/json\r\n{headers}\r\n"
        )
        try:
            writer.write(head.encode() + body)
            status, fields = await read_head(reader)
            if b"transfer-encoding: chunked" in fields:
                content = b"".join([chunk async for chunk in read_chunks(reader)])
            else:
                content = await reader.readexactly(_content_length(fields))
        except (OSError, asyncio.IncompleteReadError, HttpError):
            self.close()
            raise
        if b"connection: close" in fields:
            self.close()
        return status, content


async def read_head(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """The status and the lower-cased header block of a response."""
    head = await reader.readuntil(b"\r\n\r\n")
    if not head.startswith(b"HTTP/1.1 "):
        raise HttpError(f"not an HTTP/1.1 answer: {head[:40]!r}")
    return int(head[9:12]), head.lower()


def _content_length(fields: bytes) -> int:
    start = fields.find(b"content-length:")
    if start < 0:
        raise HttpError("no content-length")
    return int(fields[start + 15 : fields.index(b"\r\n", start)])


async def read_chunks(reader: asyncio.StreamReader) -> AsyncIterator[bytes]:
    """The chunks of a chunked body, as each arrives, until the last one."""
    while True:
        size = int((await reader.readuntil(b"\r\n")).split(b";", 1)[0], 16)
        chunk = await reader.readexactly(size + 2)
        if size == 0:
            return
        yield chunk[:-2]


def report_header(title: str) -> str:
    return f"### {title}\n\n```sh\n{command_line()}\n```\n\n{machine()}\n"
