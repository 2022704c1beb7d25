"""A small HTTP client of the API for end-to-end tests: what a program playing it would do."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


async def create(
    client: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int = 1
) -> dict[str, Any]:
    answer = await client.post(
        "/api/games", json={"game": "crazymino", "seats": seats, "seed": seed}
    )
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def view(client: httpx.AsyncClient, game_id: str, token: str | None = None) -> dict[str, Any]:
    answer = await client.get(f"/api/games/{game_id}", headers=auth(token))
    assert answer.status_code == 200, answer.text
    shown: dict[str, Any] = answer.json()
    return shown


async def my_turn(
    client: httpx.AsyncClient, game_id: str, token: str, seat: int, timeout: float = 20
) -> dict[str, Any]:
    """The seat's view once it may act or the game is over (the AI plays meanwhile)."""
    while True:
        shown = await view(client, game_id, token)
        if shown["status"] == "over" or seat in shown["to_act"]:
            return shown
        await asyncio.sleep(0.02)


async def sse(
    client: httpx.AsyncClient,
    game_id: str,
    token: str | None,
    last_id: int | None,
    out: list[dict[str, Any]],
    stop_after: int | None = None,
    chat: list[dict[str, Any]] | None = None,
    chat_after: int | None = None,
) -> None:
    """Collect SSE messages of events (with their ids) until the game ends or `stop_after`
    messages; the table's chat messages (SSE event `chat`) go to `chat` when given."""
    headers = auth(token)
    if last_id is not None:
        headers["Last-Event-ID"] = str(last_id)
    params = {} if chat_after is None else {"chat_after": chat_after}
    async with client.stream(
        "GET", f"/api/games/{game_id}/stream", headers=headers, params=params, timeout=None
    ) as answer:
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        message: dict[str, Any] = {}
        async for line in answer.aiter_lines():
            if line.startswith("id: "):
                message["id"] = int(line[4:])
            elif line.startswith("event: "):
                message["event"] = line[7:]
            elif line.startswith("data: "):
                message["data"] = json.loads(line[6:])
            elif line == "" and message.get("event") == "chat":
                assert "id" not in message, message  # the stream's ids are the game's versions
                if chat is not None:
                    chat.append(message["data"])
                message = {}
            elif line == "" and "data" in message:
                out.append(message)
                message = {}
                if out[-1]["data"]["event"]["type"] == "game_ended":
                    return
                if stop_after is not None and len(out) >= stop_after:
                    return
