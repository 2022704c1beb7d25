"""Abuse is bounded and answers are safe: limits per client address shared by every API process,
names made safe, and the headers every answer carries."""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from client import auth, create, view
from conftest import start_server, stop_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

from tests.processes import database
from tests.waiting import until

#: A probe of the edges (held in the fault suite too: `pytest -m faults`).
pytestmark = pytest.mark.faults

HUMANS = [{"type": "human"}, {"type": "human"}]


@pytest.fixture
def url(redis_url: str) -> Iterator[str]:
    """A database of the test Redis for these tests alone, empty at the start."""
    yield database(redis_url, 6)


@pytest.fixture
def two_servers(url: str, tmp_path: Path) -> Iterator[tuple[str, str]]:
    """Two API processes on one Redis, with low limits."""
    limits = {
        "REDIS_URL": url,
        "WORKER_IN_PROCESS": "0",
        "RATE_CREATE_PER_MINUTE": "6",
        "RATE_COMMANDS_PER_MINUTE": "10",
        "MAX_OPEN_GAMES": "4",
    }
    one, first = start_server(limits, tmp_path / "one.log")
    two, second = start_server(limits, tmp_path / "two.log")
    try:
        yield first, second
    finally:
        stop_server(one)
        stop_server(two)


async def post_game(base: str) -> httpx.Response:
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        return await client.post("/api/games", json={"game": "crazymino", "seats": HUMANS})


async def test_the_cap_on_running_games_is_shared_by_every_api_process(
    two_servers: tuple[str, str],
) -> None:
    first, second = two_servers
    answers = [await post_game(first if n % 2 else second) for n in range(5)]
    assert [a.status_code for a in answers] == [201, 201, 201, 201, 429]
    refused = answers[-1]
    assert refused.json()["code"] == "too_many_open_games"
    assert int(refused.headers["retry-after"]) > 0
    # A game that ends frees a place.
    game = answers[0].json()
    async with httpx.AsyncClient(base_url=first, timeout=10) as client:
        for seat in game["seats"]:
            shown = await view(client, game["id"], seat["token"])
            if seat["seat"] in shown["to_act"]:
                break
        assert (
            await client.post(
                f"/api/games/{game['id']}/commands",
                json={"type": "abandon"},
                headers=auth(seat["token"]),
            )
        ).status_code == 409  # only the service abandons a game
    assert (await post_game(first)).status_code == 429


async def test_a_refused_creation_does_not_use_up_the_creation_budget(
    two_servers: tuple[str, str],
) -> None:
    first, second = two_servers
    async with httpx.AsyncClient(timeout=10) as client:
        codes = []
        for n in range(10):
            answer = await client.post(
                f"{first if n % 2 else second}/api/games",
                json={"game": "crazymino", "seats": [{"type": "ai"}, {"type": "ai"}]},
            )
            codes.append((answer.status_code, answer.json().get("code")))
    # all-AI games end on their own but there is no worker here: four are still running; the
    # six refused after them are refused for that alone, never for the six a minute
    assert codes == [(201, None)] * 4 + [(429, "too_many_open_games")] * 6


@pytest.fixture
def servers(url: str, tmp_path: Path, request: pytest.FixtureRequest) -> Iterator[list[str]]:
    """Two API processes on one Redis, with the limits the test's `limits` mark gives."""
    limits = {
        "REDIS_URL": url,
        "WORKER_IN_PROCESS": "0",
        **request.node.get_closest_marker("limits").kwargs,
    }
    one, first = start_server(limits, tmp_path / "one.log")
    two, second = start_server(limits, tmp_path / "two.log")
    try:
        yield [first, second]
    finally:
        stop_server(one)
        stop_server(two)


@pytest.mark.limits(RATE_CREATE_PER_MINUTE="3", MAX_OPEN_GAMES="0")
async def test_creating_is_limited_per_minute_across_processes(servers: list[str]) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        bad = {"game": "crazymino", "seats": HUMANS, "options": {"speed": 2}}
        for n in range(5):  # refused: they give their place back
            answer = await client.post(f"{servers[n % 2]}/api/games", json=bad)
            assert answer.status_code == 422
        codes = []
        for n in range(4):
            answer = await client.post(
                f"{servers[n % 2]}/api/games", json={"game": "crazymino", "seats": HUMANS}
            )
            codes.append(answer.status_code)
        assert codes == [201, 201, 201, 429]
        assert answer.json()["code"] == "rate_limited"
        assert 0 < int(answer.headers["retry-after"]) <= 60


@pytest.mark.limits(RATE_VIEWS_PER_MINUTE="5", RATE_TICKETS_PER_MINUTE="2")
async def test_views_and_tickets_are_limited_per_minute_across_processes(
    servers: list[str],
) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        game = (
            await client.post(
                f"{servers[0]}/api/games", json={"game": "crazymino", "seats": HUMANS}
            )
        ).json()
        game_id, token = game["id"], game["seats"][0]["token"]
        asked = [
            f"/api/games/{game_id}",
            f"/api/games/{game_id}/events",
            f"/api/games/{game_id}/replay?at=1",
            f"/api/games/{game_id}/timeline",
            "/api/games",
            f"/api/games/{game_id}",
        ]
        statuses = [
            (await client.get(servers[n % 2] + path)).status_code for n, path in enumerate(asked)
        ]
        assert statuses == [200] * 5 + [429]
        tickets = [
            (
                await client.post(
                    f"{servers[n % 2]}/api/games/{game_id}/tickets", headers=auth(token)
                )
            ).status_code
            for n in range(3)
        ]
        assert tickets == [201, 201, 429]


