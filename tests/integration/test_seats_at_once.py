"""Mondo, where seats act at once, on a real Redis and on fakeredis: a command is stale only when
what it depends on has changed, and every AI seat keeps its own pace."""

from __future__ import annotations

import asyncio
from collections import Counter

import pytest
import redis.asyncio

from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.errors import StaleVersion
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.machine.jobs import play_ai_turn
from app.runtime import running
from app.store.events import EventStore
from domain.errors import RuleError
from domain.mondo.model import (
    BonusTaken,
    RoundEnded,
    RoundStarted,
    TakeBonus,
    TakeTile,
    TilePlaced,
    TileTaken,
)
from tests.integration.test_worker import backend_url, until_over

PEOPLE = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]
LONG = {"round_seconds": 600}


async def mondo(client: redis.asyncio.Redis) -> tuple[GameService, str, int]:
    service = GameService(EventStore(client), Catalogue.with_extras())
    table, _ = await service.create(CreateGame("mondo", PEOPLE, LONG, seed=4))
    return service, table.id, table.version


def free_tiles(state: object, count: int) -> list[int]:
    view = Catalogue.with_extras()["mondo"].game.view(state, None)
    return [d.shown.tile for d in view.display if d.holder is None][:count]


async def test_two_seats_on_the_same_version_both_apply_when_they_do_not_conflict(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, game_id, version = await mondo(redis_client)
    table = await service.load(game_id)
    one, two = free_tiles(table.state, 2)
    await service.execute(game_id, 0, TakeTile(one), expected_version=version)
    after, _ = await service.execute(game_id, 1, TakeTile(two), expected_version=version)
    assert after.version == version + 2
    held = [p.held for p in after.state.game.seats]
    assert held == [one, two]


async def test_two_seats_wanting_the_same_tile_one_is_refused_with_a_code(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, game_id, version = await mondo(redis_client)
    table = await service.load(game_id)
    (tile,) = free_tiles(table.state, 1)
    await service.execute(game_id, 0, TakeTile(tile), expected_version=version)
    with pytest.raises(RuleError) as refused:
        await service.execute(game_id, 1, TakeTile(tile), expected_version=version)
    assert refused.value.code == "tile_held"
    assert await service.store.version(game_id) == version + 1


async def test_a_command_is_stale_once_its_own_seat_has_moved_on(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, game_id, version = await mondo(redis_client)
    table = await service.load(game_id)
    one, two = free_tiles(table.state, 2)
    await service.execute(game_id, 0, TakeTile(one), expected_version=version)
    with pytest.raises(StaleVersion) as refused:
        await service.execute(game_id, 0, TakeTile(two), expected_version=version)
    assert refused.value.code == "stale_version"
    assert await service.store.version(game_id) == version + 1


async def test_a_command_is_stale_once_the_round_has_moved_on(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, game_id, _ = await mondo(redis_client)
    table = await service.load(game_id)
    (tile,) = free_tiles(table.state, 1)
    for seat in (0, 1):  # both leave the round: it ends, by a seat's command
        await service.execute(game_id, seat, TakeBonus())
    ended = await service.load(game_id)
    assert ended.state.game.round == 1 and not ended.state.game.running
    service.clock = lambda: ended.state.game.ended_at + ended.state.game.break_ms
    timer = ended.game.timers(ended.state)[0]
    started, _ = await service.execute(game_id, None, timer.command)  # round 2, by the system
    assert started.state.game.round == 2
    with pytest.raises(StaleVersion):  # Bob saw round 1 only, after his own chip
        await service.execute(game_id, 1, TakeTile(tile), expected_version=ended.version)
    with pytest.raises(StaleVersion):  # a version the game has not reached
        await service.execute(game_id, 1, TakeTile(tile), expected_version=started.version + 1)
    await service.execute(game_id, 1, TakeTile(tile), expected_version=started.version)


#: A four-seat table of AIs of every level (the seed's largest table).
LEVELS = ("easy", "normal", "hard", "normal")
#: Rounds long enough for the slowest level (easy: a command every 6 s) to take a tile, lay it
#: and still take a chip in time; in a shorter one leaving at once is its best move.
ROUND_SECONDS = 30


@pytest.mark.slow
@pytest.mark.timeout(300)  # three real-time rounds of 30 s, on both backends at once
async def test_a_table_of_four_ais_of_mixed_levels_each_seat_lays_tiles_in_every_round(
    request: pytest.FixtureRequest,
) -> None:
    async def play(backend: str) -> None:
        config = Settings(
            redis_url=backend_url(backend, request),
            worker_in_process=True,
            think_seconds=0,
            poll_seconds=0.01,
        )
        async with running(config) as (service, *_):
            seats = [SeatRequest("ai", level=level) for level in LEVELS]
            options = {"round_seconds": ROUND_SECONDS, "break_seconds": 0}
            table, _ = await service.create(CreateGame("mondo", seats, options, seed=23))
            table = await until_over(service, table.id)
            _, entries = await service.events(table.id)
        laid: Counter[tuple[int, int]] = Counter()
        taken_at: dict[int, list[int]] = {}
        rounds = started = 0
        for entry in entries:
            event = entry.event
            if isinstance(event, RoundStarted):
                rounds, started = event.round, entry.at
                taken_at = {}
            elif isinstance(event, TilePlaced):
                laid[rounds, event.seat] += 1
            elif isinstance(event, TileTaken):
                taken_at.setdefault(event.seat, []).append(entry.at - started)
            elif isinstance(event, BonusTaken):
                assert laid[rounds, event.seat] > 0, f"{backend}: seat {event.seat} left empty"
            elif isinstance(event, RoundEnded) and rounds == 1:
                # every AI took its first tile on its own pace (easy's, the slowest, is 6 s),
                # none held back by the others' moves
                firsts = sorted(times[0] for times in taken_at.values())
                assert len(firsts) == 4 and firsts[-1] < 9_000, f"{backend}: {firsts}"
        missing = [(r, s) for r in (1, 2, 3) for s in range(4) if laid[r, s] == 0]
        assert not missing, f"{backend}: (round, seat) without a tile: {missing}"

    await asyncio.gather(play("embedded"), play("real"))


async def test_an_ai_whose_tile_another_seat_took_meanwhile_thinks_again(
    redis_client: redis.asyncio.Redis,
) -> None:
    service = GameService(EventStore(redis_client), Catalogue.with_extras())
    seats = [SeatRequest("human", "Ann"), SeatRequest("ai", level="normal")]
    table, _ = await service.create(CreateGame("mondo", seats, LONG, seed=4))
    thought = table.game.policies["normal"](table.game.view(table.state, 1), 0, service.clock())
    assert isinstance(thought, TakeTile)
    await service.execute(table.id, 0, TakeTile(thought.tile))  # Ann takes it first
    key = table.game.ai_key(table.state, 1, table.version)
    # the AI plays from the table as it had it, before Ann's move
    assert await play_ai_turn(service, table.id, 1, key, table) == "played"
    after = await service.load(table.id)
    held = after.state.game.seats[1].held
    assert held is not None and held != thought.tile
