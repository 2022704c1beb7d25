"""A seat's persistent connection (`/api/games/{id}/socket`) against a real server: commands up,
the seat's events down, each exactly once and in order, with the HTTP routes' refusals,
idempotency and version checks, resumed after a reconnect, never showing another seat's tiles.
Every test runs against both ways of serving the socket: straight from the connections
(`app.wire.seatwire`, the default) and through Litestar's route (`ASGI_SOCKETS=1`)."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from client import auth, create
from conftest import ROOT, clean_server, start_server, stop_server
from test_hidden_information import PLAYERS, SEED, Secrets, Truth, check_entries
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidStatus

from domain.crazymino.game import CRAZYMINO
from tests.processes import database
from tests.waiting import until

SERVINGS = {"seatwire": {}, "asgi": {"ASGI_SOCKETS": "1"}}


@pytest.fixture(scope="module", params=list(SERVINGS))
def serving(request: pytest.FixtureRequest) -> dict[str, str]:
    """The settings of one way of serving the socket."""
    settings: dict[str, str] = SERVINGS[request.param]
    return settings


@pytest.fixture(scope="module")
def server(
    serving: dict[str, str], redis_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A server on a real Redis (a database of its own), its worker in process, AI thinking 0 s,
    serving the socket one way."""
    env = {"REDIS_URL": database(redis_url, 12), "WORKER_IN_PROCESS": "1", **serving}
    with clean_server(env, tmp_path_factory) as url:
        yield url


class Socket:
    """One connection as a client sees it: every event it was sent, in the order sent."""

    def __init__(self, connection: ClientConnection) -> None:
        self.connection = connection
        self.records: list[dict[str, Any]] = []
        self.texts: list[str] = []

    async def receive(self) -> dict[str, Any]:
        text = await asyncio.wait_for(self.connection.recv(), 10)
        assert isinstance(text, str)
        self.texts.append(text)
        message: dict[str, Any] = json.loads(text)
        if message["type"] in ("events", "applied"):
            self.records += message["events"]
        return message

    async def send(self, message: dict[str, Any]) -> None:
        await self.connection.send(json.dumps(message))

    async def command(self, command: Any, key: str | None = None) -> dict[str, Any]:
        """Send a command; its answer (`applied` or `refused`), events before it kept."""
        await self.send({"type": "command", "key": key, "command": command})
        while True:
            message = await self.receive()
            if message["type"] in ("applied", "refused"):
                return message

    async def until(self, version: int) -> None:
        while not self.records or self.records[-1]["version"] < version:
            await self.receive()

    @property
    def versions(self) -> list[int]:
        return [r["version"] for r in self.records]


async def open_socket(
    server: str, game_id: str, token: str | None, after: int = 0, **hello: Any
) -> tuple[Socket, dict[str, Any]]:
    """A connection that said hello; its welcome."""
    url = server.replace("http://", "ws://") + f"/api/games/{game_id}/socket"
    socket = Socket(await connect(url))
    await socket.send({"type": "hello", "token": token, "after": after, **hello})
    welcome = await socket.receive()
    return socket, welcome


def legal(truth: Truth, seat: int, place: bool) -> dict[str, Any]:
    """A legal command of the seat: its first placement, or a draw."""
    commands = [msgspec.to_builtins(c) for c in CRAZYMINO.legal(truth.state, seat)]
    places = [c for c in commands if c["type"] == "place_tile"]
    return places[0] if place and places else {"type": "draw_and_pass"}


async def new_game(client: httpx.AsyncClient) -> tuple[str, list[str], Truth]:
    answer = await client.post(
        "/api/games",
        json={
            "game": "crazymino",
            "seats": [{"type": "human", "name": n} for n in PLAYERS],
            "seed": SEED,
        },
    )
    assert answer.status_code == 201, answer.text
    created = answer.json()
    return created["id"], [s["token"] for s in created["seats"]], Truth(SEED, PLAYERS)


