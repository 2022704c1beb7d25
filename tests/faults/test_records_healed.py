"""A rated game whose end is never recorded by the process that ended it (killed between the
game's last event and the record: its worker killed -9, the record's job never queued) is
recorded once a new worker runs, within seconds, by the sweep; and what it records is what a
rebuild from the logs makes."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import redis.asyncio
from faults.conftest import settings
from faults.players import ok, player

from tests.processes import ROOT, RedisServer, start_server, start_worker, stop
from tests.waiting import until


async def result(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    return await ok(client.get(f"/api/games/{game_id}/result"))  # type: ignore[no-any-return]


async def test_a_game_ended_by_a_process_that_died_is_recorded_by_the_next_worker(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store)
    api, base = start_server(env, tmp_path / "api.log")
    first = start_worker(env, tmp_path / "worker1.log")
    second = None
    ann, bob = await player(base, "ann_heal"), await player(base, "bob_heal")
    try:
        body = {"game": "crazymino", "seats": [{"type": "open"}] * 2, "rated": True}
        table = await ok(ann.post("/api/tables", json=body), 201)
        await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
        game_id = (await ok(ann.post(f"/api/tables/{table['id']}/start")))["game_id"]
        first.kill()  # the worker dies (kill -9) before the game ends
        first.wait()
        over = False
        while not over:
            for client in (ann, bob):
                shown = await ok(client.get(f"/api/games/{game_id}"))
                over = shown["status"] == "over"
                if not over and shown["seat"] in shown["to_act"]:
                    await ok(client.post(f"/api/games/{game_id}/commands", json=shown["legal"][0]))
        assert (await result(ann, game_id))["recorded"] is False
        # The record's job is lost with the process that would have queued it.
        client = redis.asyncio.Redis.from_url(store.url)
        try:
            queues = [k async for k in client.scan_iter(match="arq:queue:*")]
            assert queues
            await client.delete(*queues)
        finally:
            await client.aclose()

        second = start_worker(env, tmp_path / "worker2.log")

        async def recorded() -> dict[str, Any] | None:
            found: dict[str, Any] = await result(ann, game_id)
            return found if found["recorded"] else None

        found = await until(recorded, poll=0.2)
        assert found["rated"] and {s["before"] for s in found["seats"]} == {1000}
        pages = [await ok(ann.get(f"/api/players/{n}")) for n in ("ann_heal", "bob_heal")]
        assert [p["titles"][0]["rated_games"] for p in pages] == [1, 1]
        # The command an operator runs makes the same records again from the logs.
        rebuilt = subprocess.run(
            [sys.executable, "-m", "app", "ratings", "rebuild"],
            env={**os.environ, **env}, cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert rebuilt.returncode == 0, rebuilt.stderr
        assert "from 1 finished game in" in rebuilt.stdout
        assert await result(ann, game_id) == found
        assert [await ok(ann.get(f"/api/players/{n}")) for n in ("ann_heal", "bob_heal")] == pages
    finally:
        await ann.aclose()
        await bob.aclose()
        for proc in (first, second, api):
            if proc is not None:
                stop(proc)
