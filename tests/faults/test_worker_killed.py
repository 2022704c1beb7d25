"""A worker killed (kill -9) while it plays the AI turns of 30 games: once a new worker starts,
every game moves within 10 s, and no AI move is applied twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from faults.conftest import settings
from faults.players import create

from tests.processes import RedisServer, start_server, start_worker, stop
from tests.waiting import until

GAMES = 30


async def versions(client: httpx.AsyncClient, ids: list[str]) -> dict[str, tuple[int, str]]:
    shown = await asyncio.gather(*(client.get(f"/api/games/{g}") for g in ids))
    return {g: (s.json()["version"], s.json()["status"]) for g, s in zip(ids, shown, strict=True)}


async def test_games_move_again_with_a_new_worker(store: RedisServer, tmp_path: Path) -> None:
    env = settings(store, AI_THINK_SECONDS="0.3")
    api, base = start_server(env, tmp_path / "api.log")
    first = start_worker(env, tmp_path / "worker1.log")
    second = None
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            seats = [{"type": "ai", "level": "easy"}, {"type": "ai"}]
            ids = [(await create(client, seats, seed))["id"] for seed in range(GAMES)]
            await asyncio.sleep(2.5)  # the worker is busy with their turns
            first.kill()
            first.wait()
            before = await versions(client, ids)
            stalled = {g for g, (_, status) in before.items() if status == "active"}
            assert len(stalled) >= GAMES // 2, "most games should still be running"
            second = start_worker(env, tmp_path / "worker2.log")
            waiting = set(stalled)

            async def moved() -> bool:
                nonlocal waiting
                now = await versions(client, sorted(waiting))
                waiting = {g for g, (v, _) in now.items() if v == before[g][0]}
                return not waiting

            await until(moved, poll=0.2)  # every stalled game moves again

            async def finished() -> bool:
                return all(s != "active" for _, s in (await versions(client, ids)).values())

            await until(finished, poll=0.5)
            # No AI move applied twice: every log passes the import check, which decides each
            # command again against the rules at its recorded time and seat.
            for game_id in ids:
                exported = await client.get(f"/api/games/{game_id}/export")
                imported = await client.post("/api/games/import", content=exported.content)
                assert imported.status_code == 201, imported.text
    finally:
        for proc in (first, second, api):
            if proc is not None:
                stop(proc)
