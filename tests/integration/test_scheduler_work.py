"""The scheduler works out a command's machine work once (`ArqScheduler.expect`, then
`.schedule` of the same table), also while commands on other games come in between."""

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


async def test_each_command_s_work_is_worked_out_once(monkeypatch: pytest.MonkeyPatch) -> None:
    asked: list[Table] = []

    def counted(table: Table, think_ms: int) -> Work | None:
        asked.append(table)
        return work_of(table, think_ms)

    monkeypatch.setattr(scheduling, "work_of", counted)
    async with running(settings(None, worker=False)) as (service, *_):
        scheduler = service.scheduler
        assert isinstance(scheduler, ArqScheduler)
        games = [
            (await service.create(CreateGame("crazymino", SEATS, seed=seed)))[0] for seed in (1, 2)
        ]
        asked.clear()
        first, second = games
        await scheduler.expect(first)
        await scheduler.expect(second)  # another game's command, while the first one appends
        await scheduler.schedule(first)
        await scheduler.schedule(second)
        assert asked == [first, second]
        await scheduler.schedule(first)  # no `expect` before it (the sweep's): worked out
        assert asked == [first, second, first]
        again = first._replace(state=first.state)  # an equal table, but not the one expected
        await scheduler.expect(first)
        await scheduler.schedule(again)
        assert asked == [first, second, first, first, again]
