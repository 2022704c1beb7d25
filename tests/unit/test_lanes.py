"""The two lanes of machine work (`app.machine.lanes`): work at a table with a person starts at
once; AI-only turns start while none runs, in the slots there are, in the order they asked."""

from __future__ import annotations

import asyncio

import pytest

from app.machine.lanes import Lanes


async def settle() -> None:
    """Let every task that can run, run."""
    for _ in range(20):
        await asyncio.sleep(0)


class Work:
    """Pieces of work that start in a lane and end when told."""

    def __init__(self, lanes: Lanes) -> None:
        self.lanes = lanes
        self.started: list[str] = []
        self.ends: dict[str, asyncio.Event] = {}
        self.tasks: dict[str, asyncio.Task[None]] = {}

    def ask(self, name: str, first: bool = False) -> None:
        self.ends[name] = asyncio.Event()
        self.tasks[name] = asyncio.create_task(self._run(name, first))

    async def _run(self, name: str, first: bool) -> None:
        async with self.lanes.first() if first else self.lanes.spare():
            self.started.append(name)
            await self.ends[name].wait()

    async def end(self, name: str) -> None:
        self.ends[name].set()
        await self.tasks[name]
        await settle()


async def test_spare_work_takes_the_free_slots_then_waits_its_turn() -> None:
    work = Work(Lanes(2))
    for name in "abcd":
        work.ask(name)
    await settle()
    assert work.started == ["a", "b"]
    assert work.lanes.waiting == 2
    await work.end("b")
    assert work.started == ["a", "b", "c"]
    await work.end("a")
    assert work.started == ["a", "b", "c", "d"]
    await work.end("c")
    await work.end("d")
    assert work.lanes.running == 0 and work.lanes.waiting == 0


async def test_people_s_work_starts_at_once_and_no_spare_work_starts_while_it_runs() -> None:
    work = Work(Lanes(2))
    work.ask("ai-1")
    work.ask("ai-2")
    await settle()
    work.ask("person-1", first=True)  # every slot is taken: it starts anyway
    work.ask("ai-3")
    await settle()
    assert work.started == ["ai-1", "ai-2", "person-1"]
    await work.end("ai-1")
    await work.end("ai-2")
    assert work.started == ["ai-1", "ai-2", "person-1"]  # free slots, but a person's work runs
    work.ask("person-2", first=True)
    await settle()
    await work.end("person-1")
    assert work.started[-1] == "person-2" and work.lanes.waiting == 1
    await work.end("person-2")
    assert work.started[-1] == "ai-3"
    await work.end("ai-3")
    assert work.lanes.running == 0 and work.lanes.waiting == 0


@pytest.mark.parametrize("granted", [False, True])
async def test_a_cancelled_waiter_keeps_no_slot(granted: bool) -> None:
    work = Work(Lanes(1))
    work.ask("a")
    work.ask("b")
    work.ask("c")
    await settle()
    if granted:
        work.ends["a"].set()
        await asyncio.sleep(0)  # a ends: its slot is given to b, which has not run yet
        assert work.tasks["a"].done() and not work.tasks["b"].done()
    work.tasks["b"].cancel()
    await settle()
    assert "b" not in work.started
    if not granted:
        assert work.started == ["a"]
        await work.end("a")
    assert work.started[-1] == "c"
    await work.end("c")
    assert work.lanes.running == 0 and work.lanes.waiting == 0


async def test_people_s_work_that_started_late_holds_spare_work_back_for_a_while() -> None:
    loop = asyncio.get_running_loop()
    work = Work(Lanes(2, late_s=0.1, hold_s=0.2))
    work.lanes.late(0.05)  # on time: nothing held
    work.ask("ai-1")
    await settle()
    assert work.started == ["ai-1"]
    work.lanes.late(0.5)
    began = loop.time()
    work.ask("ai-2")
    await settle()
    assert work.started == ["ai-1"]  # a slot is free, but people's work was late
    await asyncio.sleep(0.1)
    work.lanes.late(0.3)  # late again: held 0.2 s from now
    while "ai-2" not in work.started:
        await asyncio.sleep(0.01)
    assert loop.time() - began >= 0.3
    await work.end("ai-1")
    await work.end("ai-2")
    assert work.lanes.running == 0
