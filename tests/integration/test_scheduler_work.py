"""The scheduler works out a command's machine work once (`ArqScheduler.waits`, then `.expect`
and `.schedule` of the same table when it waits for work), also while commands on other games
come in between."""

from __future__ import annotations

import pytest

from app.commands.seats import SeatRequest
from app.commands.service import CreateGame
from app.commands.table import Table
from app.machine import scheduler as scheduling
from app.machine.scheduler import ArqScheduler
from app.machine.work import Work, work_of
from app.runtime import running
from tests.integration.test_worker import settings

SEATS = [SeatRequest("human"), SeatRequest("ai")]


@pytest.fixture
def asked(monkeypatch: pytest.MonkeyPatch) -> list[Table]:
    """Each table the scheduler works out the work of, in order."""
    tables: list[Table] = []

    def counted(table: Table, think_ms: int) -> Work | None:
        tables.append(table)
        return work_of(table, think_ms)

    monkeypatch.setattr(scheduling, "work_of", counted)
    return tables


async def test_each_command_s_work_is_worked_out_once(asked: list[Table]) -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        scheduler = service.scheduler
        assert isinstance(scheduler, ArqScheduler)
        games = [
            (await service.create(CreateGame("crazymino", SEATS, seed=seed)))[0] for seed in (1, 2)
        ]
        asked.clear()
        first, second = games
        waiting = [table for table in games if scheduler.waits(table)]  # as the service asks
        assert waiting, "an AI to act in one game at least"
        for table in waiting:  # the second: another game's command, while the first appends
            await scheduler.expect(table)
        for table in waiting:
            await scheduler.schedule(table)
        assert asked == [first, second]
        await scheduler.schedule(first)  # no `expect` before it (the sweep's): worked out
        assert asked == [first, second, first]
        again = first._replace(state=first.state)  # an equal table, but not the one expected
        await scheduler.expect(first)
        await scheduler.schedule(again)
        assert asked == [first, second, first, first, again]


@pytest.mark.parametrize("seats", [SEATS, [SeatRequest("human"), SeatRequest("human")]])
async def test_a_command_works_out_its_table_s_work_once(
    asked: list[Table], seats: list[SeatRequest]
) -> None:
    """With an AI to play (work: the table is marked, then its turn queued) or only people
    (no work: nothing is marked or queued), a command asks `work_of` once."""
    async with running(settings(None, worker=False)) as (service, *_):
        table, _ = await service.create(CreateGame("crazymino", seats, seed=3))
        (seat,) = table.game.to_act(table.state)
        assert seats[seat].type == "human"  # (seed 3: a person starts)
        asked.clear()
        command = table.game.legal(table.state, seat, 0)[0]
        after, _ = await service.execute(table.id, seat, command)
        assert asked == [after]
        assert service.scheduler is not None
        assert service.scheduler.waits(after) == any(s.type == "ai" for s in seats)
