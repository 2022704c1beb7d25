"""The news listeners (`app.live.news`): each notification of a subscribed channel reaches the hub
with its version, a subscription in place is told, a channel left is heard no more, and a
refused connection is tried again without ever telling anything false."""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator

import fakeredis
import pytest
import redis.asyncio
import uvloop

from app.live import news
from app.live.news import PubSubListener, WireListener
from app.store.events import news_channel
from tests.waiting import until


class Told:
    """What a listener told: (game, version) pairs, in order."""

    def __init__(self) -> None:
        self.said: list[tuple[str, int | None]] = []
        self.changed = asyncio.Event()

    def __call__(self, game_id: str, version: int | None) -> None:
        self.said.append((game_id, version))
        self.changed.set()

    async def until(self, count: int) -> list[tuple[str, int | None]]:
        while len(self.said) < count:
            self.changed.clear()
            await self.changed.wait()
        return self.said


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    plain = redis.asyncio.Redis.from_url(redis_url)
    yield plain
    await plain.aclose()


async def test_news_of_subscribed_games_is_told_with_its_version(
    client: redis.asyncio.Redis,
) -> None:
    told = Told()
    listener = news.listener(told, client, owned=False)
    assert isinstance(listener, WireListener)
    game, other = uuid.uuid4().hex, uuid.uuid4().hex
    listener.add(news_channel(game))
    assert await told.until(1) == [(game, None)]  # in place: the hub reads the game
    await client.execute_command("SPUBLISH", news_channel(game), 7)
    await client.execute_command("SPUBLISH", news_channel(other), 3)  # not subscribed
    await client.execute_command("SPUBLISH", news_channel(game), "not a version")
    await client.execute_command("SPUBLISH", news_channel(game), 8)
    assert await told.until(4) == [(game, None), (game, 7), (game, None), (game, 8)]
    listener.remove(news_channel(game))
    listener.add(news_channel(other))
    await told.until(5)
    await client.execute_command("SPUBLISH", news_channel(game), 9)  # left
    await client.execute_command("SPUBLISH", news_channel(other), 4)
    said = await told.until(6)
    assert said[4:] == [(other, None), (other, 4)]  # nothing of the game left
    await listener.aclose()
    assert listener.task.cancelled()


async def test_a_refused_connection_is_tried_again_and_tells_nothing(
    redis_url: str, caplog: pytest.LogCaptureFixture
) -> None:
    told = Told()
    plain = WireListener.of(told, redis.asyncio.Redis.from_url(redis_url))
    assert plain is not None
    listener = WireListener(told, plain.host, plain.port, password="not the password")
    await plain.aclose()
    listener.add(news_channel(uuid.uuid4().hex))

    def lost() -> int:
        return sum("notifications lost" in r.getMessage() for r in caplog.records)

    with caplog.at_level(logging.WARNING, logger="app.live.news"):
        await until(lambda: lost() >= 2)  # refused, waited, refused again
    assert told.said == []
    assert not listener.task.done()
    await listener.aclose()


@pytest.mark.parametrize("loop", ["asyncio", "uvloop"])
def test_a_subscription_asked_for_as_the_connection_drops_is_asked_again(
    redis_url: str, loop: str
) -> None:
    """On uvloop (what `python -m app` runs on) a write to a dropped connection raises."""
    runner = uvloop.run if loop == "uvloop" else asyncio.run
    runner(_asked_again(redis_url))


async def _asked_again(redis_url: str) -> None:
    client = redis.asyncio.Redis.from_url(redis_url)
    told = Told()
    listener = news.listener(told, client, owned=False)
    assert isinstance(listener, WireListener)
    first, second = uuid.uuid4().hex, uuid.uuid4().hex
    listener.add(news_channel(first))
    await told.until(1)
    failures: list[dict[str, object]] = []
    loop = asyncio.get_running_loop()
    loop.set_exception_handler(lambda _, context: failures.append(context))
    protocol = listener._protocol
    assert protocol is not None and protocol.transport is not None
    protocol.transport.close()  # dropped; the listener has not heard of it yet
    listener.add(news_channel(second))  # its write comes after the drop
    assert await told.until(3)  # both asked for again on the new connection
    assert (second, None) in told.said[1:] and failures == []
    await listener.aclose()
    await client.aclose()


async def test_fakeredis_keeps_redis_pys_pubsub() -> None:
    told = Told()
    client = fakeredis.aioredis.FakeRedis()
    listener = news.listener(told, client, owned=True)
    assert isinstance(listener, PubSubListener)
    await listener.aclose()
