"""A table's chat over HTTP against a real server: two seats chat, a spectator reads the same
messages, every open stream gets them live (SSE `chat` events with no id), markup comes back
as the plain text it was, the chat changes nothing of the game, a seat's share a minute holds,
and the chat goes with its game."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import redis.asyncio
from client import auth, sse

from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.store.chat import chat_key
from app.store.events import LOBBY_KEY, EventStore
from app.store.lifecycle import Lifecycle
from tests.deletion import finished_game
from tests.processes import database

MARKUP = '<script>alert("Bob")</script> <b>well</b> played &amp; <img src=x onerror=alert(1)>'


async def new_game(client: httpx.AsyncClient) -> tuple[str, list[str]]:
    """A Crazymino game of Ann and Bob: its id and the two seats' tokens (nobody moves)."""
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    answer = await client.post("/api/games", json={"game": "crazymino", "seats": seats, "seed": 5})
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [s["token"] for s in created["seats"]]


async def say(client: httpx.AsyncClient, game_id: str, token: str | None, body: Any) -> Any:
    return await client.post(f"/api/games/{game_id}/chat", json=body, headers=auth(token))


async def read(
    client: httpx.AsyncClient, game_id: str, token: str | None = None, after: int = 0
) -> list[dict[str, Any]]:
    answer = await client.get(
        f"/api/games/{game_id}/chat", params={"after": after}, headers=auth(token)
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"].startswith("application/json")
    messages: list[dict[str, Any]] = answer.json()["messages"]
    return messages


async def until(found: list[Any], count: int, seconds: float, what: str) -> None:
    while len(found) < count:
        await asyncio.sleep(0.01)


class Live:
    """A stream of the game, read in the background: its events and its chat messages."""

    def __init__(self, task: asyncio.Task[None]) -> None:
        self.task = task
        self.events: list[dict[str, Any]] = []
        self.chat: list[dict[str, Any]] = []


@contextlib.asynccontextmanager
async def streaming(
    client: httpx.AsyncClient,
    game_id: str,
    token: str | None,
    last_id: int | None = None,
    **options: Any,
) -> AsyncIterator[Live]:
    events: list[dict[str, Any]] = []
    chat: list[dict[str, Any]] = []
    live = Live(
        asyncio.create_task(sse(client, game_id, token, last_id, events, chat=chat, **options))
    )
    live.events, live.chat = events, chat
    try:
        yield live
    finally:
        live.task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await live.task


async def test_two_seats_chat_and_every_viewer_reads_the_same_live(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, (ann, bob) = await new_game(client)
        before = (await client.get(f"/api/games/{game_id}/events")).json()
        async with (
            streaming(client, game_id, None) as spectator,
            streaming(client, game_id, bob) as seat,
        ):
            watched, watched_chat, bobs_chat = spectator.events, spectator.chat, seat.chat
            await until(watched, before["version"], 10, "the spectator's backlog")
            await until(seat.events, before["version"], 10, "Bob's backlog")
            said = []
            for token, text in ((ann, f"  {MARKUP}  "), (bob, "gl hf"), (ann, "👍🏽 thanks")):
                answer = await say(client, game_id, token, {"text": text})
                assert answer.status_code == 201, answer.text
                said.append(answer.json())
                for live in (watched_chat, bobs_chat):  # live: each stream brings it
                    await until(live, len(said), 1.0, "a stream's chat")
            assert [m["id"] for m in said] == [1, 2, 3]
            assert [(m["seat"], m["name"]) for m in said] == [(0, "Ann"), (1, "Bob"), (0, "Ann")]
            assert said[0]["text"] == MARKUP  # trimmed, and otherwise exactly as written
            assert set(said[0]) == {"id", "at", "seat", "name", "text"}
            assert watched_chat == said and bobs_chat == said
            assert [m["id"] for m in watched] == list(range(1, before["version"] + 1))

        for token in (None, ann, bob):
            assert await read(client, game_id, token) == said
        assert await read(client, game_id, after=1) == said[1:]
        assert await read(client, game_id, after=3) == []
        after = (await client.get(f"/api/games/{game_id}/events")).json()
        assert after == before  # no event, no new version

        # a stream opened again after message 1 gets the rest, once
        async with streaming(client, game_id, None, chat_after=1) as again:
            await until(again.chat, 2, 5, "the resumed chat")
            later = await say(client, game_id, bob, {"text": "later"})  # nothing before it twice
            await until(again.chat, 3, 5, "the message after")
            assert again.chat == [*said[1:], later.json()]


async def test_only_the_seated_write_and_only_plain_text(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, (ann, _) = await new_game(client)

        async def refused(token: str | None, body: Any, status: int, code: str) -> None:
            answer = await say(client, game_id, token, body)
            assert (answer.status_code, answer.json()["code"]) == (status, code), answer.text

        await refused(None, {"text": "a spectator speaks"}, 401, "unauthorized")
        await refused("not-a-seat-token", {"text": "hi"}, 401, "unauthorized")
        await refused(ann, {"text": "   "}, 400, "bad_chat_message")
        await refused(ann, {"text": "x" * 301}, 400, "bad_chat_message")
        await refused(ann, {"text": "\u202eevil"}, 400, "bad_chat_message")
        await refused(ann, {"text": "hi", "name": "Mallory"}, 400, "invalid_request")
        await refused(ann, {"text": 7}, 400, "invalid_request")
        await refused(ann, ["hi"], 400, "invalid_request")
        answer = await client.post(
            f"/api/games/{game_id}/chat",
            content=b"{",
            headers=auth(ann) | {"content-type": "application/json"},
        )
        assert (answer.status_code, answer.json()["code"]) == (400, "malformed_json")
        huge = await say(client, game_id, ann, {"text": "x" * 70_000})
        assert huge.status_code == 413, huge.text
        assert await read(client, game_id) == []
        wrong = await client.get(f"/api/games/{game_id}/chat", headers=auth("not-a-seat-token"))
        assert wrong.status_code == 401, wrong.text
        for answer in (
            await client.get("/api/games/0123456789abcdef/chat"),
            await say(client, "0123456789abcdef", ann, {"text": "hello?"}),
        ):
            assert (answer.status_code, answer.json()["code"]) == (404, "unknown_game")


async def test_a_seat_writes_at_most_ten_messages_a_minute(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, (ann, bob) = await new_game(client)
        accepted: list[dict[str, Any]] = []
        for n in range(25):
            answer = await say(client, game_id, ann, {"text": f"spam {n}"})
            if answer.status_code == 429:
                break
            assert answer.status_code == 201, answer.text
            accepted.append(answer.json())
        assert answer.status_code == 429, "no limit"
        assert answer.json()["code"] == "too_many_messages"
        assert 1 <= int(answer.headers["retry-after"]) <= 60
        assert len(accepted) == 10  # the seat's minute runs from its first message
        assert (await say(client, game_id, bob, {"text": "my own share"})).status_code == 201
        assert len(await read(client, game_id)) == len(accepted) + 1  # nothing refused written


async def test_the_chat_stays_while_the_game_is_archived_and_goes_with_it(
    server: str, redis_url: str
) -> None:
    store = redis.asyncio.Redis.from_url(database(redis_url, 1, flush=False))  # the server's
    try:
        async with httpx.AsyncClient(base_url=server, timeout=10) as client:
            game_id, token = await finished_game(client)
            answer = await say(client, game_id, token, {"text": "good game"})
            assert answer.status_code == 201, answer.text  # a finished game has its chat
            said = answer.json()

            lifecycle = Lifecycle(store)
            service = GameService(EventStore(store), Catalogue.with_extras(), lifecycle=lifecycle)
            table = await service.load(game_id)
            stored = await service.store.read(game_id)
            assert table.over and await lifecycle.archive(game_id, table.version, stored)
            assert await read(client, game_id) == [said]

            # (after the last event: the reader stops at the game's end)
            async with streaming(client, game_id, None, table.version) as live:
                await until(live.chat, 1, 5, "the chat of an archived game")
                assert live.chat == [said]
                await lifecycle.delete(game_id, LOBBY_KEY)
                await asyncio.wait_for(live.task, 10)  # the stream ends with its game
                answer = await client.get(f"/api/games/{game_id}/chat")
                assert (answer.status_code, answer.json()["code"]) == (404, "unknown_game")
            assert not await store.exists(chat_key(game_id))
            gone = await say(client, game_id, token, {"text": "anyone?"})
            assert (gone.status_code, gone.json()["code"]) == (404, "unknown_game")
            assert not await store.exists(chat_key(game_id))
    finally:
        await store.aclose()
