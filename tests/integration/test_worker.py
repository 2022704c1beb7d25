"""AI seats played by the arq worker: embedded (fakeredis) and on a real Redis."""

from __future__ import annotations

import asyncio
import time

import pytest

from app.config import Settings
from app.runtime import running
from app.seats import SeatRequest
from app.service import CreateGame
from domain.crazymino.model import TileDrawn
from workers.ai import ai_turn


@pytest.mark.parametrize("backend", ["embedded", "real"])
async def test_the_worker_plays_ai_seats_to_the_end(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = None if backend == "embedded" else request.getfixturevalue("redis_url")
    settings = Settings(redis_url=url, worker_in_process=True, think_seconds=0, poll_seconds=0.01)
    async with running(settings) as (service, _):
        seats = [SeatRequest("ai", level="easy"), SeatRequest("ai", level="normal")]
        table, public = await service.create(CreateGame("crazymino", seats, seed=21), time.time())
        assert all(seat.token is None for seat in public)
        deadline = time.monotonic() + 60
        while not (table := await service.load(table.id)).over:
            assert time.monotonic() < deadline, f"stuck at version {table.version}"
            await asyncio.sleep(0.05)
        _, events = await service.events(table.id)
        assert table.game.replay(e for _, e in events) == table.state
        assert not any(isinstance(e, TileDrawn) and e.tile is None for _, e in events)


async def test_a_job_for_an_old_version_or_a_person_does_nothing() -> None:
    settings = Settings(redis_url=None, worker_in_process=False)
    async with running(settings) as (service, _):
        seats = [SeatRequest("human"), SeatRequest("human")]
        table, _ = await service.create(CreateGame("crazymino", seats, seed=2), time.time())
        seat = next(iter(table.game.to_act(table.state)))
        assert await ai_turn({"service": service}, table.id, table.version - 1, seat) == "moved on"
        assert (
            await ai_turn({"service": service}, table.id, table.version, seat) == "not an AI seat"
        )
        assert await service.store.version(table.id) == table.version
