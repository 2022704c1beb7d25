"""Ending a game for a seat, through the service and its jobs (fakeredis and a real Redis): an
unanswered call's timer hands the seat to the AI, which plays it to the end; a resignation
ends a two-seat game with the resigner last in the recorded result."""

from __future__ import annotations

import pytest

from app.commands.seats import SeatRequest
from app.commands.service import CreateGame
from app.machine.jobs import fire_timer
from app.people.results import result_of
from app.runtime import running
from domain.seating.model import Call, CallRanOut, Resign, SeatLeft, SeatResigned
from tests.integration.test_worker import backend_url, settings, until_over

PEOPLE = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]


@pytest.mark.parametrize("backend", ["embedded", "real"])
@pytest.mark.parametrize("game", ["crazymino", "bazaar"])
async def test_an_unanswered_call_hands_the_seat_to_the_ai_which_plays_to_the_end(
    game: str, backend: str, request: pytest.FixtureRequest
) -> None:
    async with running(settings(backend_url(backend, request))) as (service, *_):
        table, _ = await service.create(CreateGame(game, PEOPLE, {}, seed=8))
        (late,) = table.game.to_act(table.state)
        table, _ = await service.execute(table.id, 1 - late, Call(late))
        (timer,) = table.game.timers(table.state)
        assert timer.key == "call-1"
        service.clock = lambda: timer.due  # the server's time when the call runs out
        assert await fire_timer(
            {"service": service, "scheduler": service.scheduler}, table.id, timer.key
        ) in ("fired", "stale")  # the worker in process may have fired it first
        table = await service.load(table.id)
        assert table.ai_level(late) == "normal"
        _, events = await service.events(table.id)
        assert [e.event for e in events if isinstance(e.event, CallRanOut)] == [CallRanOut(late, 1)]
        assert SeatLeft(late, "normal", "called") in [e.event for e in events]
        # The other person resigns: no person is left in the game, which ends at once.
        table, outcome = await service.execute(table.id, 1 - late, Resign())
        assert outcome.entries[0].event == SeatResigned(1 - late, None)
        table = await until_over(service, table.id)
        result = result_of(table, rated=False)
        assert result is not None
        # Both lost: both share the last place of two (the called seat, and the resigned one).
        assert [s.place for s in result.seats] == [1, 1]


@pytest.mark.parametrize("backend", ["embedded", "real"])
async def test_a_resignation_ends_a_two_seat_game_with_the_resigner_last(
    backend: str, request: pytest.FixtureRequest
) -> None:
    async with running(settings(backend_url(backend, request))) as (service, *_):
        table, _ = await service.create(CreateGame("bazaar", PEOPLE, {}, seed=3))
        table, outcome = await service.execute(table.id, 0, Resign())
        assert outcome.entries[0].event == SeatResigned(0, None)
        assert table.over
        result = result_of(table, rated=False)
        assert result is not None
        assert [(s.seat, s.place) for s in result.seats] == [(0, 2), (1, 1)]
