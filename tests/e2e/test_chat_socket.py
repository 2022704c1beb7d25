"""A table's chat on the seats' sockets against a real server, both ways of serving them
(straight from the connections and through Litestar's route): every message reaches every
socket of the game once, in order with the events; a socket that says hello again with
`chat_after` gets the messages it lacks, and nothing twice."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from client import auth
from conftest import clean_server
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from tests.processes import database

SERVINGS = {"seatwire": {}, "asgi": {"ASGI_SOCKETS": "1"}}


@pytest.fixture(scope="module", params=list(SERVINGS))
def server(
    request: pytest.FixtureRequest, redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    env = {"REDIS_URL": database(redis_url, 14), "WORKER_IN_PROCESS": "1"}
    with clean_server(env | SERVINGS[request.param], tmp_path_factory) as url:
        yield url


class Socket:
    """One connection: the events and the chat messages it was sent, in the order sent."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.messages: list[dict[str, Any]] = []

    @property
    def chat(self) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == "chat"]

    async def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(await asyncio.wait_for(self.connection.recv(), 10))
        self.messages.append(message)
        return message

    async def until(self, kind: str, count: int) -> None:
        while len([m for m in self.messages if m["type"] == kind]) < count:
            await self.receive()


async def open_socket(server: str, game_id: str, **hello: Any) -> Socket:
    url = server.replace("http://", "ws://") + f"/api/games/{game_id}/socket"
    socket = Socket(await connect(url))
    await socket.connection.send(json.dumps({"type": "hello", **hello}))
    assert (await socket.receive())["type"] == "welcome"
    return socket


async def say(client: httpx.AsyncClient, game_id: str, token: str, text: str) -> dict[str, Any]:
    answer = await client.post(
        f"/api/games/{game_id}/chat", json={"text": text}, headers=auth(token)
    )
    assert answer.status_code == 201, answer.text
    said: dict[str, Any] = answer.json()
    return said


async def test_every_socket_of_the_game_gets_the_chat_in_order(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
        created = await client.post(
            "/api/games", json={"game": "crazymino", "seats": seats, "seed": 5}
        )
        assert created.status_code == 201, created.text
        game_id, version = created.json()["id"], created.json()["version"]
        ann, bob = (s["token"] for s in created.json()["seats"])
        view = (await client.get(f"/api/games/{game_id}", headers=auth(ann))).json()
        first = view["to_act"][0]
        mover = (ann, bob)[first]

        sockets = [
            await open_socket(server, game_id, token=ann, after=version),
            await open_socket(server, game_id, token=bob, after=version),
            await open_socket(server, game_id, after=version),  # a spectator
        ]
        said = [await say(client, game_id, ann, "<i>hello</i>")]
        command = {"type": "draw_and_pass", "expected_version": version}
        moved = await client.post(
            f"/api/games/{game_id}/commands", json=command, headers=auth(mover)
        )
        assert moved.status_code == 200, moved.text
        said.append(await say(client, game_id, bob, "hi"))
        said.append(await say(client, game_id, bob, "later"))  # nothing came twice before it
        for socket in sockets:
            await socket.until("chat", 3)
            kinds = [m["type"] for m in socket.messages[1:]]
            assert kinds == ["chat", "events", "chat", "chat"], kinds  # in the order they happened
            assert [{k: v for k, v in m.items() if k != "type"} for m in socket.chat] == said
        assert said[0]["text"] == "<i>hello</i>" and said[0]["name"] == "Ann"

        await sockets[2].connection.close()

        # hello again after message 1: messages 2 and 3 and what comes next, each once
        again = await open_socket(server, game_id, token=ann, after=version + 1, chat_after=1)
        await again.until("chat", 2)
        said.append(await say(client, game_id, ann, "fourth"))
        said.append(await say(client, game_id, ann, "fifth"))  # nothing came twice before it
        await again.until("chat", 4)
        assert [m["id"] for m in again.chat] == [2, 3, 4, 5]
        whole = await open_socket(server, game_id, after=version + 1)  # chat_after 0: all kept
        await whole.until("chat", 5)
        assert [m["text"] for m in whole.chat] == ["<i>hello</i>", "hi", "later", "fourth", "fifth"]
        for socket in (*sockets[:2], again, whole):
            await socket.connection.close()


async def test_a_hello_with_a_bad_chat_after_is_refused(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        seats = [{"type": "human"}, {"type": "human"}]
        created = await client.post("/api/games", json={"game": "crazymino", "seats": seats})
        game_id = created.json()["id"]
    url = server.replace("http://", "ws://") + f"/api/games/{game_id}/socket"
    async with connect(url) as connection:
        await connection.send(json.dumps({"type": "hello", "chat_after": -1}))
        refused = json.loads(await asyncio.wait_for(connection.recv(), 10))
        assert (refused["type"], refused["code"]) == ("refused", "invalid_message"), refused
        with pytest.raises(ConnectionClosed) as closed:
            await asyncio.wait_for(connection.recv(), 10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400
