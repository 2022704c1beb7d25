"""The service on a 3-master Redis Cluster: an API process and a worker process (3 queues),
a person against the AI watched live, games of AIs alone, the lobby and the health check."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from client import auth, create, my_turn, sse, view

from tests.processes import start_server, start_worker, stop


@pytest.fixture(scope="module")
def cluster_api(redis_cluster_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    folder = tmp_path_factory.mktemp("cluster-api")
    env = {"REDIS_URL": redis_cluster_url, "QUEUES": "3", "WORKER_IN_PROCESS": "0"}
    # The limits per client address on (high): their counters live on the cluster too.
    env |= {"RATE_CREATE_PER_MINUTE": "1000", "RATE_COMMANDS_PER_MINUTE": "100000"}
    env |= {"MAX_OPEN_GAMES": "1000"}
    api, url = start_server(env, folder / "api.log")
    worker = start_worker(env, folder / "worker.log")
    try:
        yield url
    finally:
        stop(worker)
        stop(api)
        for log in ("api.log", "worker.log"):
            text = (folder / log).read_text()
            assert "Traceback" not in text, text[-4000:]


async def test_a_person_plays_against_the_ai_on_a_cluster(cluster_api: str) -> None:
    async with httpx.AsyncClient(base_url=cluster_api, timeout=30) as client:
        health = await client.get("/healthz")
        assert health.status_code == 200, health.text
        created = await create(client, [{"type": "human"}, {"type": "ai"}], seed=7)
        game_id, token = created["id"], created["seats"][0]["token"]
        watched: list[dict[str, Any]] = []
        watcher = asyncio.create_task(sse(client, game_id, token, None, watched))
        while (shown := await my_turn(client, game_id, token, 0))["status"] != "over":
            command = max(shown["legal"], key=lambda c: c["type"] == "place_tile")
            answer = await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(token)
            )
            assert answer.status_code == 200, answer.text
        await asyncio.wait_for(watcher, 20)
        ticket = await client.post(f"/api/games/{game_id}/tickets", headers=auth(token))
        assert ticket.status_code in (200, 201), ticket.text
        replayed: list[dict[str, Any]] = []
        with_ticket = client.stream(
            "GET", f"/api/games/{game_id}/stream", params={"ticket": ticket.json()["ticket"]}
        )
        async with with_ticket as answer:
            assert answer.status_code == 200
            async for line in answer.aiter_lines():
                if line.startswith("id: "):
                    replayed.append({"id": int(line[4:])})
                if '"game_ended"' in line:
                    break
        log = (await client.get(f"/api/games/{game_id}/events")).json()
        versions = [e["version"] for e in log["events"]]
        assert versions == list(range(1, log["version"] + 1))
        assert [m["id"] for m in watched] == versions == [m["id"] for m in replayed]
        listed = (await client.get("/api/games", params={"limit": 100})).json()
        assert game_id in [g["id"] for g in listed["games"]]


async def test_games_of_ais_alone_end_on_a_cluster(cluster_api: str) -> None:
    async with httpx.AsyncClient(base_url=cluster_api, timeout=30) as client:
        seats = [{"type": "ai", "level": "easy"}, {"type": "ai"}]
        ids = [(await create(client, seats, seed))["id"] for seed in range(6)]
        for game_id in ids:
            while (await view(client, game_id))["status"] != "over":
                await asyncio.sleep(0.1)
        metrics = (await client.get("/metrics")).text
        assert "boardgames_queue_depth" in metrics
