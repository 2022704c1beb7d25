"""A person never waits behind games of AIs alone (`app.machine.lanes`): in a worker's driver,
an AI turn at a table with a person starts while AI-only turns wait for a slot; an AI-only
game's queued turn is handed to the driver instead of holding one of the queue's places; the
sweep leaves a game this process drives alone."""

from __future__ import annotations

import asyncio

from app.base import metrics
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.machine.driver import Driver
from app.machine.jobs import OVERDUE_MS, ai_turn, sweep
from app.machine.lanes import Lanes, with_people
from app.machine.scheduler import ArqScheduler
from app.machine.work import work_of
from app.runtime import running
from tests.integration.test_worker import settings

AIS = [SeatRequest("ai"), SeatRequest("ai")]
PERSON = [SeatRequest("human"), SeatRequest("ai")]
ROUND = {"round_seconds": 60, "rounds": 1}


async def settle() -> None:
    for _ in range(30):
        await asyncio.sleep(0)


async def dice_race(service: GameService, seats: list[SeatRequest], seed: int) -> Table:
    """A game whose seats act at once: its AI seats are to act as soon as it starts."""
    table, _ = await service.create(CreateGame("dice_race", seats, ROUND, seed=seed))
    return table


async def test_a_turn_at_a_person_s_table_goes_before_the_turns_of_ais_alone() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        ais = [await dice_race(service, AIS, seed) for seed in range(4)]
        person = await dice_race(service, PERSON, 9)
        assert not any(with_people(t) for t in ais) and with_people(person)
        started: list[str] = []
        go_on = asyncio.Event()

        async def play(table: Table, seat: int, key: str) -> str:
            started.append(table.id)
            await go_on.wait()
            return "played"

        lanes = Lanes(2, late_s=3_600)  # the clock runs ahead: no turn counts as late
        driver = Driver(play, lambda: service.clock() + 60_000, 0, lanes=lanes)
        for table in ais:
            work = work_of(table, 0)
            assert work is not None and driver.take(table, work.ai_turns)
        await settle()
        assert started == [ais[0].id, ais[1].id]  # two slots; the others wait
        work = work_of(person, 0)
        assert work is not None and driver.take(person, work.ai_turns)
        await settle()
        assert started == [ais[0].id, ais[1].id, person.id]  # at once, though no slot is free
        go_on.set()
        await settle()
        assert started[3:] == [ais[2].id, ais[3].id]  # then the rest, in the order they asked
        assert driver.driven == 0 and driver.lanes.running == 0


async def test_a_queued_turn_of_ais_alone_is_handed_to_the_driver() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        scheduler = service.scheduler
        assert isinstance(scheduler, ArqScheduler)
        played: list[str] = []

        async def play(table: Table, seat: int, key: str) -> str:
            played.append(table.id)
            return "moved on"

        ais, person = await dice_race(service, AIS, 3), await dice_race(service, PERSON, 5)
        scheduler.driver = Driver(play, service.clock, 0, lanes=Lanes(1))
        ctx = {"service": service, "scheduler": scheduler}
        key = ais.game.ai_key(ais.state, 0, ais.version)
        assert await ai_turn(ctx, ais.id, 0, key) == "driven"
        assert scheduler.driver.drives(ais.id)
        await settle()
        assert played == [ais.id, ais.id]  # both AI seats, by the driver
        before = _lateness("ai_turn", "people")
        key = person.game.ai_key(person.state, 1, person.version)
        assert await ai_turn(ctx, person.id, 1, key) == "played"  # in the job, first lane
        assert _lateness("ai_turn", "people") == before + 1
        assert (await service.load(person.id)).version == person.version + 1


def _lateness(job: str, table: str) -> float:
    """How many lateness samples the measure holds for the job at that kind of table."""
    labels = {"job": job, "table": table}
    value = metrics.REGISTRY.get_sample_value("boardgames_job_lateness_seconds_count", labels)
    return value or 0.0


async def test_the_sweep_leaves_a_game_this_process_drives() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        scheduler = service.scheduler
        assert isinstance(scheduler, ArqScheduler)
        table = await dice_race(service, AIS, 4)
        go_on = asyncio.Event()

        async def play(table: Table, seat: int, key: str) -> str:
            await go_on.wait()
            return "played"

        scheduler.driver = Driver(play, service.clock, 0, lanes=Lanes(1))
        work = work_of(table, 0)
        assert work is not None and scheduler.driver.take(table, work.ai_turns)
        await settle()
        later = service.clock
        service.clock = lambda: later() + 10 * OVERDUE_MS  # its work looks long overdue
        loads = 0
        load = service.load

        async def counted(game_id: str) -> Table:
            nonlocal loads
            loads += 1
            return await load(game_id)

        service.load = counted  # type: ignore[method-assign]
        assert await sweep({"service": service, "scheduler": scheduler}) == 0
        assert loads == 0  # not loaded, not asked for again: it waits here for its slot
        index = scheduler.index_of(table.id)
        assert [g for g, _ in await index.overdue(service.clock() - OVERDUE_MS, 10)] == []
        go_on.set()
        await scheduler.driver.close()
