"""A table's chat in Redis (`app.store.chat`, `app.people.chat`) on a real Redis, fakeredis and
a Redis Cluster: messages numbered in order under the seat's name, read after an id, at most
a seat's share a minute, capped, never an event of the game, kept while the game is archived
and gone with it."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable

import pytest
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.errors import UnknownGame
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.people.chat import BadChatMessage, Chat, TooManyMessages
from app.store.chat import ChatLog, ChatMessage, TooFast, chat_key
from app.store.events import LOBBY_KEY, EventStore, GameNotFound
from app.store.lifecycle import Lifecycle
from app.store.pipe import Pipe

#: A moment in the middle of a minute (ms): 20 s of it are gone.
NOON = 1_796_064_780_000 + 20_000
SEATS = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]


#: A chat log on the test's Redis (`kept` messages), reading as the service's does: through the
#: store's pipe on a single real Redis, through redis-py on fakeredis and a cluster.
Logs = Callable[..., ChatLog]


@pytest.fixture
async def logs(redis_client: redis.asyncio.Redis) -> AsyncIterator[Logs]:
    pipe = Pipe.of(redis_client)
    yield lambda kept=1000: ChatLog(redis_client, kept=kept, pipe=pipe)
    if pipe is not None:
        await pipe.aclose()


async def new_table(client: redis.asyncio.Redis) -> tuple[GameService, Table]:
    service = GameService(EventStore(client), Catalogue.with_extras(), lifecycle=Lifecycle(client))
    table, _ = await service.create(CreateGame("crazymino", SEATS, seed=4))
    return service, table


async def test_messages_are_numbered_in_order_under_the_seats_names(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    _, table = await new_table(redis_client)
    chat = Chat(logs())
    assert await chat.messages(table.id) == ([], 0)
    said = [
        await chat.say(table, 0, "  hello <b>Bob</b> ", NOON),
        await chat.say(table, 1, "hi Ann", NOON + 1),
        await chat.say(table, 0, "good luck", NOON + 2),
    ]
    assert said == [
        ChatMessage(1, NOON, 0, "Ann", "hello <b>Bob</b>"),
        ChatMessage(2, NOON + 1, 1, "Bob", "hi Ann"),
        ChatMessage(3, NOON + 2, 0, "Ann", "good luck"),
    ]
    assert await chat.messages(table.id) == (said, 3)
    assert await chat.messages(table.id, 2) == (said[2:], 3)
    assert await chat.messages(table.id, 3) == ([], 3)
    assert await chat.messages(table.id, 99) == ([], 3)


async def test_a_message_is_no_event_of_the_game(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    service, table = await new_table(redis_client)
    before = await service.store.read(table.id)
    chat = Chat(logs())
    await chat.say(table, 0, "is this an event?", NOON)
    assert await service.store.version(table.id) == table.version
    assert await service.store.read(table.id) == before
    assert (await service.load(table.id)).version == table.version


async def test_a_bad_message_writes_nothing(redis_client: redis.asyncio.Redis, logs: Logs) -> None:
    _, table = await new_table(redis_client)
    chat = Chat(logs())
    for text in ("", "x" * 301, "right\u202eleft"):
        with pytest.raises(BadChatMessage):
            await chat.say(table, 0, text, NOON)
    assert await chat.messages(table.id) == ([], 0)
    assert not await redis_client.exists(chat_key(table.id))


async def test_a_seat_says_at_most_its_share_a_minute(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    _, table = await new_table(redis_client)
    chat = Chat(logs(), per_minute=10)
    for n in range(10):
        await chat.say(table, 0, f"message {n}", NOON + n)
    # The seat's minute runs from its first message: the clock's next minute (40 s on) is
    # no new window.
    with pytest.raises(TooManyMessages) as refused:
        await chat.say(table, 0, "one too many", NOON + 45_000)
    assert refused.value.code == "too_many_messages"
    assert refused.value.retry_after == 15  # the seat's minute has 15 s left
    assert "at most 10 messages a minute" in refused.value.message
    await chat.say(table, 1, "the other seat has its own share", NOON + 45_001)
    messages, last = await chat.messages(table.id)
    assert last == 11 and [m.seat for m in messages] == [0] * 10 + [1]
    await chat.say(table, 0, "a new minute", NOON + 60_000)  # its window is over
    assert (await chat.messages(table.id, 11))[0][0].text == "a new minute"


async def test_the_share_of_a_seat_is_per_game(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    _, first = await new_table(redis_client)
    _, second = await new_table(redis_client)
    log = logs()
    await log.say(first.id, 0, "Ann", "once", NOON, per_minute=1)
    with pytest.raises(TooFast):
        await log.say(first.id, 0, "Ann", "twice", NOON, per_minute=1)
    await log.say(second.id, 0, "Ann", "once here", NOON, per_minute=1)


async def test_the_chat_keeps_about_its_last_messages(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    _, table = await new_table(redis_client)
    log = logs(kept=10)
    for n in range(300):
        await log.say(table.id, n % 2, "Ann", f"m{n + 1}", NOON + n)
    messages, last = await log.read(table.id)
    assert last == 300 and messages[-1].text == "m300"
    assert 10 <= len(messages) <= 110  # trimmed a node of the stream at a time
    assert [m.id for m in messages] == list(range(301 - len(messages), 301))
    assert await redis_client.xlen(chat_key(table.id)) == len(messages)


async def test_the_chat_of_a_game_that_does_not_exist(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    service, table = await new_table(redis_client)
    chat = Chat(logs())
    with pytest.raises(UnknownGame):
        await chat.messages("0123456789abcdef")
    assert service.lifecycle is not None
    await service.lifecycle.delete(table.id, LOBBY_KEY)
    with pytest.raises(UnknownGame):  # a table loaded before the deletion
        await chat.say(table, 0, "anyone here?", NOON)
    assert not await redis_client.exists(chat_key(table.id))


async def test_archiving_keeps_the_chat_and_deleting_the_game_deletes_it(
    redis_client: redis.asyncio.Redis, logs: Logs
) -> None:
    service, table = await new_table(redis_client)
    assert service.lifecycle is not None
    log = logs()
    said = await log.say(table.id, 1, "Bob", "see you", NOON)
    stored = await service.store.read(table.id)
    assert await service.lifecycle.archive(table.id, table.version, stored)
    assert await log.read(table.id) == ([said], 1)
    await service.lifecycle.delete(table.id, LOBBY_KEY)
    assert not await redis_client.exists(chat_key(table.id))
    with pytest.raises(GameNotFound):
        await log.read(table.id)
