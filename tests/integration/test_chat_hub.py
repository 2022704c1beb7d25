"""A table's chat, live (`app.live.hub`, `app.live.news`), on a real Redis, fakeredis and a
Redis Cluster: a message written anywhere reaches every subscriber of the game in this process
once and in order, mixed with the game's events in the queue they share; one of this process's
own is passed on at once, without a read; a new channel reads the chat after where its first
subscriber stood, and a later subscriber learns where the channel stood. What must not come is
shown by a later message that must come after it."""

from __future__ import annotations

import asyncio
import uuid

import fakeredis
import fakeredis.aioredis
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.live import news
from app.live.hub import Delivery, Hub, Passed, Said, Subscription
from app.live.news import PubSubListener, WireListener
from app.store.chat import ChatLog, ChatMessage
from app.store.events import EventStore, news_channel
from domain.crazymino.model import DrawAndPass
from tests.integration.hearing import CountedReads
from tests.integration.hearing import confirmed as confirmed_reads
from tests.waiting import until

NOON = 1_796_064_780_000


class CountedChat(ChatLog):
    """A chat log that counts its reads done."""

    def __init__(self, client: redis.asyncio.Redis) -> None:
        super().__init__(client)
        self.reads = 0

    async def read(self, game_id: str, after: int = 0) -> tuple[list[ChatMessage], int]:
        read = await super().read(game_id, after)
        self.reads += 1
        return read


async def setup(client: redis.asyncio.Redis) -> tuple[GameService, CountedChat, Hub, Table]:
    """A game and a hub with a chat; `confirmed` waits until a subscription is in place."""
    service = GameService(EventStore(client), Catalogue.with_extras())
    chat = CountedChat(client)
    hub = Hub(service, EventStore(client), chat=chat, resync_ms=600_000)
    await hub.start()
    seats = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]
    table, _ = await service.create(CreateGame("crazymino", seats, seed=4))
    return service, chat, hub, table


async def given(subscription: Subscription, count: int) -> list[Passed]:
    got: list[Passed] = []
    while len(got) < count:
        delivery = await subscription.queue.get()
        assert delivery is not None
        got.append(delivery)
    return got


async def confirmed(chat: CountedChat) -> None:
    """Until the hub read the chat of a new subscription: it hears the game's news from now."""
    await until(lambda: chat.reads >= 1)


def texts(passed: list[Passed]) -> list[str]:
    return [p.message.text for p in passed if isinstance(p, Said)]


async def test_messages_from_anywhere_reach_every_subscriber_once_and_in_order(
    redis_client: redis.asyncio.Redis,
) -> None:
    _, chat, hub, table = await setup(redis_client)
    first, second = hub.subscribe(table), hub.subscribe(table)
    await confirmed(chat)
    elsewhere = ChatLog(redis_client)  # another API process: its messages come as news
    other = GameService(EventStore(redis_client), Catalogue.with_extras())
    said = ["one", "two", "three"]
    await elsewhere.say(table.id, 0, "Ann", said[0], NOON)
    (seat,) = table.game.to_act(table.state)
    await other.execute(table.id, seat, DrawAndPass())  # an event between two messages
    for n, text in enumerate(said[1:], start=1):
        await elsewhere.say(table.id, n % 2, "Bob" if n % 2 else "Ann", text, NOON + n)
    final = await other.load(table.id)
    events = final.version - table.version
    for subscription in (first, second):
        got = await given(subscription, len(said) + events)
        assert texts(got) == said
        assert [p.message.id for p in got if isinstance(p, Said)] == [1, 2, 3]
        versions = [p.entry.version for p in got if isinstance(p, Delivery)]
        assert versions == list(range(table.version + 1, final.version + 1))
    await elsewhere.say(table.id, 0, "Ann", "last", NOON + 9)
    for subscription in (first, second):  # nothing twice before it
        assert texts(await given(subscription, 1)) == ["last"]
    await hub.close()


