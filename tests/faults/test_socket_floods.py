"""A seat's socket against hostile clients, on both ways of serving it (below ASGI, and through
Litestar's route): every input a client controls is bounded. Endless empty fragments, a flood of
pings from a client that reads nothing, text that is not UTF-8: each is closed with its code,
and the server's memory stays within 20 MB of where it was. A client that goes away at any
moment leaves no error in the log."""

from __future__ import annotations

import contextlib
import json
import socket
import struct
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import httpx
import pytest

from tests.processes import start_server, stop
from tests.waiting import until_now

SERVINGS = {"seatwire": {}, "asgi": {"ASGI_SOCKETS": "1"}}
MB = 1 << 20
#: How much a flood may grow the server's memory.
BOUND = 20 * MB


@pytest.fixture(scope="module", params=list(SERVINGS))
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, int, Path]]:
    """An embedded server serving the socket one way: its URL, process id and log."""
    log = tmp_path_factory.mktemp("floods") / "server.log"
    proc, url = start_server({"REDIS_URL": "", **SERVINGS[request.param]}, log)
    try:
        yield url, proc.pid, log
    finally:
        stop(proc)


def rss(pid: int) -> int:
    """The process's resident memory, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@contextlib.contextmanager
def peak_growth(pid: int) -> Iterator[list[int]]:
    """The most the process's memory grew above its start while the block ran (sampled)."""
    start, peak, done = rss(pid), [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss(pid) - start)
            time.sleep(0.01)

    sampler = threading.Thread(target=sample)
    sampler.start()
    try:
        yield peak
    finally:
        done.set()
        sampler.join()
        peak[0] = max(peak[0], rss(pid) - start)


def client_frame(opcode: int, payload: bytes = b"", fin: bool = True) -> bytes:
    """A client's frame, masked with a zero key (so the payload goes as it is)."""
    size = len(payload)
    head = bytes((0x80 * fin | opcode,))
    if size < 126:
        head += bytes((0x80 | size,))
    elif size < 1 << 16:
        head += struct.pack("!BH", 0x80 | 126, size)
    else:
        head += struct.pack("!BQ", 0x80 | 127, size)
    return head + b"\0\0\0\0" + payload


class RawSocket:
    """A seat's socket as a hostile client holds it: a TCP connection, frames written by hand."""

    def __init__(self, url: str, game_id: str, token: str, receive_buffer: int = 0) -> None:
        where = urlsplit(url)
        self.sock = socket.socket()
        if receive_buffer:
            self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
        self.sock.connect((where.hostname, where.port))
        self.sock.settimeout(10)
        self.sock.sendall(
            f"GET /api/games/{game_id}/socket HTTP/1.1\r\nHost: {where.netloc}\r\n"
            "Upgrade: websocket\r\nConnection: Upgrade\r\n"
            "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += self.sock.recv(1)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        hello = json.dumps({"type": "hello", "token": token}).encode()
        self.sock.sendall(client_frame(0x1, hello))

    def flood(self, data: bytes, total: int) -> int:
        """Send `data` again and again, `total` bytes in all or until the server cuts the
        connection; how many bytes went."""
        sent = 0
        with contextlib.suppress(OSError):
            while sent < total:
                self.sock.sendall(data)
                sent += len(data)
        return sent

    def close_code(self) -> int | None:
        """The code of the server's close frame, reading past what came before it."""
        data = b""
        with contextlib.suppress(OSError):
            while chunk := self.sock.recv(65536):
                data += chunk
        while len(data) >= 2:
            opcode, size = data[0] & 0x0F, data[1] & 0x7F
            start = 2
            if size == 126:
                (size,) = struct.unpack_from("!H", data, 2)
                start = 4
            elif size == 127:
                (size,) = struct.unpack_from("!Q", data, 2)
                start = 10
            if opcode == 0x8:
                return int(struct.unpack_from("!H", data, start)[0])
            data = data[start + size :]
        return None


def new_game(url: str) -> tuple[str, str]:
    seats = [{"type": "human"}, {"type": "human"}]
    created = httpx.post(f"{url}/api/games", json={"game": "crazymino", "seats": seats}).json()
    return created["id"], created["seats"][0]["token"]


def test_a_message_of_too_many_frames_is_closed_with_1009(server: tuple[str, int, Path]) -> None:
    """Just past the bound, and then nothing more: the close is read whole (a server that closes
    with the client's bytes unread answers with a reset, which would lose it)."""
    url, _, _ = server
    raw = RawSocket(url, *new_game(url))
    raw.sock.sendall(client_frame(0x1, b"{", fin=False) + client_frame(0x0, fin=False) * 300)
    assert raw.close_code() == 1009


def test_endless_empty_fragments_are_cut_and_cost_no_memory(
    server: tuple[str, int, Path],
) -> None:
    url, pid, _ = server
    raw = RawSocket(url, *new_game(url))
    with peak_growth(pid) as growth:
        raw.sock.sendall(client_frame(0x1, b"{", fin=False))
        sent = raw.flood(client_frame(0x0, fin=False) * 10_000, 120 * MB)
    assert sent < 120 * MB, "the server never cut a client that floods fragments"
    assert growth[0] < BOUND, f"the server grew {growth[0] / MB:.1f} MB"


def test_a_client_that_floods_pings_and_reads_nothing_is_dropped(
    server: tuple[str, int, Path],
) -> None:
    url, pid, _ = server
    raw = RawSocket(url, *new_game(url), receive_buffer=4096)
    with peak_growth(pid) as growth:
        sent = raw.flood(client_frame(0x9, bytes(125)) * 500, 200 * MB)
    assert sent < 200 * MB, "the server never cut a client that reads nothing"
    assert growth[0] < BOUND, f"the server grew {growth[0] / MB:.1f} MB"


def test_text_that_is_not_utf8_is_closed_with_1007(server: tuple[str, int, Path]) -> None:
    url, _, _ = server
    raw = RawSocket(url, *new_game(url))
    raw.sock.sendall(client_frame(0x1, b'{"type": "view", "x": "\xff"}'))
    assert raw.close_code() == 1007


def test_a_client_gone_at_any_moment_leaves_no_error_in_the_log(
    server: tuple[str, int, Path],
) -> None:
    url, _, log = server
    before = log.stat().st_size  # the lines of this test only
    streams = httpx.get(f"{url}/healthz").json()["subscribers"]
    game_id, token = new_game(url)
    view = client_frame(0x1, b'{"type": "view", "hints": true}')
    for _ in range(20):
        raw = RawSocket(url, game_id, token)
        raw.sock.sendall(view * 50)
        raw.sock.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        raw.sock.close()  # a reset, with answers still on their way
    # every socket's end was handled: none is left in the hub
    until_now(lambda: httpx.get(f"{url}/healthz").json()["subscribers"] == streams)
    assert httpx.get(f"{url}/healthz").status_code == 200
    text = log.read_bytes()[before:].decode()
    assert "Traceback" not in text and " ERROR " not in text and "ERROR:" not in text, text[-3000:]
