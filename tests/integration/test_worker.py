"""AI seats played by the arq worker: embedded (fakeredis) and on a real Redis."""

from __future__ import annotations

import asyncio
import time

import pytest
from arq.connections import ArqRedis

from app.config import Settings
from app.machine import ArqScheduler
from app.runtime import running
from app.seats import SeatRequest
from app.service import CreateGame, GameService
from domain.crazymino.model import TileDrawn
from workers.ai import ai_turn
from workers.sweep import sweep


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


class Forgetful(ArqScheduler):
    """An enqueue lost in a crash: the first AI turn asked for never reaches the queue."""

    def __init__(self, pool: ArqRedis) -> None:
        super().__init__(pool)
        self.lost = 0

    async def ai_turn(self, game_id: str, version: int, seat: int) -> None:
        if self.lost == 0:
            self.lost += 1
            return
        await super().ai_turn(game_id, version, seat)


async def test_the_sweep_heals_a_game_whose_enqueue_was_lost() -> None:
    settings = Settings(redis_url=None, worker_in_process=True, think_seconds=0, poll_seconds=0.01)
    async with running(settings) as (service, _):
        assert isinstance(service.scheduler, ArqScheduler)
        service.scheduler = Forgetful(service.scheduler.pool)
        seats = [SeatRequest("ai"), SeatRequest("ai")]
        table, _ = await service.create(CreateGame("crazymino", seats, seed=8), time.time())
        await asyncio.sleep(0.3)
        assert (await service.load(table.id)).version == table.version  # stalled
        assert await sweep({"service": service}) >= 1
        deadline = time.monotonic() + 60
        while not (await service.load(table.id)).over:
            assert time.monotonic() < deadline
            await asyncio.sleep(0.05)


async def test_the_sweep_passes_over_a_broken_game() -> None:
    settings = Settings(redis_url=None, worker_in_process=False)
    async with running(settings) as (service, _):
        seats = [SeatRequest("ai"), SeatRequest("ai")]
        broken, _ = await service.create(CreateGame("crazymino", seats, seed=1), time.time())
        await service.store.append(broken.id, broken.version, [b"not an event"])
        sound, _ = await service.create(CreateGame("crazymino", seats, seed=2), time.time())
        fresh = GameService(service.store, service.scheduler)  # no cached copy of either
        assert await sweep({"service": fresh}) == 1
        assert sound.id != broken.id
