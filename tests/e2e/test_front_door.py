"""A connection's first bytes decide who serves it (`app.wire.frontdoor`): a plain upgrade to a
seat's socket, whole, goes straight to the socket; an upgrade or a request that comes in pieces,
or one that is not plain, goes through uvicorn's HTTP protocol as before and is served alike;
a connection that asks nothing is closed when the server stops."""

from __future__ import annotations

import asyncio
import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from client import create
from conftest import clean_server, start_server, stop_server
from websockets.asyncio.client import connect

HUMANS = [{"type": "human"}, {"type": "human"}]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with clean_server({"REDIS_URL": ""}, tmp_path_factory) as url:
        yield url


def upgrade(game_id: str) -> bytes:
    """A plain upgrade to the game's socket, as a browser sends it (with a fresh key)."""
    key = base64.b64encode(os.urandom(16)).decode()
    lines = [
        f"GET /api/games/{game_id}/socket HTTP/1.1",
        "Host: localhost",
        "Upgrade: websocket",
        "Connection: Upgrade",
        f"Sec-WebSocket-Key: {key}",
        "Sec-WebSocket-Version: 13",
    ]
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def masked_text(text: str) -> bytes:
    """One client text frame (masked, as a client's must be), under 126 bytes."""
    data, mask = text.encode(), os.urandom(4)
    assert len(data) < 126
    return (
        bytes([0x81, 0x80 | len(data)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(data))
    )


async def answer_head(reader: asyncio.StreamReader) -> bytes:
    return await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)


async def answer(reader: asyncio.StreamReader) -> tuple[bytes, bytes]:
    """An HTTP answer's head and body (by its Content-Length)."""
    head = await answer_head(reader)
    length = next(
        int(line.split(b":")[1])
        for line in head.lower().split(b"\r\n")
        if line.startswith(b"content-length:")
    )
    return head, await asyncio.wait_for(reader.readexactly(length), 10)


async def welcome_after(
    reader: asyncio.StreamReader, writer: asyncio.StreamWriter, token: str
) -> dict[str, object]:
    writer.write(masked_text(json.dumps({"type": "hello", "token": token})))
    head = await asyncio.wait_for(reader.readexactly(2), 10)
    assert head[0] == 0x81, head  # a text frame, whole
    length = head[1]
    if length == 126:
        length = int.from_bytes(await reader.readexactly(2), "big")
    message: dict[str, object] = json.loads(await asyncio.wait_for(reader.readexactly(length), 10))
    return message


async def opened(server: str) -> tuple[str, str, asyncio.StreamReader, asyncio.StreamWriter]:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, HUMANS, seed=5)
    host, port = server.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    return created["id"], created["seats"][0]["token"], reader, writer


@pytest.mark.parametrize("pieces", [1, 3], ids=["whole", "in pieces"])
async def test_an_upgrade_whole_or_in_pieces_opens_the_seats_socket(
    server: str, pieces: int
) -> None:
    game_id, token, reader, writer = await opened(server)
    request = upgrade(game_id)
    step = -(-len(request) // pieces)
    for start in range(0, len(request), step):
        writer.write(request[start : start + step])
        await writer.drain()
        await asyncio.sleep(0.05)  # each piece its own read on the server
    head = await answer_head(reader)
    assert head.startswith(b"HTTP/1.1 101 Switching Protocols\r\n"), head
    welcome = await welcome_after(reader, writer, token)
    assert welcome["type"] == "welcome" and welcome["game"] == "crazymino" and welcome["seat"] == 0
    writer.close()


async def test_an_upgrade_asking_a_subprotocol_goes_through_the_http_protocol(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, HUMANS, seed=5)
    url = server.replace("http://", "ws://") + f"/api/games/{created['id']}/socket"
    async with connect(url, subprotocols=["chat"]) as socket:  # type: ignore[list-item]
        await socket.send(json.dumps({"type": "hello", "token": created["seats"][1]["token"]}))
        welcome = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert welcome["type"] == "welcome" and welcome["seat"] == 1


async def test_a_request_in_pieces_is_answered_by_the_http_protocol(server: str) -> None:
    host, port = server.removeprefix("http://").split(":")
    reader, writer = await asyncio.open_connection(host, int(port))
    writer.write(b"GET /healthz HT")
    await writer.drain()
    await asyncio.sleep(0.05)
    writer.write(b"TP/1.1\r\nHost: localhost\r\n\r\n")
    for _ in range(2):  # then again on the same connection
        head, body = await answer(reader)
        assert head.startswith(b"HTTP/1.1 200 ") and json.loads(body)["status"] == "ok", head
        writer.write(b"GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
    writer.close()


async def test_a_connection_that_asks_nothing_is_closed_when_the_server_stops(
    tmp_path: Path,
) -> None:
    log = tmp_path / "server.log"
    proc, url = start_server({"REDIS_URL": ""}, log)
    try:
        host, port = url.removeprefix("http://").split(":")
        _, left = await asyncio.open_connection(host, int(port))  # opened and closed unasked
        left.close()
        reader, _ = await asyncio.open_connection(host, int(port))
        await asyncio.sleep(0.2)
        proc.terminate()
        assert await asyncio.wait_for(reader.read(), 10) == b""  # closed by the server
    finally:
        stop_server(proc)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]
