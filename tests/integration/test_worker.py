"""Machine work played by the arq worker, embedded (fakeredis) and on a real Redis: AI seats,
timers, and the sweep that finds lost work."""

from __future__ import annotations

import asyncio

import pytest

from app.base.config import Settings
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.machine.due import DueIndex
from app.machine.jobs import ai_turn, fire_timer, sweep
from app.machine.scheduler import ArqScheduler
from app.runtime import running
from domain.crazymino.model import TileDrawn
from tests.games import dice_race
from tests.waiting import until

RACE = "tests.games.dice_race:DICE_RACE"


def settings(url: str | None, worker: bool = True, queues: int = 1) -> Settings:
    return Settings(
        redis_url=url,
        queues=queues,
        worker_in_process=worker,
        think_seconds=0,
        poll_seconds=0.01,
        extra_games=(RACE,),
    )


async def until_over(service: GameService, game_id: str) -> Table:
    async def over() -> Table | None:
        table = await service.load(game_id)
        return table if table.over else None

    return await until(over, poll=0.02)


def backend_url(backend: str, request: pytest.FixtureRequest) -> str | None:
    if backend == "embedded":
        return None
    if backend == "cluster":
        return str(request.getfixturevalue("redis_cluster_url"))
    return str(request.getfixturevalue("redis_url"))


