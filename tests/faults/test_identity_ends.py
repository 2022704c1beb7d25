"""An identity ended on API process A ends, on process B, the seat's socket and the stream
opened with it: a revoked personal token, a logout, a changed password. B's socket is refused
401 (`unknown_token`, `not_logged_in`) and closed with 4401, B's stream ends, and a ticket
issued to the ended session opens nothing. One Redis, real servers over HTTP and WebSocket."""

from __future__ import annotations

import asyncio
import json
import secrets
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from faults.conftest import settings
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.processes import RedisServer, start_server, stop

PASSWORD = "correct horse"


async def browser_of(base: str, name: str, *, new: bool) -> httpx.AsyncClient:
    """A browser of the player `name`, signed up (`new`) or logged in, sending its CSRF header."""
    browser = httpx.AsyncClient(base_url=base, timeout=10)
    await browser.get("/api/games/types")  # the CSRF cookie
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    path = "/api/accounts" if new else "/api/session"
    answer = await browser.post(path, json={"name": name, "password": PASSWORD})
    assert answer.status_code in (200, 201), answer.text
    return browser


async def seated_game(browser: httpx.AsyncClient) -> str:
    """A game the browser's player sits at (seat 0, no seat token), against an AI."""
    body = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "ai"}], "seed": 5}
    table = await browser.post("/api/tables", json=body)
    assert table.status_code == 201, table.text
    started = await browser.post(f"/api/tables/{table.json()['id']}/start")
    assert started.status_code == 200, started.text
    game_id: str = started.json()["game_id"]
    return game_id


async def ticket_of(browser: httpx.AsyncClient, game_id: str) -> str:
    answer = await browser.post(f"/api/games/{game_id}/tickets")
    assert answer.status_code == 201, answer.text
    ticket: str = answer.json()["ticket"]
    return ticket


async def seat_socket(base: str, game_id: str, **hello: Any) -> ClientConnection:
    """A socket of the player's seat 0, welcomed, whose `view` shows that seat."""
    url = base.replace("http://", "ws://") + f"/api/games/{game_id}/socket"
    if "ticket" in hello:
        url += f"?ticket={hello.pop('ticket')}"
    socket = await connect(url)
    await socket.send(json.dumps({"type": "hello", **hello}))
    welcome = json.loads(await asyncio.wait_for(socket.recv(), 10))
    assert welcome["type"] == "welcome" and welcome["seat"] == 0, welcome
    await socket.send(json.dumps({"type": "view"}))
    while (shown := json.loads(await asyncio.wait_for(socket.recv(), 10)))["type"] != "view":
        assert shown["type"] in ("events", "chat"), shown
    assert shown["view"]["seat"] == 0, shown
    return socket


async def refused_and_closed(socket: ClientConnection, code: str) -> None:
    """The socket is refused 401 `code` (events before it may come), then closed with 4401."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "refused":
            break
        assert message["type"] in ("events", "chat"), message
    assert (message["status"], message["code"]) == (401, code), message
    with pytest.raises(ConnectionClosed) as closed:
        await asyncio.wait_for(socket.recv(), 10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401, closed.value


async def stream_open(
    client: httpx.AsyncClient, game_id: str, headers: dict[str, str]
) -> tuple[Any, AsyncIterator[str]]:
    """A stream of the game, its answer begun (its subscription made)."""
    opened = client.stream("GET", f"/api/games/{game_id}/stream", headers=headers, timeout=60)
    answer = await opened.__aenter__()
    assert answer.status_code == 200, await answer.aread()
    return opened, answer.aiter_lines()


async def stream_ends(opened: Any, lines: AsyncIterator[str]) -> None:
    """The stream ends by itself (no hang: within 10 s, where it would otherwise last 10 min)."""
    try:
        async with asyncio.timeout(10):
            async for _ in lines:
                pass
    finally:
        await opened.__aexit__(None, None, None)


@pytest.mark.parametrize("ending", ["token revoked", "logged out", "password changed"])
async def test_an_identity_ended_on_one_process_ends_its_socket_and_stream_on_another(
    store: RedisServer, tmp_path: Path, ending: str
) -> None:
    a, base_a = start_server(settings(store, WORKER_IN_PROCESS="1"), tmp_path / "a.log")
    b, base_b = start_server(settings(store), tmp_path / "b.log")
    name = f"ann_{secrets.token_hex(4)}"
    try:
        ann = await browser_of(base_a, name, new=True)
        watcher = httpx.AsyncClient(base_url=base_b, timeout=10)
        try:
            game_id = await seated_game(ann)
            if ending == "token revoked":
                made = await ann.post("/api/me/tokens", json={"label": "bot"})
                assert made.status_code == 201, made.text
                token = made.json()["token"]
                socket = await seat_socket(base_b, game_id, token=token)
                auth = {"Authorization": f"Bearer {token}"}
                opened, lines = await stream_open(watcher, game_id, auth)
                revoked = await ann.delete(f"/api/me/tokens/{made.json()['id']}")
                assert revoked.status_code == 204, revoked.text
                code, late_ticket = "unknown_token", None
            else:
                socket = await seat_socket(base_b, game_id, ticket=await ticket_of(ann, game_id))
                late_ticket = await ticket_of(ann, game_id)
                cookie = {"Cookie": f"session={ann.cookies['session']}"}
                opened, lines = await stream_open(watcher, game_id, cookie)
                if ending == "logged out":
                    ended = await ann.delete("/api/session")
                    assert ended.status_code == 204, ended.text
                else:
                    other = await browser_of(base_a, name, new=False)
                    body = {"current": PASSWORD, "new": "battery staple"}
                    ended = await other.post("/api/me/password", json=body)
                    await other.aclose()
                    assert ended.status_code == 204, ended.text
                code = "not_logged_in"
            await refused_and_closed(socket, code)
            await stream_ends(opened, lines)
            if late_ticket is not None:  # issued before the end, used after: refused
                late = await watcher.get(f"/api/games/{game_id}/stream?ticket={late_ticket}")
                assert (late.status_code, late.json()["code"]) == (401, code), late.text
        finally:
            await ann.aclose()
            await watcher.aclose()
    finally:
        stop(a)
        stop(b)
    for log in ("a.log", "b.log"):
        text = (tmp_path / log).read_text()
        assert "Traceback" not in text, text[-4000:]
