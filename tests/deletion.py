"""A game deleted by retention while two API processes have it loaded, as a client of each sees
it (`tests/e2e/test_deletion.py`, and `tests/faults/test_deleted_unheard.py` with process A's
listener away when the deletion is announced).

Process A serves a stream and a seat's socket of a finished game, process B has only loaded it;
the retention job (in the test's process, its clock 400 days on) archives and deletes it; then
A's stream ends, A's socket is refused 404 `unknown_game` and closed with 4404, and every route
of the game answers 404 `unknown_game` on both processes.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import httpx
import redis.asyncio
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.machine.jobs import DAY_MS, retention
from app.store.events import EventStore
from app.store.lifecycle import Lifecycle
from tests.waiting import until

DRAW = {"type": "draw_and_pass"}


async def finished_game(client: httpx.AsyncClient) -> tuple[str, str]:
    """A finished game with people at it (an all-AI game played by the worker, exported and
    imported with its seats made human): its id and seat 0's token."""
    seats = [{"type": "ai"}, {"type": "ai", "level": "easy"}]
    created = await client.post("/api/games", json={"game": "crazymino", "seats": seats, "seed": 3})
    assert created.status_code == 201, created.text
    game_id = created.json()["id"]

    async def over() -> bool:
        return bool((await client.get(f"/api/games/{game_id}")).json()["status"] == "over")

    await until(over, poll=0.1)
    log = (await client.get(f"/api/games/{game_id}/export")).json()
    for seat in log["seats"]:
        seat.pop("level", None)
        seat["type"] = "human"
    imported = await client.post("/api/games/import", json=log)
    assert imported.status_code == 201, imported.text
    return imported.json()["id"], imported.json()["seats"][0]["token"]


async def retention_deletes(redis_url: str) -> int:
    """One pass of the retention job, 400 days on, set to delete a year after the end (what a
    worker does hourly): it archives, then deletes, every finished game of the database."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        service = GameService(
            EventStore(client), Catalogue.with_extras(), lifecycle=Lifecycle(client)
        )
        now = service.clock
        service.clock = lambda: now() + 400 * DAY_MS
        done = await retention({"service": service, "settings": Settings(delete_after_days=365)})
        return done["deleted"]
    finally:
        await client.aclose()


async def stream_until(lines: AsyncIterator[str], version: int) -> None:
    """Read the stream's lines up to the end of the event `version`'s message."""
    seen = False
    async for line in lines:
        seen = seen or line == f"id: {version}"
        if seen and line == "":
            return
    raise AssertionError("the stream ended before its backlog")


async def open_socket(base: str, game_id: str, token: str) -> tuple[ClientConnection, Any]:
    socket = await connect(base.replace("http://", "ws://") + f"/api/games/{game_id}/socket")
    await socket.send(json.dumps({"type": "hello", "token": token}))
    return socket, json.loads(await asyncio.wait_for(socket.recv(), 10))


async def refused_and_closed(socket: ClientConnection) -> None:
    """The socket is told the game is unknown, then closed with 4404 (the last message read
    may be events, of before)."""
    while True:
        message = json.loads(await asyncio.wait_for(socket.recv(), 10))
        if message["type"] == "refused":
            break
        assert message["type"] == "events", message
    assert (message["status"], message["code"]) == (404, "unknown_game"), message
    try:
        extra = await asyncio.wait_for(socket.recv(), 10)
        raise AssertionError(f"a message after the refusal: {extra!r}")
    except ConnectionClosed as closed:
        assert closed.rcvd is not None and closed.rcvd.code == 4404, closed


def unknown(answer: httpx.Response) -> None:
    assert answer.status_code == 404, (answer.request.url, answer.status_code, answer.text)
    assert answer.json()["code"] == "unknown_game", answer.text


async def every_route_unknown(base: str, game_id: str, token: str) -> None:
    """Each route of the game says 404 `unknown_game`, as does a new socket."""
    seat = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        path = f"/api/games/{game_id}"
        for route in ("", "/events", "/events?after=3", "/replay?at=1", "/timeline", "/export"):
            unknown(await client.get(path + route))
        unknown(await client.get(path, headers=seat))
        unknown(await client.post(f"{path}/commands", json=DRAW, headers=seat))
        unknown(await client.post(f"{path}/tickets", headers=seat))
        unknown(await client.get(f"{path}/stream"))
    socket = await connect(base.replace("http://", "ws://") + f"/api/games/{game_id}/socket")
    await socket.send(json.dumps({"type": "hello", "token": token}))
    await refused_and_closed(socket)


async def deleted_in_both(
    a: str,
    b: str,
    redis_url: str,
    before_deletion: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """The scenario, with processes A (`a`) and B (`b`) on the Redis of `redis_url`;
    `before_deletion` runs just before the retention job."""
    async with httpx.AsyncClient(base_url=a, timeout=10) as client:
        game_id, token = await finished_game(client)
        version = (await client.get(f"/api/games/{game_id}")).json()["version"]
        async with httpx.AsyncClient(base_url=b, timeout=10) as other:
            assert (await other.get(f"/api/games/{game_id}")).status_code == 200  # B has it
            assert (await other.get(f"/api/games/{game_id}/replay?at=1")).status_code == 200
        async with client.stream("GET", f"/api/games/{game_id}/stream", timeout=30) as answer:
            assert answer.status_code == 200
            lines = answer.aiter_lines()
            await stream_until(lines, version)
            socket, welcome = await open_socket(a, game_id, token)
            assert welcome["type"] == "welcome", welcome
            if before_deletion is not None:
                await before_deletion()
            assert await retention_deletes(redis_url) >= 1
            async with asyncio.timeout(10):  # the stream ends: no hang
                async for line in lines:
                    assert not line.startswith("data:"), line
            await refused_and_closed(socket)
    for base in (a, b):
        await every_route_unknown(base, game_id, token)
