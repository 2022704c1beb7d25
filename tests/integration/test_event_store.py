"""The event store's contract, run against a real Redis and against fakeredis."""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections import Counter
from collections.abc import AsyncIterator

import pytest
import redis.asyncio

from app.store.events import (
    AppendResult,
    EventStore,
    GameExists,
    GameNotFound,
    Packed,
    StoredEvent,
    VersionConflict,
)
from app.store.pipe import Pipe

Client = redis.asyncio.Redis


RUN = uuid.uuid4().hex[:8]  # REDIS_URL may be shared: every key of this run starts with it


def now() -> int:
    return time.time_ns() // 1_000_000


def new_id() -> str:
    return f"t{RUN}-{uuid.uuid4().hex}"


@pytest.fixture
async def store(redis_client: Client) -> AsyncIterator[EventStore]:
    # A single real Redis: appends go through the store's pipe (as the service has it).
    store = EventStore(redis_client, idempotency_ttl=600, pipe=Pipe.of(redis_client))
    yield store
    await store.close()
    # Leave a shared server as it was (the private one and fakeredis die with the session).
    mine = [key async for key in redis_client.scan_iter(match=f"game:{{t{RUN}-*", count=1000)]
    for start in range(0, len(mine), 500):
        await redis_client.unlink(*mine[start : start + 500])
    listed = [m async for m, _ in redis_client.zscan_iter("games:lobby", match=f"t{RUN}-*")]
    if listed:
        await redis_client.zrem("games:lobby", *listed)


async def created(store: EventStore, events: list[bytes] | None = None) -> str:
    game_id = new_id()
    await store.create(game_id, {"game": "crazymino", "status": "open"}, events or [], now())
    return game_id


async def test_create_then_read(store: EventStore) -> None:
    game_id = new_id()
    assert not await store.exists(game_id)
    assert await store.version(game_id) == 0
    assert await store.read(game_id) == []
    assert await store.meta(game_id) == {}

    result = await store.create(game_id, {"game": "bazaar"}, [b"e1", b"e2"], 1234)

    assert result == AppendResult(first=1, last=2, replayed=False)
    assert await store.exists(game_id)
    assert await store.version(game_id) == 2
    assert await store.read(game_id) == [StoredEvent(1, b"e1", 1234), StoredEvent(2, b"e2", 1234)]


async def test_every_event_keeps_its_time_and_cause(store: EventStore) -> None:
    game_id = new_id()
    imported = [StoredEvent(1, b"a", 10, None), StoredEvent(2, b"b", 20, 3)]
    await store.create(game_id, {}, imported, 99)
    await store.append(game_id, 2, [b"c", b"d"], at=30, by=0)
    await store.append(game_id, 4, [b"e"], at=40)
    assert await store.read(game_id) == [
        *imported,
        StoredEvent(3, b"c", 30, 0),
        StoredEvent(4, b"d", 30, 0),
        StoredEvent(5, b"e", 40, None),
    ]


async def test_packed_events_are_stored_byte_for_byte(store: EventStore) -> None:
    """An imported log's events, packed as one JSON string apart from the event loop, are
    stored exactly as they came: data with quotes, escapes and letters of every plane."""
    game_id = new_id()
    data = [
        b'{"type":"said","text":"\\"quoted\\" \\\\ back\\n"}',
        '{"name":"Zoë 🐢 \\u0000"}'.encode(),
        b"[]",
    ]
    events = [StoredEvent(1, data[0], 10, None), StoredEvent(2, data[1], 20, 3)]
    events.append(StoredEvent(3, data[2], 1_765_000_000_000, 0))
    packed = Packed.of(events)
    assert packed.tail == (events[0], events[1], events[2])
    assert await store.create(game_id, {"game": "bazaar"}, packed, 99) == AppendResult(1, 3, False)
    assert await store.read(game_id) == events
    assert await store.version(game_id) == 3


async def test_create_without_events_starts_at_version_zero(store: EventStore) -> None:
    game_id = new_id()
    assert await store.create(game_id, {}, [], 1.0) == AppendResult(1, 0, False)
    assert await store.exists(game_id)
    assert await store.version(game_id) == 0
    assert (await store.append(game_id, 0, [b"a"])).last == 1


async def test_keys_carry_the_game_id_as_hash_tag(store: EventStore, redis_client: Client) -> None:
    game_id = await created(store, [b"e1"])
    await store.append(game_id, 1, [b"e2"], idempotency_key="k")
    for suffix in ("events", "version", "meta", "cmd:k"):
        assert await redis_client.exists(f"game:{{{game_id}}}:{suffix}") == 1, suffix
    assert 0 < await redis_client.ttl(f"game:{{{game_id}}}:cmd:k") <= 600


