"""A table's start survives a process that stops midway, and a finished game's rematch, on a
real Redis, fakeredis and a Redis Cluster."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio

from app.commands.errors import ServiceError
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame
from app.people.forming import STUCK_MS
from app.people.hosting import AiSeat, Hosting, OpenSeat, OpenTable
from app.people.rematch import rematch, rematch_of
from app.people.tables import LOBBY_KEY, STARTING_KEY, table_key
from domain.errors import SetupError
from domain.game import Abandon
from tests.integration.hosts import Clock, host_on, open_seats, players


async def test_a_start_stopped_once_the_seats_froze_is_finished_by_the_next_read(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    host = host_on(redis_client, clock)
    ann, bob, cy = await players(host, 3)
    table = await host.open(ann, open_seats(3))
    await host.join(bob, table.id, None)
    frozen = await host.tables.freeze(table.id, ann.key)  # ... and the process stops
    assert frozen.kept_status == "starting"
    with pytest.raises(ServiceError) as caught:
        await host.join(cy, table.id, None)
    assert caught.value.code == "table_started"
    assert (await host.view(table.id)).status == "starting"  # another process may be at it
    assert table.id not in {t.id for t in await host.lobby()}  # never offered to join
    clock.now += STUCK_MS
    shown = await host.view(table.id)
    assert shown.status == "started" and shown.game_id == table.id
    game = await host.service.load(table.id)
    assert [s.player for s in game.seats] == [ann.key, bob.key]
    assert await host.tables.games_of(bob.key) == [table.id]
    assert table.id.encode() not in await redis_client.zrange(STARTING_KEY, 0, -1)


async def test_a_start_left_midway_is_finished_by_the_sweep(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    host = host_on(redis_client, clock)
    ann, bob = await players(host, 2)
    table = await host.open(ann, open_seats(2))
    await host.join(bob, table.id, None)
    await host.tables.freeze(table.id, ann.key)  # ... and the process stops
    await host.starts.repair()  # not yet: it may still be under way
    stored = await host.tables.read(table.id)
    assert stored is not None and stored.status(clock.now) == "starting"
    clock.now += STUCK_MS
    assert await host.starts.repair() >= 1
    stored = await host.tables.read(table.id)
    assert stored is not None and stored.status(clock.now) == "started"
    assert await host.tables.games_of(ann.key) == [table.id]
    assert await host.tables.games_of(bob.key) == [table.id]
    assert table.id.encode() not in await redis_client.zrange(STARTING_KEY, 0, -1)


async def test_a_table_whose_game_cannot_be_made_forms_again_when_its_start_is_finished(
    redis_client: redis.asyncio.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    host = host_on(redis_client, clock)
    ann, bob, cy = await players(host, 3)
    table = await host.open(ann, open_seats(3))
    await host.join(bob, table.id, None)
    await host.tables.freeze(table.id, ann.key)  # ... and the process stops

    async def refused(*args: Any, **kwargs: Any) -> None:
        raise SetupError("These seats cannot play.")

    monkeypatch.setattr(host.service, "create", refused)
    assert table.id not in {t.id for t in await host.lobby()}
    assert table.id not in {t.id for t in await host.tables.of_player(bob.key)}
    clock.now += STUCK_MS
    assert (await host.view(table.id)).status == "forming"
    assert table.id in {t.id for t in await host.lobby()}
    assert table.id in {t.id for t in await host.tables.of_player(bob.key)}
    assert (await host.join(cy, table.id, None)).seats[2].player == cy.key
    assert table.id.encode() not in await redis_client.zrange(STARTING_KEY, 0, -1)


async def test_a_start_stopped_between_the_table_and_the_players_games_is_repaired_by_the_sweep(
    redis_client: redis.asyncio.Redis, monkeypatch: pytest.MonkeyPatch
) -> None:
    clock = Clock()
    host = host_on(redis_client, clock)
    ann, bob = await players(host, 2)
    table = await host.open(ann, open_seats(2))
    await host.join(bob, table.id, None)

    async def stopped(*args: Any) -> None:
        raise ConnectionError("the process stops here")

    monkeypatch.setattr(host.tables, "settle", stopped)
    with pytest.raises(ConnectionError):
        await host.start(ann, table.id)
    monkeypatch.undo()
    assert (await host.view(table.id)).status == "started"
    assert await host.tables.games_of(bob.key) == []  # "My games" would not show it
    clock.now += STUCK_MS
    assert await host.starts.repair() >= 1
    assert await host.tables.games_of(ann.key) == [table.id]
    assert await host.tables.games_of(bob.key) == [table.id]
    assert table.id.encode() not in await redis_client.zrange(LOBBY_KEY, 0, -1)
    assert table.id.encode() not in await redis_client.zrange(STARTING_KEY, 0, -1)


async def finished_game(host: Hosting, players_at: list[str | None], ai: bool = True) -> str:
    """A game of these players (None: a guest's seat) and an AI, ended as abandoned."""
    seats = [SeatRequest("human", f"P{n}") for n in range(len(players_at))]
    if ai:
        seats.append(SeatRequest("ai", level="easy"))
    table, _ = await host.service.create(CreateGame("crazymino", seats), players_at)
    await host.service.execute(table.id, None, Abandon())
    return table.id


async def test_a_rematch_keeps_the_players_seats_and_starts_once_all_accepted(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy = await players(host, 3)
    game_id = await finished_game(host, [ann.key, None, bob.key])

    table, opened = await rematch(host, ann, game_id)
    assert opened and table.rematch_of == game_id and table.start_when_full
    assert [(s.type, s.player, s.level) for s in table.seats] == [
        ("player", ann.key, None),
        ("open", None, None),
        ("player", None, None),
        ("ai", None, "easy"),
    ]
    assert table.seats[2].reserved == bob.name and table.creator == ann.name
    assert table.options == (await host.service.meta(game_id)).setup.options
    again, opened = await rematch(host, ann, game_id)
    assert not opened and again.id == table.id
    assert (await rematch_of(host, game_id)).id == table.id

    await host.join(cy, table.id, None)
    accepted, opened = await rematch(host, bob, game_id)  # Bob asks too: he accepts
    assert not opened and accepted.status == "started" and accepted.game_id == table.id
    game = await host.service.load(table.id)
    assert [s.player for s in game.seats] == [ann.key, cy.key, bob.key, None]

    await redis_client.delete(table_key(table.id))  # a day later, the table has expired
    with pytest.raises(ServiceError) as caught:
        await rematch(host, ann, game_id)
    assert caught.value.code == "rematch_played"


async def test_a_rematch_is_for_a_finished_games_players(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob = await players(host, 2)
    running = await host.open(ann, OpenTable("crazymino", [OpenSeat(), AiSeat()]))
    running = await host.start(ann, running.id)
    assert running.game_id is not None
    with pytest.raises(ServiceError) as caught:
        await rematch(host, ann, running.game_id)
    assert caught.value.code == "game_running"
    game_id = await finished_game(host, [ann.key, bob.key], ai=False)
    _, cy = await players(host, 2)
    with pytest.raises(ServiceError) as caught:
        await rematch(host, cy, game_id)
    assert caught.value.code == "not_seated"
    with pytest.raises(ServiceError) as caught:
        await rematch_of(host, game_id)
    assert caught.value.code == "unknown_table"

    table, _ = await rematch(host, ann, game_id)
    declined = await host.decline(bob, table.id)  # too few to start: it waits for its creator
    assert declined.status == "forming" and declined.seats[1].declined
