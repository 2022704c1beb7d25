"""The retention policy on a real Redis and on fakeredis: idle games end as abandoned, finished
games are archived into a third of their size, and removed when that is configured."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator

import fakeredis
import fakeredis.aioredis
import pytest
import redis.asyncio

from app.api.logfile import export
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.machine.jobs import DAY_MS, retention
from app.store.events import LOBBY_KEY, EventStore
from app.store.lifecycle import ARCHIVED, ENDED, KEPT, RUNNING, Lifecycle
from app.store.pipe import Pipe
from domain.crazymino.model import GameEnded
from tests.processes import database

HUMANS = [SeatRequest("human"), SeatRequest("human")]


@pytest.fixture
async def redis_client(
    request: pytest.FixtureRequest,
) -> AsyncIterator[redis.asyncio.Redis]:
    """The retention job reads every game of its indexes: a database of these tests alone."""
    if getattr(request, "param", "real") == "fake":
        client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    else:
        client = redis.asyncio.Redis.from_url(database(request.getfixturevalue("redis_url"), 8))
    try:
        yield client
    finally:
        await client.aclose()


@pytest.fixture
async def service(redis_client: redis.asyncio.Redis) -> AsyncIterator[GameService]:
    pipe = Pipe.of(redis_client)  # the command path's connection (real Redis only)
    lifecycle = Lifecycle(redis_client, pipe=pipe)
    yield GameService(
        EventStore(redis_client, pipe=pipe), Catalogue.with_extras(), lifecycle=lifecycle
    )


pytestmark = pytest.mark.parametrize("redis_client", ["real", "fake"], indirect=True)


async def finished(service: GameService, seed: int, players: tuple[str, ...] = ()) -> str:
    table, _ = await service.create(CreateGame("crazymino", HUMANS, seed=seed), players)
    rng = random.Random(seed)
    while not table.over:
        (seat,) = table.game.to_act(table.state)
        legal = table.game.legal(table.state, seat, 0)
        table, _ = await service.execute(
            table.id, seat, rng.choice(legal), idempotency_key=f"k{table.version}"
        )
    return table.id


def later(service: GameService, ms: int) -> GameService:
    """The same service, its clock `ms` ahead (a fresh cache, as another process)."""
    moved = GameService(service.store, service.catalogue, lifecycle=service.lifecycle)
    moved.clock = lambda: service.clock() + ms
    return moved


async def members(client: redis.asyncio.Redis, index: str) -> set[str]:
    return {m.decode() for m in await client.zrange(index, 0, -1)}


async def test_a_game_nobody_plays_ends_as_abandoned(
    service: GameService, redis_client: redis.asyncio.Redis
) -> None:
    idle, _ = await service.create(CreateGame("crazymino", HUMANS, seed=1))
    busy, _ = await service.create(CreateGame("crazymino", HUMANS, seed=2))
    assert {idle.id, busy.id} <= await members(redis_client, RUNNING)
    settings = Settings(abandon_days=30)
    # Twenty-nine days on, someone plays the second game.
    await later(service, 29 * DAY_MS).execute(
        busy.id,
        next(iter(busy.game.to_act(busy.state))),
        busy.game.legal(busy.state, next(iter(busy.game.to_act(busy.state))), 0)[0],
    )
    month = later(service, 31 * DAY_MS)
    done = await retention({"service": month, "settings": settings})
    assert done["abandoned"] == 1
    table, events = await month.events(idle.id)
    assert table.over and isinstance(events[-1].event, GameEnded)
    assert events[-1].event.reason == "abandoned" and events[-1].by is None
    assert not (await month.load(busy.id)).over
    assert idle.id in await members(redis_client, ENDED)
    assert idle.id not in await members(redis_client, RUNNING)
    assert (await retention({"service": month, "settings": settings}))["abandoned"] == 0


async def test_a_finished_game_is_archived_and_reads_as_before(
    service: GameService, redis_client: redis.asyncio.Redis
) -> None:
    game_id = await finished(service, 7)
    table, events = await service.events(game_id)
    log_before = export(table, await service.meta(game_id), events)
    _, state_before, _ = await service.state_at(game_id, 10)
    day = later(service, DAY_MS + 3_600_000)
    assert (await retention({"service": day, "settings": Settings()}))["archived"] >= 1
    assert await redis_client.exists(f"game:{{{game_id}}}:events") == 0
    assert game_id in await members(redis_client, ARCHIVED)
    for reader in (service, later(service, 0)):  # a cached copy, and a fresh process
        table, events = await reader.events(game_id)
        assert export(table, await reader.meta(game_id), events) == log_before
        assert (await reader.state_at(game_id, 10))[1] == state_before
        assert [e.version for e in (await reader.events(game_id, 5))[1]] == list(
            range(6, table.version + 1)
        )


async def test_archived_games_are_removed_only_when_configured(
    service: GameService, redis_client: redis.asyncio.Redis
) -> None:
    game_id = await finished(service, 8)
    await retention({"service": later(service, 2 * DAY_MS), "settings": Settings()})
    far = later(service, 400 * DAY_MS)
    await retention({"service": far, "settings": Settings()})
    assert (await far.meta(game_id)).archived  # kept for ever by default
    await retention({"service": far, "settings": Settings(delete_after_days=365)})
    assert (
        await redis_client.exists(
            *(f"game:{{{game_id}}}:{k}" for k in ("meta", "version", "archive"))
        )
        == 0
    )
    assert await redis_client.zscore(LOBBY_KEY, game_id) is None


async def test_a_game_of_players_accounts_is_kept_when_others_are_removed(
    service: GameService, redis_client: redis.asyncio.Redis
) -> None:
    """Their ratings and histories are rebuilt from it: its log is never deleted."""
    game_id = await finished(service, 9, ("ann", "bob"))
    await retention({"service": later(service, 2 * DAY_MS), "settings": Settings()})
    far = later(service, 400 * DAY_MS)
    assert (await retention({"service": far, "settings": Settings(delete_after_days=365)}))[
        "deleted"
    ] == 0
    assert game_id in await members(redis_client, KEPT)
    assert game_id not in await members(redis_client, ARCHIVED)
    table = await later(service, 0).load(game_id)
    assert table.over and [s.player for s in table.seats] == ["ann", "bob"]
    await retention({"service": far, "settings": Settings(delete_after_days=365)})
    assert game_id in await members(redis_client, KEPT)


async def test_an_archived_game_costs_at_most_a_third(
    service: GameService, redis_client: redis.asyncio.Redis
) -> None:
    if isinstance(redis_client, fakeredis.aioredis.FakeRedis):
        pytest.skip("fakeredis has no MEMORY USAGE")
    ids = [await finished(service, seed) for seed in (11, 12, 13)]

    async def cost(game_id: str) -> int:
        """Bytes of the game's keys, its idempotency keys left out (they expire after a day)."""
        keys = [k async for k in redis_client.scan_iter(match=f"game:{{{game_id}}}:*")]
        return sum([await redis_client.memory_usage(k) or 0 for k in keys if b":cmd:" not in k])

    before = sum([await cost(g) for g in ids])
    await retention({"service": later(service, 2 * DAY_MS), "settings": Settings()})
    after = sum([await cost(g) for g in ids])
    assert after * 3 <= before, (before, after)
