"""Redis goes away under load: restarted cleanly (SIGTERM) and after a crash (kill -9, its
append-only file synced every second), and hung (SIGSTOP) for 5 s.

While it is away the API answers 503 (never 500) within its timeout; afterwards the service
serves again without a restart, the worker is still running, AI games carry on, and no
acknowledged command is lost, duplicated or out of place."""

from __future__ import annotations

import asyncio
import signal
import time
from pathlib import Path

import httpx
from faults.conftest import settings
from faults.players import HUMANS, Player, Seen, check_acknowledged, create

from tests.processes import RedisServer, start_server, start_worker, stop
from tests.waiting import until


async def moving(base: str, ids: list[str]) -> None:
    """Each running game among `ids` moves again."""
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        before = {g: (await client.get(f"/api/games/{g}")).json() for g in ids}
        waiting = {g for g, shown in before.items() if shown["status"] == "active"}

        async def moved() -> bool:
            nonlocal waiting
            now = {g: (await client.get(f"/api/games/{g}")).json()["version"] for g in waiting}
            waiting = {g for g, v in now.items() if v == before[g]["version"]}
            return not waiting

        await until(moved, poll=0.2)


async def test_redis_restarts_under_a_burst_lose_nothing(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store, AI_THINK_SECONDS="0.2")
    api, base = start_server(env, tmp_path / "api.log")
    worker = start_worker(env, tmp_path / "worker.log")
    seen = Seen()
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            games = [await create(client, HUMANS, seed) for seed in range(4)]
            ai = [(await create(client, [{"type": "ai"}] * 2, 100 + s))["id"] for s in range(5)]
        players = [Player(game, seen, seed) for seed, game in enumerate(games)]
        done = asyncio.Event()
        tasks = [asyncio.create_task(p.play([base], done)) for p in players]
        await asyncio.sleep(2)
        for how in (signal.SIGTERM, signal.SIGKILL):
            store.stop(how)
            await asyncio.sleep(1.5)
            store.start()
            await asyncio.sleep(2.5)
        done.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        assert worker.poll() is None, "the worker stopped with Redis"
        await moving(base, ai)
        await check_acknowledged(base, players, seen)
    finally:
        stop(worker)
        stop(api)
    assert seen.statuses[503] > 0, "the outage was not seen"
    assert set(seen.statuses) <= {200, 503}, seen.statuses
    assert seen.transport_errors == 0
    assert "Traceback" not in (tmp_path / "api.log").read_text()


async def test_a_hung_redis_is_answered_503_while_it_hangs(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store)
    api, base = start_server(env, tmp_path / "api.log")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            game = await create(client, HUMANS, 1)
            seen = Seen()
            player = Player(game, seen, 1)
            store.send(signal.SIGSTOP)
            paused = time.monotonic()
            answers = []
            # a player sends commands all along, each again with its key until acknowledged
            done = asyncio.Event()
            playing = asyncio.create_task(player.play([base], done))
            while time.monotonic() - paused < 3:  # asking for 3 s, each answered in turn
                for path in (f"/api/games/{game['id']}", "/api/games", "/healthz"):
                    answer = await client.get(path)
                    answers.append((path, answer.status_code))
            # Redis wakes only once every answer came: each came while it hung (its timeout).
            store.send(signal.SIGCONT)
            await asyncio.sleep(2)
            done.set()
            await asyncio.wait_for(playing, 30)
            healthy = await client.get("/healthz")
            await check_acknowledged(base, [player], seen)
    finally:
        store.send(signal.SIGCONT)
        stop(api)
    assert answers and all(status == 503 for _, status in answers), answers
    assert healthy.status_code == 200
    assert seen.statuses[503] > 0 and set(seen.statuses) <= {200, 503}, seen.statuses
