"""A game deleted by retention is gone in every process, on a real Redis, fakeredis and a
cluster: the deletion is announced on the game's news channel, and the hub that hears it ends
the game's streams and has the service forget it; a process that had it cached without hearing
(no subscriber, or its listener away) finds it gone at its next load or read."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.errors import UnknownGame
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.live.hub import Hub, Subscription
from app.store.events import LOBBY_KEY, EventStore
from app.store.lifecycle import Lifecycle
from domain.crazymino.model import DrawAndPass
from tests.integration.hearing import CountedReads, confirmed

HUMANS = [SeatRequest("human"), SeatRequest("human")]


def process(client: redis.asyncio.Redis) -> GameService:
    """The service of one process (a cache of its own) on the shared Redis."""
    return GameService(EventStore(client), Catalogue.with_extras(), lifecycle=Lifecycle(client))


async def finished(service: GameService, seed: int) -> str:
    table, _ = await service.create(CreateGame("crazymino", HUMANS, seed=seed))
    rng = random.Random(seed)
    while not table.over:
        (seat,) = table.game.to_act(table.state)
        table, _ = await service.execute(
            table.id, seat, rng.choice(table.game.legal(table.state, seat, 0))
        )
    return table.id


async def archive(client: redis.asyncio.Redis, game_id: str) -> None:
    """What the retention job does to a finished game first (`app.machine.jobs._archive`)."""
    store = EventStore(client)
    stored = await store.read(game_id)
    assert await Lifecycle(client).archive(game_id, len(stored), stored)


async def delete(client: redis.asyncio.Redis, game_id: str) -> None:
    """What the retention job does to an archived game (`app.machine.jobs._delete`)."""
    await Lifecycle(client).delete(game_id, LOBBY_KEY)


async def ended(subscription: Subscription) -> None:
    """The subscription's stream was ended because its game is gone."""
    while True:
        delivery = await asyncio.wait_for(subscription.queue.get(), 5)
        if delivery is None:
            break
    assert subscription.gone


async def assert_gone(service: GameService, game_id: str) -> None:
    """Every way of reading or commanding the game says it is unknown, and none keeps it."""
    calls: list[Any] = [
        service.load(game_id),
        service.events(game_id),
        service.events(game_id, 3),
        service.state_at(game_id, 1),
        service.meta(game_id),
    ]
    for call in calls:
        with pytest.raises(UnknownGame):
            await call
    with pytest.raises(UnknownGame):
        table = await service.current(game_id)
        await service.execute(game_id, 0, DrawAndPass(), loaded=table)
    assert game_id not in service._cache


@pytest.mark.parametrize("cached_from", ["stream", "archive"])
async def test_a_deleted_game_is_gone_in_every_process(
    redis_client: redis.asyncio.Redis, cached_from: str
) -> None:
    game_id = await finished(process(redis_client), 3)
    if cached_from == "archive":
        await archive(redis_client, game_id)
    streaming, quiet = process(redis_client), process(redis_client)
    reader = CountedReads(redis_client)
    hub = Hub(streaming, reader, resync_ms=600_000)
    await hub.start()
    try:
        subscription = hub.subscribe(await streaming.load(game_id))
        await quiet.load(game_id)
        await confirmed(reader)
        if cached_from == "stream":
            await archive(redis_client, game_id)
            await streaming.load(game_id)  # the stream is gone, the game is not
            await quiet.load(game_id)
        await delete(redis_client, game_id)
        await ended(subscription)  # told, not found at the next resync (ten minutes away)
        assert hub.watched == 0 and hub.subscribers == 0
        assert game_id not in streaming._cache  # forgotten on the news, before any load
        for service in (streaming, quiet):
            await assert_gone(service, game_id)
    finally:
        await hub.close()


async def test_a_running_game_deleted_under_a_cached_command_is_unknown(
    redis_client: redis.asyncio.Redis,
) -> None:
    service = process(redis_client)
    table, _ = await service.create(CreateGame("crazymino", HUMANS, seed=5))
    await delete(redis_client, table.id)
    (seat,) = table.game.to_act(table.state)
    with pytest.raises(UnknownGame):  # the append finds no game: not a 500
        await service.execute(table.id, seat, DrawAndPass(), loaded=await service.current(table.id))
    await assert_gone(service, table.id)


async def test_a_hub_that_missed_the_deletion_ends_the_streams_at_its_next_read(
    redis_client: redis.asyncio.Redis,
) -> None:
    service = process(redis_client)
    game_id = await finished(service, 4)
    reader = CountedReads(redis_client)
    hub = Hub(service, reader, resync_ms=200)
    await hub.start()
    try:
        subscription = hub.subscribe(await service.load(game_id))
        await confirmed(reader)
        # The keys go with no announcement (as if this process's listener was away).
        await redis_client.delete(
            *(f"game:{{{game_id}}}:{k}" for k in ("version", "events", "meta"))
        )
        await redis_client.zrem(LOBBY_KEY, game_id)
        await ended(subscription)
        assert hub.watched == 0
        await assert_gone(service, game_id)
    finally:
        await hub.close()
