"""The SSE hub: one reader per game feeds every subscriber, drops the slow, stops when left."""

from __future__ import annotations

import asyncio

import redis.asyncio

from app.catalogue import Catalogue
from app.hub import Hub
from app.seats import SeatRequest
from app.service import CreateGame, GameService
from app.store import EventStore
from domain.crazymino.model import DrawAndPass


async def setup(client: redis.asyncio.Redis, queue_size: int = 64) -> tuple[GameService, Hub, str]:
    service = GameService(EventStore(client), Catalogue.with_extras())
    hub = Hub(service, EventStore(client), block_ms=100, queue_size=queue_size)
    seats = [SeatRequest("human"), SeatRequest("human")]
    table, _ = await service.create(CreateGame("crazymino", seats, seed=4))
    return service, hub, table.id


async def draw(service: GameService, game_id: str) -> None:
    table = await service.load(game_id)
    (seat,) = table.game.to_act(table.state)
    await service.execute(game_id, seat, DrawAndPass())


async def test_every_subscriber_gets_every_event_in_order(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, hub, game_id = await setup(redis_client)
    table = await service.load(game_id)
    first, second = hub.subscribe(table), hub.subscribe(table)
    for _ in range(3):
        await draw(service, game_id)
    final = await service.load(game_id)
    for subscription in (first, second):
        got = []
        while len(got) < final.version - table.version:
            delivery = await asyncio.wait_for(subscription.queue.get(), 5)
            assert delivery is not None
            got.append(delivery.entry.version)
        assert got == list(range(table.version + 1, final.version + 1))
    await hub.close()


async def test_the_reader_stops_when_the_last_subscriber_leaves(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, hub, game_id = await setup(redis_client)
    table = await service.load(game_id)
    first, second = hub.subscribe(table), hub.subscribe(table)
    reader = hub._channels[game_id].reader
    assert reader is not None and hub.subscribers == 2
    hub.unsubscribe(first)
    assert not reader.done()
    hub.unsubscribe(second)
    await asyncio.sleep(0.01)
    assert reader.done() and hub.subscribers == 0 and game_id not in hub._channels


async def test_a_subscriber_that_falls_behind_is_dropped(redis_client: redis.asyncio.Redis) -> None:
    service, hub, game_id = await setup(redis_client, queue_size=2)
    table = await service.load(game_id)
    slow, keen = hub.subscribe(table), hub.subscribe(table)
    for _ in range(4):
        await draw(service, game_id)
        while not keen.queue.empty():
            keen.queue.get_nowait()
        await asyncio.sleep(0.2)
    assert slow.dropped and not keen.dropped
    assert hub.subscribers == 1
    await hub.close()


async def test_a_broken_reader_ends_its_subscribers_streams(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, hub, game_id = await setup(redis_client)
    table = await service.load(game_id)
    subscription = hub.subscribe(table)
    events = f"game:{{{game_id}}}:events"
    await redis_client.xadd(events, {"d": b"not an event"}, id="0-999")
    try:
        assert await asyncio.wait_for(subscription.queue.get(), 5) is None
        assert hub.subscribers == 0
    finally:  # leave no broken game behind on a shared Redis
        await redis_client.delete(events, f"game:{{{game_id}}}:meta", f"game:{{{game_id}}}:version")
        await redis_client.zrem("games:lobby", game_id)
