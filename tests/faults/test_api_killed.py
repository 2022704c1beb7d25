"""An API process killed (kill -9) in the middle of a burst of commands: clients send each
command again, with its Idempotency-Key, to another API process; no acknowledged command is
lost and none is applied twice."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
from faults.conftest import settings
from faults.players import HUMANS, Player, Seen, check_acknowledged, create

from tests.processes import RedisServer, start_server, stop


async def test_a_killed_api_loses_no_acknowledged_command(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store)
    doomed, first = start_server(env, tmp_path / "api1.log")
    other, second = start_server(env, tmp_path / "api2.log")
    seen = Seen()
    try:
        async with httpx.AsyncClient(base_url=first, timeout=10) as client:
            games = [await create(client, HUMANS, seed) for seed in range(6)]
        players = [Player(game, seen, seed) for seed, game in enumerate(games)]
        done = asyncio.Event()
        tasks = [asyncio.create_task(p.play([first, second], done)) for p in players]
        await asyncio.sleep(2)
        doomed.kill()
        doomed.wait()
        await asyncio.sleep(3)
        done.set()
        await asyncio.wait_for(asyncio.gather(*tasks), 60)
        await check_acknowledged(second, players, seen)
    finally:
        stop(doomed)
        stop(other)
    assert seen.transport_errors > 0, "the kill was not felt"
    assert set(seen.statuses) <= {200, 503}, seen.statuses
