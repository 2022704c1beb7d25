"""The command service on a real Redis and on fakeredis: cache, conflicts, idempotency, AI."""

from __future__ import annotations

import asyncio
import random

import pytest
import redis.asyncio

from app.base import metrics
from app.commands.catalogue import Catalogue
from app.commands.errors import ServiceError, StaleVersion
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.commands.table import Table
from app.machine.work import work_of
from app.store.events import EventStore
from domain.crazymino.model import DrawAndPass, TilePlaced, TurnPassed
from domain.errors import RuleError

HUMANS = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]


class Recorder:
    """A scheduler that only records the AI turns it is asked for."""

    def __init__(self) -> None:
        self.turns: list[tuple[str, int, int]] = []

    def waits(self, table: Table) -> bool:
        return work_of(table, 0) is not None

    async def expect(self, table: Table) -> None:
        pass

    async def schedule(self, table: Table, *, retry: str = "") -> None:
        work = work_of(table, 0)
        for turn in work.ai_turns if work else []:
            self.turns.append((table.id, int(turn.key), turn.seat))


def service_on(client: redis.asyncio.Redis, scheduler: Recorder | None = None) -> GameService:
    return GameService(EventStore(client), Catalogue.with_extras(), scheduler)


async def new_game(service: GameService, seats: list[SeatRequest] = HUMANS, seed: int = 3) -> str:
    table, _ = await service.create(CreateGame("crazymino", seats, seed=seed))
    return table.id


async def test_a_second_process_catches_up_from_the_stream(
    redis_client: redis.asyncio.Redis,
) -> None:
    one, other = service_on(redis_client), service_on(redis_client)
    game_id = await new_game(one)
    before = await other.load(game_id)
    seat = next(iter(before.game.to_act(before.state)))
    await one.execute(game_id, seat, before.game.legal(before.state, seat, one.clock())[0])
    after = await other.load(game_id)
    assert after.version > before.version
    fresh = await service_on(redis_client).load(game_id)
    assert (fresh.version, fresh.state) == (after.version, after.state)


async def test_a_stale_expected_version_is_refused_and_writes_nothing(
    redis_client: redis.asyncio.Redis,
) -> None:
    service = service_on(redis_client)
    game_id = await new_game(service)
    table = await service.load(game_id)
    seat = next(iter(table.game.to_act(table.state)))
    with pytest.raises(StaleVersion) as refused:
        await service.execute(game_id, seat, DrawAndPass(), expected_version=table.version - 1)
    assert refused.value.code == "stale_version"
    assert await service.store.version(game_id) == table.version


async def test_an_idempotent_retry_applies_once(redis_client: redis.asyncio.Redis) -> None:
    service = service_on(redis_client)
    game_id = await new_game(service)
    table = await service.load(game_id)
    seat = next(iter(table.game.to_act(table.state)))
    _, first = await service.execute(game_id, seat, DrawAndPass(), idempotency_key="k1")
    # The retry comes when it is no longer this seat's turn: still the first outcome.
    _, again = await service.execute(game_id, seat, DrawAndPass(), idempotency_key="k1")
    assert again.replayed and not first.replayed
    assert (again.version, again.entries) == (first.version, first.entries)
    assert await service.store.version(game_id) == first.version