@pytest.mark.parametrize("backend", ["embedded", "real", "cluster"])
async def test_the_worker_plays_ai_seats_to_the_end(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = backend_url(backend, request)
    async with running(settings(url, queues=3)) as (service, *_):
        seats = [SeatRequest("ai", level="easy"), SeatRequest("ai", level="normal")]
        table, public = await service.create(CreateGame("crazymino", seats, seed=21))
        assert all(seat.token is None for seat in public)
        table = await until_over(service, table.id)
        _, events = await service.events(table.id)
        assert table.game.replay(e.event for e in events) == table.state
        assert not any(isinstance(e.event, TileDrawn) and e.event.tile is None for e in events)
        played = [e for e in events if e.by is not None]
        assert played and all(table.seats[e.by].type == "ai" for e in played)  # type: ignore[index]


async def test_a_job_for_a_past_turn_or_a_person_does_nothing() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        seats = [SeatRequest("human"), SeatRequest("human")]
        table, _ = await service.create(CreateGame("crazymino", seats, seed=2))
        seat = next(iter(table.game.to_act(table.state)))
        ctx = {"service": service, "scheduler": service.scheduler}
        assert await ai_turn(ctx, table.id, seat, str(table.version - 1)) == "moved on"
        assert await ai_turn(ctx, table.id, seat, str(table.version)) == "not an AI seat"
        assert await service.store.version(table.id) == table.version


async def test_ai_seats_that_act_at_once_do_not_cancel_each_other() -> None:
    """In a simultaneous game each AI's turn is keyed by its own progress: another seat's move
    leaves a pending AI turn valid."""
    async with running(settings(None, worker=False)) as (service, *_):
        seats = [SeatRequest("ai"), SeatRequest("ai")]
        options = {"round_seconds": 60, "rounds": 1}
        table, _ = await service.create(CreateGame("dice_race", seats, options, seed=3))
        ctx = {"service": service, "scheduler": service.scheduler}
        first_key = table.game.ai_key(table.state, 1, table.version)
        assert (
            await ai_turn(ctx, table.id, 0, table.game.ai_key(table.state, 0, table.version))
            == "played"
        )
        assert await ai_turn(ctx, table.id, 1, first_key) == "played"
        assert await ai_turn(ctx, table.id, 1, first_key) == "moved on"  # its turn was taken
        by = [e.by for e in (await service.events(table.id))[1][-2:]]
        assert sorted(by) == [0, 1]  # type: ignore[type-var]


@pytest.mark.parametrize("backend", ["embedded", "real", "cluster"])
async def test_a_timer_ends_the_round_once_never_before_its_deadline(
    backend: str, request: pytest.FixtureRequest
) -> None:
    url = backend_url(backend, request)
    async with running(settings(url)) as (service, *_):
        seats = [SeatRequest("human"), SeatRequest("human")]
        options = {"round_seconds": 1, "rounds": 2}
        table, _ = await service.create(CreateGame("dice_race", seats, options, seed=5))
        deadlines = []
        table = await until_over(service, table.id)
        _, events = await service.events(table.id)
        for entry in events:
            if isinstance(entry.event, dice_race.RoundStarted):
                deadlines.append(entry.event.deadline)
            if isinstance(entry.event, dice_race.RoundEnded):
                assert entry.by is None and entry.event.timed_out
                assert entry.at >= deadlines[-1]  # how late: bench/, as a ratio
        ended = [e.event.round for e in events if isinstance(e.event, dice_race.RoundEnded)]
        assert ended == [1, 2]


async def test_a_stale_timer_does_nothing() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        seats = [SeatRequest("human")]
        options = {"round_seconds": 60, "rounds": 2}
        table, _ = await service.create(CreateGame("dice_race", seats, options, seed=5))
        ctx = {"service": service, "scheduler": service.scheduler}
        await service.execute(table.id, 0, dice_race.Stop())  # the round ends without its clock
        version = await service.store.version(table.id)
        assert await fire_timer(ctx, table.id, "round-1") == "stale"
        assert await service.store.version(table.id) == version


async def test_a_timer_fired_twice_applies_once() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        seats = [SeatRequest("human")]
        options = {"round_seconds": 0.5, "rounds": 2}
        table, _ = await service.create(CreateGame("dice_race", seats, options, seed=5))
        ctx = {"service": service, "scheduler": service.scheduler}
        now = service.clock
        service.clock = lambda: now() + 600  # past the round's deadline
        results = await asyncio.gather(*[fire_timer(ctx, table.id, "round-1") for _ in range(3)])
        assert sorted(results).count("fired") == 1, results
        _, events = await service.events(table.id)
        assert sum(isinstance(e.event, dice_race.RoundEnded) for e in events) == 1


class Forgetful(ArqScheduler):
    """An enqueue lost in a crash: the first work asked for never reaches the queue."""

    lost = 0

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        if not self.lost:
            self.lost += 1
            return
        await super().schedule(table, retry=retry)


@pytest.mark.parametrize("game", ["crazymino", "dice_race"])
async def test_the_sweep_heals_a_game_whose_enqueue_was_lost(game: str) -> None:
    async with running(settings(None)) as (service, *_):
        assert isinstance(service.scheduler, ArqScheduler)
        old = service.scheduler
        service.scheduler = forgetful = Forgetful(old.queues, old.pools, old.indexes, 0)
        seats = [SeatRequest("ai"), SeatRequest("ai")]
        options = {"round_seconds": 0.5, "rounds": 1} if game == "dice_race" else {}
        humans = [SeatRequest("human")] if game == "dice_race" else seats
        table, _ = await service.create(CreateGame(game, humans, options, seed=8))
        assert forgetful.lost == 1  # its work never reached the queue: nothing plays it
        assert await old.pools[0].zcard(old.queues.name(0)) == 0
        later = service.clock
        service.clock = lambda: later() + 10_000  # the work is long overdue now
        assert await sweep({"service": service, "scheduler": service.scheduler}) == 1
        service.clock = later
        await until_over(service, table.id)


async def test_the_sweep_forgets_finished_and_broken_games() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        assert isinstance(service.scheduler, ArqScheduler)
        seats = [SeatRequest("ai"), SeatRequest("ai")]
        broken, _ = await service.create(CreateGame("crazymino", seats, seed=1))
        await service.store.append(broken.id, broken.version, [b"not an event"])
        sound, _ = await service.create(CreateGame("crazymino", seats, seed=2))
        assert await service.scheduler.indexes[0].size() == 2
        fresh = GameService(service.store, service.catalogue, service.scheduler)
        fresh.clock = lambda: service.clock() + 10_000
        assert (
            await sweep({"service": fresh, "scheduler": fresh.scheduler}) == 1
        )  # the sound one, asked for again
        assert [g for g, _ in await service.scheduler.indexes[0].overdue(fresh.clock(), 10)] == [
            sound.id
        ]


async def test_an_ai_acts_at_the_pace_its_game_sets() -> None:
    async with running(settings(None)) as (service, *_):
        seats = [SeatRequest("ai", level="slow")]
        options = {"round_seconds": 60, "rounds": 1}
        table, _ = await service.create(CreateGame("dice_race", seats, options, seed=3))
        table = await until_over(service, table.id)
        _, events = await service.events(table.id)
        moves = sorted({e.at for e in events if e.by == 0})  # one time per command
        gaps = [b - a for a, b in zip([events[0].at, *moves], moves, strict=False)]
        assert moves and all(gap >= 400 for gap in gaps), gaps


async def test_the_sweep_finds_lost_work_however_old_the_game() -> None:
    """The sweep reads the index of waiting games, not the newest games of the lobby."""
    async with running(settings(None)) as (service, *_):
        assert isinstance(service.scheduler, ArqScheduler)
        old = service.scheduler
        service.scheduler = Forgetful(old.queues, old.pools, old.indexes, 0)
        stalled, _ = await service.create(CreateGame("crazymino", [SeatRequest("ai")] * 2, seed=4))
        humans = [SeatRequest("human")] * 2
        for seed in range(250):
            await service.create(CreateGame("crazymino", humans, seed=seed))
        later = service.clock
        service.clock = lambda: later() + 10_000
        assert await sweep({"service": service, "scheduler": service.scheduler}) == 1
        service.clock = later
        await until_over(service, stalled.id)


async def test_the_sweep_reads_the_index_of_before_the_queues_were_split() -> None:
    async with running(settings(None, queues=3)) as (service, *_):
        assert isinstance(service.scheduler, ArqScheduler)
        old = service.scheduler
        service.scheduler = Forgetful(old.queues, old.pools, old.indexes, 0)
        stalled, _ = await service.create(CreateGame("crazymino", [SeatRequest("ai")] * 2, seed=4))
        index = old.index_of(stalled.id)
        ((_, due),) = await index.overdue(service.clock() + 10_000, 10)
        await index.clear(stalled.id, due)  # as an older version left it: in `machine:due` only
        await DueIndex(service.store.client).mark(stalled.id, due)
        later = service.clock
        service.clock = lambda: later() + 10_000
        assert await sweep({"service": service, "scheduler": service.scheduler, "queues": [0]}) == 1
        assert await DueIndex(service.store.client).size() == 0
        service.clock = later
        await until_over(service, stalled.id)