async def test_seats_play_over_their_sockets_and_see_only_their_own_tiles(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, truth = await new_game(client)
        secrets = Secrets(tokens)
        sockets = []
        for seat, token in enumerate(tokens):
            socket, welcome = await open_socket(server, game_id, token)
            assert welcome == {
                "type": "welcome",
                "game": "crazymino",
                "seat": seat,
                "version": truth.version,
            }
            sockets.append(socket)
        for move in range(12):
            seat = truth.state.seat_to_play
            assert seat is not None
            command = legal(truth, seat, place=move % 3 != 2)
            # no waiting for the previous move's events: the answer brings them first
            answer = await sockets[seat].command({**command, "expected_version": truth.version})
            events = truth.apply(seat, command)
            assert answer["type"] == "applied" and answer["replayed"] is False, answer
            assert answer["version"] == truth.version
            assert [r["version"] for r in answer["events"]][-len(events) :] == list(
                range(truth.version - len(events) + 1, truth.version + 1)
            )
        shown = (await client.get(f"/api/games/{game_id}")).json()
        assert shown["version"] == truth.version
        for seat, socket in enumerate(sockets):
            await socket.until(truth.version)
            assert socket.versions == list(range(1, truth.version + 1)), seat
            check_entries(socket.records, seat, truth, f"seat {seat}'s socket")
            for text in socket.texts:
                secrets.check_text(text)
            await socket.connection.close()


async def test_a_seat_against_the_ai_is_sent_the_ais_moves(server: str) -> None:
    """The AI answers in the server's own process (its worker plays it right after the seat's
    command): each of its moves reaches the seat's socket."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        seats = [{"type": "human", "name": "Ada"}, {"type": "ai", "level": "easy"}]
        created = await create(client, seats, seed=SEED)
        (mine,) = [s for s in created["seats"] if s.get("token")]
        path, token = f"/api/games/{created['id']}", mine["token"]
        socket, _ = await open_socket(server, created["id"], token)
        for _ in range(4):
            view = (await client.get(path, headers=auth(token))).json()
            while mine["seat"] not in view["to_act"]:  # the AI's turn: its move is pushed
                await socket.until(view["version"] + 1)
                view = (await client.get(path, headers=auth(token))).json()
            answer = await socket.command(view["legal"][0])
            assert answer["type"] == "applied", answer
            await socket.until(answer["version"] + 1)  # the AI's reply, on this socket
        assert socket.versions == list(range(1, socket.versions[-1] + 1))
        await socket.connection.close()


async def test_refusals_carry_the_codes_of_the_http_routes(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, truth = await new_game(client)
        seat = truth.state.seat_to_play
        assert seat is not None
        other = (seat + 1) % len(tokens)
        socket, _ = await open_socket(server, game_id, tokens[seat])
        waiting, _ = await open_socket(server, game_id, tokens[other])
        spectator, welcome = await open_socket(server, game_id, None)
        assert welcome["seat"] is None
        place = legal(truth, seat, place=True)
        not_mine = next(t for t in truth.state.hands[other] if t not in truth.state.hands[seat])
        cases: list[tuple[Socket, Any, int, str]] = [
            (waiting, {"type": "draw_and_pass"}, 409, "not_your_turn"),
            (socket, {**place, "expected_version": truth.version - 1}, 409, "stale_version"),
            (socket, {"type": "fly"}, 400, "unknown_command"),
            (socket, {"tile": 3}, 400, "missing_type"),
            (socket, {**place, "tile": not_mine}, 422, "not_your_tile"),
            (socket, {"type": "end_turn"}, 422, "not_in_this_game"),
            (socket, [1, 2], 400, "invalid_command"),
            (spectator, {"type": "draw_and_pass"}, 401, "unauthorized"),
        ]
        for sender, command, status, code in cases:
            answer = await sender.command(command, key=f"k-{code}")
            assert answer["type"] == "refused", (code, answer)
            assert (answer["status"], answer["code"], answer["key"]) == (status, code, f"k-{code}")
            assert answer["message"]
        bad_key = await socket.command(place, key="no spaces")
        assert (bad_key["status"], bad_key["code"]) == (400, "bad_idempotency_key")
        await socket.connection.send("{not json")
        assert (await socket.receive())["code"] == "malformed_json"
        await socket.send({"type": "shout"})
        assert (await socket.receive())["code"] == "invalid_message"
        await socket.send({"type": "view"})
        shown = await socket.receive()
        assert shown["type"] == "view" and shown["view"]["version"] == truth.version
        assert shown["view"]["seat"] == seat and place in shown["view"]["legal"]
        # still open, and nothing was written: the next good command is the game's next event
        answer = await socket.command({**place, "expected_version": truth.version})
        truth.apply(seat, place)
        assert answer["type"] == "applied" and answer["version"] == truth.version
        for connection in (socket, waiting, spectator):
            await connection.connection.close()


async def test_a_key_retried_after_a_dropped_connection_is_applied_once(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "human"}, {"type": "human"}], seed=11)
        game_id = created["id"]
        tokens = {s["seat"]: s["token"] for s in created["seats"]}
        shown = (await client.get(f"/api/games/{game_id}", headers=auth(tokens[0]))).json()
        seat, before = shown["to_act"][0], shown["version"]
        socket, _ = await open_socket(server, game_id, tokens[seat], after=before)
        draw = {"type": "draw_and_pass"}
        await socket.send({"type": "command", "key": "turn-1", "command": draw})
        await socket.connection.close()  # gone before the answer came
        for _ in range(500):  # the server applies what it was sent, answered or not
            log = (await client.get(f"/api/games/{game_id}/events")).json()
            if log["version"] > before:
                break
            await asyncio.sleep(0.01)
        applied_at = log["version"]
        again, _ = await open_socket(server, game_id, tokens[seat], after=before)
        answer = await again.command({"type": "draw_and_pass"}, key="turn-1")
        assert answer["type"] == "applied" and answer["replayed"] is True
        assert answer["version"] == applied_at and answer["events"] == []
        assert again.versions == list(range(before + 1, applied_at + 1))  # sent on hello
        over_http = await client.post(
            f"/api/games/{game_id}/commands",
            json={"type": "draw_and_pass"},
            headers=auth(tokens[seat]) | {"Idempotency-Key": "turn-1"},
        )
        assert over_http.json()["replayed"] is True and over_http.json()["version"] == applied_at
        log = (await client.get(f"/api/games/{game_id}/events")).json()
        assert log["version"] == applied_at
        passes = [e for e in log["events"] if e["event"]["type"] == "turn_passed"]
        assert len(passes) == 1
        await again.connection.close()


async def test_events_resume_after_a_reconnect_with_no_gap_and_no_repeat(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, truth = await new_game(client)
        watcher, _ = await open_socket(server, game_id, tokens[0])
        await watcher.until(truth.version)
        for move in range(9):
            seat = truth.state.seat_to_play
            assert seat is not None
            command = legal(truth, seat, place=move % 2 == 0)
            answer = await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(tokens[seat])
            )
            assert answer.status_code == 200, answer.text
            truth.apply(seat, command)
            if move == 3:
                await watcher.until(truth.version)
                left_at = watcher.versions[-1]
                await watcher.connection.close()
        resumed, welcome = await open_socket(server, game_id, tokens[0], after=left_at)
        assert welcome["version"] == truth.version
        await resumed.until(truth.version)
        assert [*watcher.versions, *resumed.versions] == list(range(1, truth.version + 1))
        check_entries(resumed.records, 0, truth, "seat 0's resumed socket")
        await resumed.connection.close()
        late, _ = await open_socket(server, game_id, tokens[0], after=truth.version + 1)
        assert late.records == [] and json.loads(late.texts[-1])["code"] == "bad_version"
        await late.connection.close()


async def test_a_token_of_another_game_is_refused_and_the_connection_closed(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        one = await create(client, [{"type": "human"}, {"type": "human"}], seed=1)
        two = await create(client, [{"type": "human"}, {"type": "human"}], seed=2)
        stranger = one["seats"][0]["token"]
        socket, answer = await open_socket(server, two["id"], stranger)
        assert (answer["type"], answer["status"]) == ("refused", 401)
        assert answer["code"] == "unauthorized"
        with pytest.raises(ConnectionClosed) as closed:
            await socket.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        # the same with the token in the header, and with a ticket of the other game
        url = server.replace("http://", "ws://") + f"/api/games/{two['id']}/socket"
        async with connect(url, additional_headers=auth(stranger)) as connection:
            await connection.send(json.dumps({"type": "hello"}))
            assert json.loads(await connection.recv())["code"] == "unauthorized"
        issued = await client.post(f"/api/games/{one['id']}/tickets", headers=auth(stranger))
        ticket = issued.json()["ticket"]
        async with connect(f"{url}?ticket={ticket}") as connection:
            await connection.send(json.dumps({"type": "hello"}))
            assert json.loads(await connection.recv())["code"] == "unauthorized"
        # a ticket of the right game names its seat, once
        own = two["seats"][1]["token"]
        issued = await client.post(f"/api/games/{two['id']}/tickets", headers=auth(own))
        ticket = issued.json()["ticket"]
        async with connect(f"{url}?ticket={ticket}") as connection:
            await connection.send(json.dumps({"type": "hello"}))
            assert json.loads(await connection.recv())["seat"] == 1
        unknown, answer = await open_socket(server, "no-such-game", stranger)
        assert (answer["status"], answer["code"]) == (404, "unknown_game")
        await unknown.connection.close()


async def test_the_socket_bot_plays_a_whole_game_against_the_ai(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "human", "name": "Bot"}, {"type": "ai"}], seed=4)
        bot = ROOT / "examples" / "socket_bot.py"
        token = created["seats"][0]["token"]
        args = [sys.executable, str(bot), server, created["id"], token, "--seed", "1"]
        done = await asyncio.to_thread(subprocess.run, args, capture_output=True, timeout=60)
        assert done.returncode == 0, done.stderr.decode()[-2000:]
        final = (await client.get(f"/api/games/{created['id']}")).json()
        assert final["status"] == "over"
        assert "The game is over." in done.stdout.decode()


async def test_a_stopping_server_closes_its_sockets_for_a_reconnect(
    serving: dict[str, str], redis_url: str, tmp_path: Path
) -> None:
    log = tmp_path / "server.log"
    proc, url = start_server({"REDIS_URL": database(redis_url, 8), **serving}, log)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            created = await create(client, [{"type": "human"}, {"type": "human"}], seed=3)
        socket, welcome = await open_socket(url, created["id"], created["seats"][0]["token"])
        assert welcome["type"] == "welcome"
        proc.terminate()
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                await socket.receive()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 1012
    finally:
        stop_server(proc)
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


def subscribers(server: str) -> float:
    """The server's live stream subscribers (its `/metrics`)."""
    text = httpx.get(f"{server}/metrics", timeout=10).text
    line = next(x for x in text.splitlines() if x.startswith("boardgames_stream_subscribers "))
    return float(line.split()[1])


async def test_the_wire_takes_fragments_binary_frames_and_pings(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, truth = await new_game(client)
    seat = truth.state.seat_to_play
    assert seat is not None
    socket, _ = await open_socket(server, game_id, tokens[seat])
    command = legal(truth, seat, place=True)
    text = json.dumps({"type": "command", "key": "in-pieces", "command": command})
    await socket.connection.send([text[:7], text[7:20], text[20:]])  # one message, 3 frames
    while (answer := await socket.receive())["type"] == "events":
        pass
    assert answer["type"] == "applied" and answer["key"] == "in-pieces", answer
    truth.apply(seat, command)
    await socket.connection.send(json.dumps({"type": "view"}).encode())  # a binary frame
    assert (await socket.receive())["type"] == "view"
    await asyncio.wait_for(await socket.connection.ping(b"are you there"), 10)  # its pong
    await socket.connection.close()
    assert socket.connection.close_code == 1000


async def test_a_message_over_64_kib_closes_the_connection_with_1009(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, _ = await new_game(client)
    socket, _ = await open_socket(server, game_id, tokens[0])
    await socket.send({"type": "command", "key": "x" * (65 * 1024), "command": {}})
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await socket.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009


async def test_a_client_gone_leaves_no_subscription_behind(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, _ = await new_game(client)
    before = subscribers(server)
    closing, _ = await open_socket(server, game_id, tokens[0])
    cut, _ = await open_socket(server, game_id, tokens[1])
    assert subscribers(server) == before + 2
    await closing.connection.close()  # the closing handshake
    cut.connection.transport.abort()  # no handshake: the TCP connection is just cut
    await until(lambda: subscribers(server) == before)  # both left the hub


async def test_another_websocket_path_is_refused_by_the_app(server: str) -> None:
    url = server.replace("http://", "ws://")
    for path in ("/api/games/nothing/sockets", "/api/games/socket", "/anywhere"):
        with pytest.raises(InvalidStatus) as refused:
            await connect(url + path)
        assert 400 <= refused.value.response.status_code < 500, path
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        assert (await client.get("/healthz")).status_code == 200


async def test_a_frame_that_breaks_the_protocol_closes_the_connection_with_1002(
    server: str,
) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        game_id, tokens, _ = await new_game(client)
    socket, _ = await open_socket(server, game_id, tokens[0])
    socket.connection.transport.write(b"\x81\x02hi")  # not masked, as a client's must be
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await socket.receive()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1002
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        assert (await client.get("/healthz")).status_code == 200
