"""The pipe (`app.store.pipe`): one shared connection to a real Redis, each caller given its own
reply, and redis-py's errors for every failure."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator

import fakeredis
import pytest
import redis.asyncio
from redis.exceptions import AuthenticationError, ResponseError
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.store.pipe import Pipe, sha_of
from tests.conftest import cluster_client
from tests.processes import free_port


@pytest.fixture
async def client(redis_url: str) -> AsyncIterator[redis.asyncio.Redis]:
    plain = redis.asyncio.Redis.from_url(redis_url)
    yield plain
    await plain.aclose()


@pytest.fixture
async def pipe(client: redis.asyncio.Redis) -> AsyncIterator[Pipe]:
    made = Pipe.of(client)
    assert made is not None
    yield made
    await made.aclose()


def key() -> str:
    return f"pipe-test:{uuid.uuid4().hex}"


async def test_concurrent_callers_each_get_their_own_reply(pipe: Pipe) -> None:
    words = [f"word {n}".encode() for n in range(500)]
    assert await asyncio.gather(*(pipe.call("ECHO", w) for w in words)) == words


async def test_an_error_reply_raises_what_redis_py_raises(
    pipe: Pipe, client: redis.asyncio.Redis
) -> None:
    name = key()
    await client.set(name, b"not a number")
    with pytest.raises(ResponseError, match="not an integer"):
        await pipe.call("INCR", name)
    assert await pipe.call("GET", name) == b"not a number"  # the connection goes on
    await client.delete(name)


async def test_a_script_the_server_lost_is_sent_whole(
    pipe: Pipe, client: redis.asyncio.Redis
) -> None:
    source = b"return ARGV[1] .. '!'"
    await client.script_flush()
    assert await pipe.script(source, sha_of(source), [], ["hello"]) == b"hello!"
    assert await pipe.script(source, sha_of(source), [], ["again"]) == b"again!"  # now by sha


async def test_a_killed_connection_fails_its_waiting_commands_then_reconnects(
    pipe: Pipe, client: redis.asyncio.Redis
) -> None:
    first = await pipe.call("CLIENT", "ID")
    waiting = asyncio.ensure_future(pipe.call("BLPOP", key(), 5))
    await asyncio.sleep(0.1)
    await client.client_kill_filter(_id=first)
    with pytest.raises(RedisConnectionError):
        await asyncio.wait_for(waiting, 3)
    assert await pipe.call("CLIENT", "ID") != first


async def test_no_answer_within_the_timeout_drops_the_connection(
    client: redis.asyncio.Redis,
) -> None:
    pipe = Pipe.of(client)
    assert pipe is not None
    pipe.timeout = 0.3
    first = await pipe.call("CLIENT", "ID")
    with pytest.raises(RedisTimeoutError):
        await pipe.call("BLPOP", key(), 3)
    assert await pipe.call("CLIENT", "ID") != first
    await pipe.aclose()


async def test_a_caller_that_gives_up_does_not_take_the_next_reply(pipe: Pipe) -> None:
    slow = asyncio.ensure_future(pipe.call("BLPOP", key(), 0.3))
    await asyncio.sleep(0.05)
    slow.cancel()
    assert await pipe.call("ECHO", b"mine") == b"mine"


async def test_no_server_is_a_connection_error() -> None:
    pipe = Pipe("127.0.0.1", free_port(), timeout=1)
    with pytest.raises(RedisConnectionError):
        await pipe.call("PING")


async def test_a_database_and_a_password_are_set_on_connecting(redis_url: str) -> None:
    other = redis.asyncio.Redis.from_url(redis_url.rsplit("/", 1)[0] + "/5")
    pipe = Pipe.of(other)
    assert pipe is not None
    name = key()
    await pipe.call("SET", name, b"in db 5")
    assert await other.get(name) == b"in db 5"
    await other.delete(name)
    await pipe.aclose()
    await other.aclose()
    wrong = Pipe(pipe.host, pipe.port, password="not the password", timeout=1)
    with pytest.raises(AuthenticationError):
        await wrong.call("PING")


async def test_only_a_plain_server_gets_a_pipe(redis_cluster_url: str) -> None:
    assert Pipe.of(fakeredis.aioredis.FakeRedis()) is None
    assert Pipe.of(redis.asyncio.Redis.from_url("rediss://127.0.0.1:6379/0")) is None  # TLS
    assert Pipe.of(redis.asyncio.Redis.from_url("unix:///tmp/redis.sock")) is None
    cluster = cluster_client(redis_cluster_url)
    assert Pipe.of(cluster) is None
    await cluster.aclose()