async def test_concurrent_players_never_lose_a_write(redis_client: redis.asyncio.Redis) -> None:
    """Both seats, each through its own service (its own process), send as fast as they can."""
    game_id = await new_game(service_on(redis_client), seed=11)
    applied: list[int] = []

    async def player(seat: int, rng: random.Random) -> None:
        service = service_on(redis_client)
        for _ in range(400):
            table = await service.load(game_id)
            if table.over:
                return
            legal = table.game.legal(table.state, seat, service.clock())
            if not legal:
                await asyncio.sleep(0)
                continue
            try:
                _, outcome = await service.execute(game_id, seat, rng.choice(legal))
            except (ServiceError, RuleError) as refusal:
                # Someone got there first: not our turn any more, or our pick went stale (the
                # twin laid that tile, or that cell is taken). A refusal, never a 500.
                assert isinstance(refusal, RuleError), refusal.message
                continue
            applied.append(outcome.entries[0].version)

    # Two senders per seat, so a seat's sender races its twin as well as the other seat.
    await asyncio.gather(
        *[player(seat, random.Random(seat * 10 + k)) for seat in (0, 1) for k in (0, 1)]
    )
    service = service_on(redis_client)
    table, events = await service.events(game_id)
    assert [e.version for e in events] == list(range(1, table.version + 1))
    commands = [e.version for e in events if isinstance(e.event, TilePlaced)]
    passes = [e.version for e in events if isinstance(e.event, TurnPassed)]
    assert len(commands) + len(passes) == len(applied)
    assert table.game.replay(e.event for e in events) == table.state


async def test_ai_turns_are_asked_for_once_per_version(redis_client: redis.asyncio.Redis) -> None:
    recorder = Recorder()
    service = service_on(redis_client, recorder)
    game_id = await new_game(service, [SeatRequest("ai", level="easy"), SeatRequest("ai")], seed=5)
    table = await service.load(game_id)
    assert recorder.turns == [(game_id, table.version, next(iter(table.game.to_act(table.state))))]
    while not table.over:
        _, version, seat = recorder.turns[-1]
        assert version == table.version
        command = table.game.legal(table.state, seat, service.clock())[0]
        table, _ = await service.execute(game_id, seat, command)
    versions = [v for _, v, _ in recorder.turns]
    assert len(versions) == len(set(versions))


async def test_an_idempotency_key_belongs_to_its_seat(redis_client: redis.asyncio.Redis) -> None:
    service = service_on(redis_client)
    game_id = await new_game(service)
    table = await service.load(game_id)
    (first_seat,) = table.game.to_act(table.state)
    _, mine = await service.execute(game_id, first_seat, DrawAndPass(), idempotency_key="same")
    table = await service.load(game_id)
    (next_seat,) = table.game.to_act(table.state)
    assert next_seat != first_seat
    _, theirs = await service.execute(game_id, next_seat, DrawAndPass(), idempotency_key="same")
    assert not theirs.replayed and theirs.version > mine.version


async def test_loads_of_more_games_at_once_than_the_cache_holds(
    redis_client: redis.asyncio.Redis,
) -> None:
    """Loads that wait on Redis together evict each other's cached games: none may fail."""
    writer = service_on(redis_client)
    games = [await new_game(writer, seed=n) for n in range(12)]
    reader = GameService(EventStore(redis_client), Catalogue.with_extras(), None, cache_size=4)
    for game_id in games:
        await reader.load(game_id)  # cached, then pushed out by the next ones
    for _ in range(3):
        tables = await asyncio.gather(*(reader.load(g) for g in games))
        assert [t.id for t in tables] == games


async def test_commands_are_counted_by_game_and_outcome(
    redis_client: redis.asyncio.Redis,
) -> None:
    def counted(outcome: str) -> float:
        labels = {"game": "crazymino", "outcome": outcome}
        return metrics.REGISTRY.get_sample_value("boardgames_commands_total", labels) or 0.0

    def timed() -> float:
        labels = {"game": "crazymino"}
        return metrics.REGISTRY.get_sample_value("boardgames_command_seconds_count", labels) or 0

    service = service_on(redis_client)
    game_id = await new_game(service)
    table = await service.load(game_id)
    seat = next(iter(table.game.to_act(table.state)))
    applied, refused, times = counted("applied"), counted("refused"), timed()
    await service.execute(game_id, seat, table.game.legal(table.state, seat, service.clock())[0])
    with pytest.raises(RuleError):
        await service.execute(game_id, seat, DrawAndPass())  # no longer its turn
    assert (counted("applied"), counted("refused")) == (applied + 1, refused + 1)
    assert timed() == times + 2
