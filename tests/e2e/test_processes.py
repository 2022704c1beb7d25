"""The ways to run it: embedded, and API and worker as separate processes on one Redis."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
from client import auth, create, view
from conftest import ROOT, start_server, stop_server

from tests.processes import database


async def wait_over(
    client: httpx.AsyncClient, game_id: str, seconds: float = 60
) -> dict[str, object]:
    while (shown := await view(client, game_id))["status"] != "over":
        await asyncio.sleep(0.1)
    return shown


async def test_embedded_mode_needs_no_redis(tmp_path: Path) -> None:
    log = tmp_path / "embedded.log"
    proc, url = start_server({"REDIS_URL": ""}, log)
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            created = await create(client, [{"type": "ai"}, {"type": "ai", "level": "easy"}])
            await wait_over(client, created["id"])
    finally:
        stop_server(proc)
    assert "embedded mode" in log.read_text()


async def test_separate_api_and_worker_processes_share_one_redis(
    redis_url: str, tmp_path: Path
) -> None:
    url_of_test = database(redis_url, 7)
    proc, url = start_server(
        {"REDIS_URL": url_of_test, "WORKER_IN_PROCESS": "0"}, tmp_path / "api.log"
    )
    env = {**os.environ, "REDIS_URL": url_of_test, "AI_THINK_SECONDS": "0"}
    arq = Path(sys.executable).with_name("arq")
    worker = subprocess.Popen(
        [str(arq), "workers.main.WorkerSettings"],
        cwd=ROOT,
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            created = await create(client, [{"type": "human"}, {"type": "ai"}], seed=9)
            token = created["seats"][0]["token"]
            shown = await view(client, created["id"], token)
            if 0 in shown["to_act"]:
                answer = await client.post(
                    f"/api/games/{created['id']}/commands",
                    json=shown["legal"][0],
                    headers=auth(token),
                )
                assert answer.status_code == 200
            while 1 in (shown := await view(client, created["id"], token))["to_act"]:
                await asyncio.sleep(0.05)
            log = (await client.get(f"/api/games/{created['id']}/events")).json()["events"]
            played = [e for e in log if e["event"]["type"] in ("tile_placed", "turn_passed")]
            assert any(e["event"]["seat"] == 1 for e in played), "the AI seat never played"
    finally:
        worker.terminate()
        worker.wait(timeout=10)
        stop_server(proc)


async def test_the_stream_sends_keep_alive_comments(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "human"}, {"type": "human"}])
        lines = []
        async with client.stream("GET", f"/api/games/{created['id']}/stream") as answer:
            async for line in answer.aiter_lines():
                lines.append(line)
                if line.startswith(":"):
                    break
        assert lines[0] == "id: 1" and lines[-1] == ": keep-alive"


async def test_an_idle_connection_outlives_the_clients_expiry(server: str) -> None:
    """httpx (like Node) drops a connection idle for 5 s: the server keeps it longer, so a
    request never goes out on a connection the server is closing at that very moment."""
    host, port = server.removeprefix("http://").rsplit(":", 1)
    reader, writer = await asyncio.open_connection(host, int(port))
    try:
        for pause in (0.0, 6.0):
            await asyncio.sleep(pause)
            writer.write(f"GET /healthz HTTP/1.1\r\nHost: {host}\r\n\r\n".encode())
            await writer.drain()
            status = await asyncio.wait_for(reader.readline(), 10)
            assert status.startswith(b"HTTP/1.1 200"), status
            length = 0
            while (line := await asyncio.wait_for(reader.readline(), 10)) != b"\r\n":
                name, _, value = line.decode().partition(":")
                if name.lower() == "content-length":
                    length = int(value)
            await reader.readexactly(length)
    finally:
        writer.close()


async def test_clients_that_leave_are_unsubscribed(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        created = await create(client, [{"type": "human"}, {"type": "human"}])
        before = (await client.get("/healthz")).json()["subscribers"]

        async def listen_then_leave() -> None:
            url = f"{server}/api/games/{created['id']}/stream"
            async with httpx.AsyncClient() as own, own.stream("GET", url) as answer:
                async for line in answer.aiter_lines():
                    if line.startswith("id: "):
                        return

        await asyncio.gather(*(listen_then_leave() for _ in range(5)))
        while (await client.get("/healthz")).json()["subscribers"] > before:
            await asyncio.sleep(0.05)


async def test_the_openapi_schema_lists_every_route(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        schema = (await client.get("/schema/openapi.json")).json()
    assert set(schema["paths"]) >= {
        "/api/games",
        "/api/games/import",
        "/api/games/{game_id}",
        "/api/games/{game_id}/commands",
        "/api/games/{game_id}/events",
        "/api/games/{game_id}/stream",
        "/api/games/{game_id}/replay",
        "/api/games/{game_id}/export",
    }
    assert "CreateCrazymino" in str(schema["components"]["schemas"])
    assert "/api/games/types" in schema["paths"]