async def test_own_messages_are_passed_on_at_once_and_their_news_brings_nothing_twice(
    redis_client: redis.asyncio.Redis,
) -> None:
    _, chat, hub, table = await setup(redis_client)
    subscription = hub.subscribe(table)
    await confirmed(chat)  # the chat read once
    for n in range(3):
        message = await chat.say(table.id, 0, "Ann", f"m{n}", NOON + n)
        hub.spoken(table.id, message)
        assert subscription.queue.get_nowait() == Said(message)  # there as the write returns
    # The three news arrive (a news that beat its write's reply costs a read, no more), then
    # another process's message, which comes after them and nothing before it.
    await ChatLog(redis_client).say(table.id, 1, "Bob", "later", NOON + 9)
    assert texts(await given(subscription, 1)) == ["later"]
    assert subscription.queue.empty()
    await hub.close()


async def test_a_new_channel_reads_the_chat_after_where_its_first_subscriber_stood(
    redis_client: redis.asyncio.Redis,
) -> None:
    _, chat, hub, table = await setup(redis_client)
    for n in range(3):
        await chat.say(table.id, 1, "Bob", f"before {n}", NOON + n)
    _, last = await chat.read(table.id)
    # the first subscriber had read up to message 2; message 3 came before it subscribed
    subscription = hub.subscribe(table, said=2)
    assert subscription.heard == 2
    assert texts(await given(subscription, 1)) == ["before 2"]
    later = hub.subscribe(table, said=0)
    assert later.heard == last  # the channel had passed on message 3: the rest is its own read
    await chat.say(table.id, 0, "Ann", "after", NOON + 9)
    for each in (subscription, later):
        assert texts(await given(each, 1)) == ["after"]
    await hub.close()


async def test_a_hub_without_a_chat_passes_on_no_message(
    redis_client: redis.asyncio.Redis,
) -> None:
    service = GameService(EventStore(redis_client), Catalogue.with_extras())
    reader = CountedReads(redis_client)
    hub = Hub(service, reader, resync_ms=600_000)
    await hub.start()
    table, _ = await service.create(CreateGame("crazymino", [SeatRequest("human")] * 2, seed=4))
    subscription = hub.subscribe(table)
    await confirmed_reads(reader)
    await ChatLog(redis_client).say(table.id, 0, "Ann", "nobody hears", NOON)
    (seat,) = table.game.to_act(table.state)
    await GameService(EventStore(redis_client), Catalogue.with_extras()).execute(
        table.id, seat, DrawAndPass()
    )
    got = await given(subscription, 1)
    assert isinstance(got[0], Delivery)  # the event's news, the message's not
    await hub.close()


class Told:
    def __init__(self) -> None:
        self.said: list[tuple[str, str, int | None]] = []
        self.changed = asyncio.Event()

    def notify(self, game_id: str, version: int | None) -> None:
        self.said.append(("version", game_id, version))
        self.changed.set()

    def chat(self, game_id: str, number: int) -> None:
        self.said.append(("chat", game_id, number))
        self.changed.set()

    async def until(self, count: int) -> list[tuple[str, str, int | None]]:
        while len(self.said) < count:
            self.changed.clear()
            await self.changed.wait()
        return self.said


async def test_chat_news_goes_to_the_chat_callback_over_the_wire(redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    told = Told()
    listener = news.listener(told.notify, client, owned=False, chat=told.chat)
    assert isinstance(listener, WireListener)
    await news_told(client, listener, told)
    await client.aclose()


async def test_chat_news_goes_to_the_chat_callback_over_pubsub() -> None:
    client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    told = Told()
    listener = news.listener(told.notify, client, owned=True, chat=told.chat)
    assert isinstance(listener, PubSubListener)
    await news_told(client, listener, told)


async def news_told(client: redis.asyncio.Redis, listener: news.Listener, told: Told) -> None:
    game = uuid.uuid4().hex
    listener.add(news_channel(game))
    await told.until(1)
    for payload in (b"c7", b"5", b"c", b"c1x", b"c12"):
        await client.execute_command("SPUBLISH", news_channel(game), payload)
    assert await told.until(6) == [
        ("version", game, None),  # the subscription in place
        ("chat", game, 7),
        ("version", game, 5),
        ("version", game, None),  # neither a version nor a message's: the hub reads to be sure
        ("version", game, None),
        ("chat", game, 12),
    ]
    await listener.aclose()
