"""Tables that never stall, through the service and its jobs (fakeredis and a real Redis): a
turn clock's timer plays for a late person, a player who leaves is played by the AI and may
come back, and a table whose people have all gone plays to its end alone."""

from __future__ import annotations

import pytest

from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.machine.jobs import ai_turn, fire_timer
from app.runtime import running
from domain.seating.model import (
    ClockSet,
    Leave,
    Rejoin,
    SeatAway,
    SeatLeft,
    SeatRejoined,
    TimedOut,
)
from tests.integration.test_worker import settings, until_over

PEOPLE = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]


async def start(service: GameService, game: str = "crazymino", **options: object) -> Table:
    table, _ = await service.create(CreateGame(game, PEOPLE, dict(options), seed=8))
    return table


def seat_to_act(table: Table) -> int:
    (seat,) = table.game.to_act(table.state)
    return seat


@pytest.mark.parametrize("game", ["crazymino", "bazaar"])
async def test_the_clock_timer_plays_for_a_late_person(game: str) -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        table = await start(service, game, turn_seconds=5, timeouts_to_ai=1)
        late = seat_to_act(table)
        (timer,) = table.game.timers(table.state)
        ctx = {"service": service, "scheduler": service.scheduler}
        assert timer.key == "clock-1"
        service.clock = lambda: timer.due  # the server's time when the timer is due
        assert await fire_timer(ctx, table.id, timer.key) == "fired"
        assert await fire_timer(ctx, table.id, timer.key) == "stale"
        table, events = await service.events(table.id)
        fired = [e for e in events if isinstance(e.event, TimedOut)]
        assert [(e.event.seat, e.by) for e in fired] == [(late, None)]
        assert SeatLeft(late, "normal", "timeouts") in [e.event for e in events]
        assert table.ai_level(late) == "normal"  # one timeout hands the seat over here


async def test_a_player_who_left_is_played_by_the_ai_and_takes_the_seat_back() -> None:
    async with running(settings(None, worker=False)) as (service, *_):
        table = await start(service, turn_seconds=60)
        seat = seat_to_act(table)
        ctx = {"service": service, "scheduler": service.scheduler}
        move = table.game.legal(table.state, seat, service.clock())[0]
        table, outcome = await service.execute(table.id, seat, Leave())
        assert [e.event for e in outcome.entries][:1] == [SeatLeft(seat, "normal", "left")]
        assert isinstance(outcome.entries[-1].event, ClockSet)
        assert outcome.entries[-1].event.seat is None  # no clock while the AI plays the seat
        with pytest.raises(SeatAway) as refused:
            await service.execute(table.id, seat, move)
        assert refused.value.code == "seat_away"
        key = table.game.ai_key(table.state, seat, table.version)
        assert await ai_turn(ctx, table.id, seat, key) == "played"
        table = await service.load(table.id)
        while seat_to_act(table) != seat:  # the other person moves; then it is the seat's turn
            other = seat_to_act(table)
            table, _ = await service.execute(
                table.id, other, table.game.legal(table.state, other, service.clock())[0]
            )
        pending = table.game.ai_key(table.state, seat, table.version)
        table, outcome = await service.execute(table.id, seat, Rejoin())
        assert outcome.entries[0].event == SeatRejoined(seat)
        assert await ai_turn(ctx, table.id, seat, pending) == "moved on"
        assert table.ai_level(seat) is None
        table, _ = await service.execute(
            table.id, seat, table.game.legal(table.state, seat, service.clock())[0]
        )
        _, events = await service.events(table.id)
        assert table.game.replay(e.event for e in events) == table.state


@pytest.mark.parametrize("backend", ["embedded", "real"])
@pytest.mark.parametrize("game", ["crazymino", "bazaar", "mondo"])
async def test_a_table_whose_people_all_left_plays_to_its_end(
    backend: str, game: str, request: pytest.FixtureRequest
) -> None:
    url = None if backend == "embedded" else request.getfixturevalue("redis_url")
    options = {"round_seconds": 10, "break_seconds": 0} if game == "mondo" else {}
    async with running(settings(url)) as (service, *_):
        table = await start(service, game, takeover_level="easy", **options)
        for seat in (0, 1):
            table, _ = await service.execute(table.id, seat, Leave())
        table = await until_over(service, table.id)
        _, events = await service.events(table.id)
        assert table.game.away(table.state) == {0: "easy", 1: "easy"}
        moved = {e.by for e in events if e.by is not None}
        assert moved == {0, 1}
        assert table.game.replay(e.event for e in events) == table.state