async def test_create_twice_is_refused(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    with pytest.raises(GameExists):
        await store.create(game_id, {"status": "other"}, [b"x"], now())
    assert [e.data for e in await store.read(game_id)] == [b"e1"]
    assert (await store.meta(game_id))["status"] == "open"


async def test_append_with_the_right_expected_version(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    result = await store.append(game_id, 1, [b"e2", b"e3"])
    assert result == AppendResult(first=2, last=3, replayed=False)
    assert await store.version(game_id) == 3
    assert [e.data for e in await store.read(game_id)] == [b"e1", b"e2", b"e3"]


async def test_stale_expected_version_is_refused_and_writes_nothing(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    await store.append(game_id, 1, [b"e2"])
    before = await store.read(game_id)

    with pytest.raises(VersionConflict) as raised:
        await store.append(game_id, 1, [b"late"], idempotency_key="k", meta={"status": "x"})

    assert (raised.value.expected, raised.value.actual) == (1, 2)
    assert await store.version(game_id) == 2
    assert await store.read(game_id) == before
    assert (await store.meta(game_id))["status"] == "open"
    # The refused attempt did not record its key: a retry at the right version applies.
    assert await store.append(game_id, 2, [b"e3"], idempotency_key="k") == AppendResult(3, 3, False)


async def test_expected_version_ahead_is_refused(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    with pytest.raises(VersionConflict):
        await store.append(game_id, 5, [b"x"])
    assert await store.version(game_id) == 1


async def test_append_to_unknown_game_is_refused(store: EventStore) -> None:
    game_id = new_id()
    with pytest.raises(GameNotFound):
        await store.append(game_id, 0, [b"x"])
    assert not await store.exists(game_id)
    assert await store.read(game_id) == []


async def test_read_after_returns_only_later_events(store: EventStore) -> None:
    game_id = await created(store, [b"e1", b"e2", b"e3"])
    await store.append(game_id, 3, [b"e4", b"e5"])
    assert [e.version for e in await store.read(game_id, after=3)] == [4, 5]
    assert [e.data for e in await store.read(game_id, after=1, count=2)] == [b"e2", b"e3"]
    assert await store.read(game_id, after=5) == []
    assert await store.read(game_id, after=99) == []


async def test_versions_are_gap_free_from_one(store: EventStore) -> None:
    game_id = await created(store, [b"a"])
    version = 1
    for size in (1, 3, 2, 5):
        result = await store.append(game_id, version, [b"x"] * size)
        assert (result.first, result.last) == (version + 1, version + size)
        version = result.last
    assert [e.version for e in await store.read(game_id)] == list(range(1, 13))
    assert await store.version(game_id) == 12


async def test_meta_is_written_by_create_and_updated_by_append(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    assert await store.meta(game_id) == {"game": "crazymino", "status": "open"}
    await store.append(game_id, 1, [b"e2"], meta={"status": "playing", "turn": "2"})
    assert await store.meta(game_id) == {"game": "crazymino", "status": "playing", "turn": "2"}
    await store.append(game_id, 2, [b"e3"])
    assert (await store.meta(game_id))["status"] == "playing"


async def test_idempotent_retry_returns_the_first_outcome(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    first = await store.append(game_id, 1, [b"e2", b"e3"], idempotency_key="cmd-1")
    await store.append(game_id, 3, [b"e4"])  # someone else moved the game on

    # The retry's expected version (1) is stale now: still a replay, not a conflict.
    retry = await store.append(game_id, 1, [b"e2", b"e3"], idempotency_key="cmd-1", meta={"a": "b"})

    assert first == AppendResult(first=2, last=3, replayed=False)
    assert retry == AppendResult(first=2, last=3, replayed=True)
    assert await store.version(game_id) == 4
    assert [e.data for e in await store.read(game_id)] == [b"e1", b"e2", b"e3", b"e4"]
    assert "a" not in await store.meta(game_id)


async def test_different_idempotency_keys_both_apply(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    one = await store.append(game_id, 1, [b"same"], idempotency_key="k1")
    two = await store.append(game_id, 2, [b"same"], idempotency_key="k2")
    assert (one.last, two.last, one.replayed, two.replayed) == (2, 3, False, False)
    # Keys are per game: the same key on another game is unrelated.
    other = await created(store, [b"e1"])
    assert not (await store.append(other, 1, [b"x"], idempotency_key="k1")).replayed


async def test_wait_returns_events_appended_by_another_task(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])

    async def later() -> None:
        await asyncio.sleep(0.05)
        await store.append(game_id, 1, [b"e2", b"e3"])

    waiting = asyncio.create_task(store.wait(game_id, 1, timeout_ms=5000))
    await asyncio.sleep(0.01)
    assert not waiting.done()
    await later()
    assert [(e.version, e.data) for e in await asyncio.wait_for(waiting, 5)] == [
        (2, b"e2"),
        (3, b"e3"),
    ]
    # Events already there come back at once.
    assert [e.version for e in await store.wait(game_id, 0, timeout_ms=5000)] == [1, 2, 3]


async def test_wait_times_out_with_nothing(store: EventStore) -> None:
    game_id = await created(store, [b"e1"])
    started = time.monotonic()
    assert await store.wait(game_id, 1, timeout_ms=100) == []
    assert time.monotonic() - started >= 0.09
    assert await store.wait(new_id(), 0, timeout_ms=50) == []  # an unknown game too


async def test_lobby_pages_newest_first(store: EventStore, redis_client: Client) -> None:
    # REDIS_URL may be a shared server: place our games above anything already listed.
    top = await redis_client.zrevrange("games:lobby", 0, 0, withscores=True)
    base = int(max([now(), *(score for _, score in top)])) + 1
    total_before = await redis_client.zcard("games:lobby")
    ids = [new_id() for _ in range(5)]
    for i, game_id in enumerate(ids):
        await store.create(game_id, {}, [b"created"], base + i)
    try:
        total, page = await store.lobby(0, 2)
        assert total == total_before + 5
        assert page == [ids[4], ids[3]]
        assert (await store.lobby(2, 2))[1] == [ids[2], ids[1]]
        assert (await store.lobby(4, 2))[1][0] == ids[0]
        assert (await store.lobby(0, 0)) == (total, [])
        if total_before == 0:
            assert await store.lobby(4, 10) == (5, [ids[0]])
            assert await store.lobby(5, 10) == (5, [])
    finally:
        await redis_client.zrem("games:lobby", *ids)


async def test_events_come_back_byte_for_byte(store: EventStore) -> None:
    payloads = [
        b"",
        b"\x00\xff\xfe\x80 not utf-8",
        b"{}:\r\n-ERR 0-1",
        "é🎲".encode(),
        bytes(range(256)) * 400,
    ]
    game_id = await created(store, payloads[:2])
    await store.append(game_id, 2, payloads[2:], idempotency_key="bytes")
    events = await store.read(game_id)
    assert [e.data for e in events] == payloads
    assert all(type(e.data) is bytes for e in events)
    assert [e.data for e in await store.wait(game_id, 3, timeout_ms=1000)] == payloads[3:]


async def test_invalid_ids_and_arguments_are_refused(store: EventStore) -> None:
    for bad in ("", "a{b", "a}b"):
        with pytest.raises(ValueError):
            await store.create(bad, {}, [b"x"], 1.0)
        with pytest.raises(ValueError):
            await store.read(bad)
    game_id = await created(store, [b"e1"])
    for bad in ("", "{k}"):
        with pytest.raises(ValueError):
            await store.append(game_id, 1, [b"x"], idempotency_key=bad)
    with pytest.raises(ValueError):
        await store.append(game_id, 1, [])
    assert await store.version(game_id) == 1


@pytest.mark.slow
async def test_concurrent_writers_lose_nothing_and_duplicate_nothing(store: EventStore) -> None:
    writers, commands = 20, 200
    game_id = await created(store)
    replays = conflicts = 0

    async def writer(w: int) -> None:
        nonlocal replays, conflicts
        rng = random.Random(1000 + w)
        for n in range(commands):
            key, payload = f"w{w}-n{n}", f"{w}:{n}".encode()
            attempt = 0
            while True:
                expected = await store.version(game_id)
                try:
                    result = await store.append(game_id, expected, [payload], idempotency_key=key)
                    break
                except VersionConflict:
                    conflicts += 1
                    attempt += 1
                    # Jittered exponential backoff: without it 20 writers in lockstep retry
                    # ~10 times per command and the test takes 10 s instead of 1-2 s.
                    await asyncio.sleep(rng.random() * min(0.05, 0.003 * 2**attempt))
            assert not result.replayed and result.first == result.last
            if rng.random() < 0.2:  # a client retry of a command that did apply
                retry = await store.append(game_id, expected, [payload], idempotency_key=key)
                assert retry == AppendResult(result.first, result.last, replayed=True)
                replays += 1

    await asyncio.gather(*(writer(w) for w in range(writers)))

    total = writers * commands
    events = await store.read(game_id)
    assert await store.version(game_id) == total
    assert [e.version for e in events] == list(range(1, total + 1))
    counts = Counter(e.data for e in events)
    expected_payloads = {f"{w}:{n}".encode() for w in range(writers) for n in range(commands)}
    assert set(counts) == expected_payloads
    assert set(counts.values()) == {1}
    assert replays > 0 and conflicts > 0


async def test_metas_reads_several_games_at_once(store: EventStore) -> None:
    one, other = await created(store), await created(store)
    await store.append(other, 0, [b"e"], meta={"status": "over"})
    assert await store.metas([one, new_id(), other]) == [
        {"game": "crazymino", "status": "open"},
        {},
        {"game": "crazymino", "status": "over"},
    ]
