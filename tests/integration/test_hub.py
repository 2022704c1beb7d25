"""The SSE hub: notifications and one read per game feed every subscriber, and this process's
own appends reach them without a read; it drops the slow, forgets a game when left, and refuses
streams past its limit.

No test sleeps to show that nothing came: it counts the hub's reads and the notifications it
heard, and waits for a later event that must come after what it checks."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.errors import StreamsFull
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.live.hub import Delivery, Hub, Subscription
from app.store.events import AppendResult, EventStore, news_channel
from domain.crazymino.model import DrawAndPass
from domain.errors import TurnError
from tests.integration.hearing import CountedReads, HeardHub, confirmed
from tests.waiting import until


async def setup(client: redis.asyncio.Redis, queue_size: int = 64) -> tuple[GameService, Hub, str]:
    service = GameService(EventStore(client), Catalogue.with_extras())
    hub = Hub(service, EventStore(client), resync_ms=100, queue_size=queue_size)
    await hub.start()
    seats = [SeatRequest("human"), SeatRequest("human")]
    table, _ = await service.create(CreateGame("crazymino", seats, seed=4))
    return service, hub, table.id


def elsewhere(client: redis.asyncio.Redis) -> GameService:
    """The service of another process (its appends reach this hub by notification and read)."""
    return GameService(EventStore(client), Catalogue.with_extras())


async def counted_setup(
    client: redis.asyncio.Redis, resync_ms: int = 600_000
) -> tuple[GameService, CountedReads, HeardHub, Table]:
    """A game and a hub whose reads are counted (and may be held) and whose notifications are
    kept, with no periodic resync unless `resync_ms` says; its subscriptions are confirmed
    (read once) by `confirmed`."""
    service = GameService(EventStore(client), Catalogue.with_extras())
    reader = CountedReads(client)
    hub = HeardHub(service, reader, resync_ms=resync_ms)
    await hub.start()
    table, _ = await service.create(CreateGame("crazymino", [SeatRequest("human")] * 2, seed=4))
    return service, reader, hub, table


def versions(subscription: Subscription) -> list[int]:
    """What a subscriber has been given so far."""
    got = []
    while not subscription.queue.empty():
        delivery = subscription.queue.get_nowait()
        assert delivery is not None
        got.append(delivery.entry.version)
    return got


async def received(subscription: Subscription, count: int) -> list[int]:
    """The versions of the next `count` deliveries, waited for."""
    got = []
    while len(got) < count:
        delivery = await subscription.queue.get()
        assert delivery is not None
        got.append(delivery.entry.version)
    return got


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
        got: list[int] = []
        while len(got) < final.version - table.version:
            delivery = await subscription.queue.get()
            assert delivery is not None
            got.append(delivery.entry.version)
        assert got == list(range(table.version + 1, final.version + 1))
    await hub.close()


async def test_the_game_is_forgotten_when_the_last_subscriber_leaves(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, hub, game_id = await setup(redis_client)
    table = await service.load(game_id)
    first, second = hub.subscribe(table), hub.subscribe(table)
    assert hub.subscribers == 2 and hub.watched == 1
    hub.unsubscribe(first)
    assert hub.watched == 1
    hub.unsubscribe(second)
    assert hub.subscribers == 0 and hub.watched == 0
    for listener in hub._listeners.values():  # (on a cluster, one per node it listens to)
        assert news_channel(game_id) not in listener.want
    await hub.close()


async def test_past_its_limit_a_new_stream_is_refused(redis_client: redis.asyncio.Redis) -> None:
    service = GameService(EventStore(redis_client), Catalogue.with_extras())
    hub = Hub(service, EventStore(redis_client), max_subscribers=2, retry_after=3)
    await hub.start()
    table, _ = await service.create(CreateGame("crazymino", [SeatRequest("human")] * 2, seed=4))
    first = hub.subscribe(table)
    hub.subscribe(table)
    with pytest.raises(StreamsFull) as refused:
        hub.subscribe(table)
    assert refused.value.retry_after == 3
    hub.unsubscribe(first)
    hub.subscribe(table)  # a place is free again
    await hub.close()


async def test_a_subscriber_that_falls_behind_is_dropped(redis_client: redis.asyncio.Redis) -> None:
    service, hub, game_id = await setup(redis_client, queue_size=2)
    table = await service.load(game_id)
    slow, keen = hub.subscribe(table), hub.subscribe(table)
    for _ in range(4):
        await draw(service, game_id)  # this process's own: passed on at once
        while not keen.queue.empty():
            keen.queue.get_nowait()
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
        assert await subscription.queue.get() is None
        assert hub.subscribers == 0
    finally:  # leave no broken game behind on a shared Redis
        await redis_client.delete(events, f"game:{{{game_id}}}:meta", f"game:{{{game_id}}}:version")
        await redis_client.zrem("games:lobby", game_id)


async def test_a_lost_listening_connection_is_made_again(redis_url: str) -> None:
    """Redis drops the hub's listening connection: it listens again and misses nothing (long
    before its periodic resync)."""
    client = redis.asyncio.Redis.from_url(redis_url)
    try:
        service = GameService(EventStore(client), Catalogue.with_extras())
        hub = Hub(service, EventStore(client), resync_ms=600_000)
        await hub.start()
        table, _ = await service.create(CreateGame("crazymino", [SeatRequest("human")] * 2, seed=4))
        subscription = hub.subscribe(table)
        other = elsewhere(client)  # another process's appends come by notification
        await draw(other, table.id)
        first = await subscription.queue.get()
        assert first is not None
        await client.client_kill_filter(_type="pubsub")
        await draw(other, table.id)
        later = await subscription.queue.get()
        assert later is not None and later.entry.version > first.entry.version
        await hub.close()
    finally:
        await client.aclose()


async def test_own_appends_are_passed_on_at_once_and_their_news_is_not_read_again(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, reader, hub, table = await counted_setup(redis_client)
    subscription = hub.subscribe(table)
    await confirmed(reader)  # one read, then nothing new
    before = reader.reads
    version = table.version
    for _ in range(3):
        await draw(service, table.id)
        now = (await service.load(table.id)).version
        # in the queue as soon as the command returns
        assert versions(subscription) == list(range(version + 1, now + 1))
        version = now
    await hub.hears(table.id, version)  # the three notifications came: each is known already
    await draw(elsewhere(redis_client), table.id)  # one more, from another process: read
    later = await elsewhere(redis_client).load(table.id)
    assert await received(subscription, later.version - version) == list(
        range(version + 1, later.version + 1)
    )
    assert reader.reads == before + 1  # that one read, and none for this process's appends
    await hub.close()


class HeldAppends(EventStore):
    """An event store whose appends wait while `gate` is clear."""

    def __init__(self, client: redis.asyncio.Redis) -> None:
        super().__init__(client)
        self.gate = asyncio.Event()
        self.gate.set()
        self.waiting = asyncio.Event()

    async def append(self, *args: Any, **kwargs: Any) -> AppendResult:
        self.waiting.set()
        await self.gate.wait()
        return await super().append(*args, **kwargs)


async def test_news_that_comes_while_this_process_appends_is_read_once_its_append_fails(
    redis_client: redis.asyncio.Redis,
) -> None:
    store = HeldAppends(redis_client)
    service = GameService(store, Catalogue.with_extras())
    reader = CountedReads(redis_client)
    hub = HeardHub(service, reader, resync_ms=600_000)
    await hub.start()
    table, _ = await service.create(CreateGame("crazymino", [SeatRequest("human")] * 2, seed=4))
    subscription = hub.subscribe(table)
    await confirmed(reader)
    (seat,) = table.game.to_act(table.state)
    store.gate.clear()
    mine = asyncio.create_task(service.execute(table.id, seat, DrawAndPass(), loaded=table))
    await store.waiting.wait()  # this process's append is on its way, and held
    await draw(elsewhere(redis_client), table.id)  # another process's gets in first
    final = await elsewhere(redis_client).load(table.id)
    await hub.hears(table.id, final.version)  # its news came while this process was appending
    store.gate.set()  # that append fails on the version; judged again, it is refused
    with pytest.raises(TurnError):
        await mine
    got: list[int] = []
    while len(got) < final.version - table.version:  # the held news is read now
        delivery = await subscription.queue.get()
        assert delivery is not None
        got.append(delivery.entry.version)
    assert got == list(range(table.version + 1, final.version + 1))
    await hub.close()


async def test_own_and_other_processes_appends_interleaved_arrive_once_in_order(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, reader, hub, start = await counted_setup(redis_client, resync_ms=100)
    other = elsewhere(redis_client)
    subscription = hub.subscribe(start)
    await confirmed(reader)  # listening: every append's notification comes
    for turn in range(6):
        await draw(other if turn % 3 else service, start.id)
    final = await other.load(start.id)
    got = await received(subscription, final.version - start.version)
    await hub.hears(start.id, final.version)  # every notification came,
    await reader.more()  # and a resync read the game again after them
    await draw(other, start.id)  # then one more: nothing came twice before it
    later = await other.load(start.id)
    got += await received(subscription, later.version - final.version)
    assert [*got, *versions(subscription)] == list(range(start.version + 1, later.version + 1))
    await hub.close()


async def test_an_own_append_during_a_read_is_passed_on_once(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, reader, hub, table = await counted_setup(redis_client)
    subscription = hub.subscribe(table)
    await confirmed(reader)
    reader.gate.clear()
    reads = reader.reads
    hub.notify(table.id)  # a read starts from the version the hub has, and is held
    await until(lambda: reader.reads > reads)
    await draw(service, table.id)  # passed on at once, while that read is out
    now = (await service.current(table.id)).version
    assert versions(subscription) == list(range(table.version + 1, now + 1))
    done = reader.done
    reader.gate.set()  # the read returns the same event: it is not passed on again
    await until(lambda: reader.done > done)
    assert subscription.queue.empty()
    await hub.close()


async def test_the_subscriber_answering_its_own_command_is_not_given_its_events(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, reader, hub, table = await counted_setup(redis_client, resync_ms=100)
    game_id = table.id
    mover, other = hub.subscribe(table), hub.subscribe(table)
    await confirmed(reader)  # listening: the command's notification comes
    (seat,) = table.game.to_act(table.state)
    await service.execute(game_id, seat, DrawAndPass(), answering=mover)
    now = (await service.load(game_id)).version
    assert versions(other) == list(range(table.version + 1, now + 1))
    await hub.hears(game_id, now)  # nor by the notification
    await reader.more()  # or a resync after it
    assert versions(mover) == [] and versions(other) == []
    await draw(service, game_id)  # a command of nobody's answering: everyone gets it
    later = (await service.load(game_id)).version
    assert versions(mover) == versions(other) == list(range(now + 1, later + 1))
    await hub.close()


async def test_a_sink_takes_deliveries_at_once_unless_it_declines_or_some_wait(
    redis_client: redis.asyncio.Redis,
) -> None:
    service, hub, game_id = await setup(redis_client)
    table = await service.load(game_id)
    subscription = hub.subscribe(table)
    taken: list[int] = []
    willing = True

    def sink(deliveries: list[Delivery]) -> bool:
        if willing:
            taken.extend(d.entry.version for d in deliveries)
        return willing

    subscription.sink = sink
    await draw(service, game_id)  # this process's append: passed on at once
    first = (await service.load(game_id)).version
    assert taken == list(range(table.version + 1, first + 1)) and subscription.queue.empty()
    willing = False  # busy: queued instead, in order
    await draw(service, game_id)
    second = (await service.load(game_id)).version
    willing = True  # ready again, but something waits: queued behind it, not taken
    await draw(service, game_id)
    third = (await service.load(game_id)).version
    assert taken == list(range(table.version + 1, first + 1))
    assert versions(subscription) == list(range(first + 1, third + 1))
    assert second < third

    def broken(deliveries: list[Delivery]) -> bool:
        raise RuntimeError("a bug in a sink")

    subscription.sink = broken  # its deliveries are queued, not lost
    await draw(service, game_id)
    assert versions(subscription) == list(
        range(third + 1, (await service.load(game_id)).version + 1)
    )
    await hub.close()