@pytest.mark.limits(RATE_STREAMS_PER_MINUTE="0", MAX_STREAMS_PER_ADDRESS="2")
async def test_an_address_holds_a_bounded_number_of_streams_and_sockets(
    servers: list[str],
) -> None:
    first = servers[0]
    async with httpx.AsyncClient(timeout=10) as client:
        game = (
            await client.post(f"{first}/api/games", json={"game": "crazymino", "seats": HUMANS})
        ).json()
        url = f"{first}/api/games/{game['id']}/stream"
        async with client.stream("GET", url) as one, client.stream("GET", url) as two:
            assert one.status_code == two.status_code == 200
            third = await client.get(url)
            assert third.status_code == 429
            assert third.json()["code"] == "too_many_open_streams"
            assert int(third.headers["retry-after"]) > 0
            socket_url = first.replace("http://", "ws://") + f"/api/games/{game['id']}/socket"
            async with connect(socket_url) as socket:
                refused = json.loads(await socket.recv())
                assert (refused["status"], refused["code"]) == (429, "too_many_open_streams")
                with pytest.raises(ConnectionClosed) as closed:
                    await socket.recv()
                assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429

        async def admitted() -> bool:  # a stream that ended gives its place back
            async with client.stream("GET", url) as again:
                return again.status_code == 200

        await until(admitted, poll=0.1)


@pytest.mark.limits(RATE_STREAMS_PER_MINUTE="3")
async def test_streams_and_sockets_opened_are_limited_per_minute(servers: list[str]) -> None:
    async with httpx.AsyncClient(timeout=10) as client:
        game = (
            await client.post(
                f"{servers[0]}/api/games", json={"game": "crazymino", "seats": HUMANS}
            )
        ).json()
        statuses = []
        for n in range(4):
            url = f"{servers[n % 2]}/api/games/{game['id']}/stream"
            async with client.stream("GET", url) as stream:
                statuses.append(stream.status_code)
        assert statuses == [200, 200, 200, 429]


async def test_commands_are_limited_per_minute_across_processes(
    two_servers: tuple[str, str],
) -> None:
    first, second = two_servers
    answer = await post_game(first)
    game = answer.json()
    statuses = []
    async with httpx.AsyncClient(timeout=10) as client:
        for n in range(12):
            tokens = {s["seat"]: s["token"] for s in game["seats"]}
            base = first if n % 2 else second
            shown = (await client.get(f"{base}/api/games/{game['id']}")).json()
            (to_act,) = shown["to_act"]
            answer = await client.post(
                f"{base}/api/games/{game['id']}/commands",
                json={"type": "draw_and_pass"},
                headers=auth(tokens[to_act]),
            )
            statuses.append(answer.status_code)
            if answer.status_code == 429:
                assert answer.json()["code"] == "rate_limited"
                assert 0 < int(answer.headers["retry-after"]) <= 60
    assert statuses == [200] * 10 + [429] * 2


async def test_names_are_normalised(server: str) -> None:
    decomposed = "Zoe\u0308 E\u0301mile"  # e + combining marks
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(
            client, [{"type": "human", "name": f"  {decomposed} "}, {"type": "ai"}]
        )
        shown = await view(client, created["id"])
    name = shown["seats"][0]["name"]
    assert name == unicodedata.normalize("NFC", decomposed) and len(name) == len("Zoë Émile")


async def test_every_answer_says_nosniff(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, HUMANS)
        answers = [
            await client.get("/healthz"),
            await client.get("/api/games"),
            await client.get(f"/api/games/{created['id']}"),
            await client.get("/api/games/nope"),
            await client.get("/no/such/page"),
            await client.delete("/api/games"),
            await client.post("/api/games", content=b"{"),
            await client.get("/schema/openapi.json"),
        ]
        async with client.stream("GET", f"/api/games/{created['id']}/stream") as streamed:
            answers.append(streamed)
    for answer in answers:
        assert answer.headers.get("x-content-type-options") == "nosniff", answer.request.url
    assert answers[5].status_code == 405 and "POST" in answers[5].headers["allow"]


async def test_health_answers_503_when_redis_is_away(tmp_path: Path) -> None:
    # Nothing listens on that port: every Redis call fails at once, and is answered (no wait).
    env = {"REDIS_URL": "redis://127.0.0.1:9/0", "WORKER_IN_PROCESS": "0"}
    proc, base = start_server(env, tmp_path / "api.log", ready=False)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=None) as client:
            health = await client.get("/healthz")
            assert health.status_code == 503 and health.json()["code"] == "store_unavailable"
            created = await client.post("/api/games", json={"game": "crazymino", "seats": HUMANS})
            listed = await client.get("/api/games")
            for answer in (created, listed):
                assert answer.status_code == 503, answer.text
                assert answer.json()["code"] == "store_unavailable"
                assert int(answer.headers["retry-after"]) > 0
    finally:
        stop_server(proc)
