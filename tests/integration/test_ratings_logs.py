"""The players' records made from real game logs, on a real Redis and fakeredis: recorded in
any order or rebuilt, the same numbers; a player who left the table is last; a game with a
chosen seed or a guest is casual."""

from __future__ import annotations

import random

import fakeredis
import fakeredis.aioredis
import pytest
import redis.asyncio
from redis.exceptions import LockNotOwnedError

from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.people.rating_store import RatingStore, title_key
from app.people.ratings import Ratings
from app.people.results import GameResult
from app.store.events import EventStore
from domain.seating.model import Leave
from tests.processes import database

HUMANS = [SeatRequest("human")] * 3


@pytest.fixture(params=["real", "fake"])
async def ratings(request: pytest.FixtureRequest) -> Ratings:
    """Records on a database of these tests alone (a rebuild clears a title's records)."""
    client: redis.asyncio.Redis
    if request.param == "fake":
        client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    else:
        client = redis.asyncio.Redis.from_url(database(request.getfixturevalue("redis_url"), 9))
        await client.flushdb()
    service = GameService(EventStore(client), Catalogue.with_extras())
    yield Ratings(RatingStore(client, wait_s=0.2), service)  # type: ignore[misc]
    await client.aclose()


async def played(
    service: GameService,
    seed: int,
    players: tuple[str | None, ...] = ("ann", "bob", "cy"),
    *,
    chosen_seed: bool = False,
    leaving: int | None = None,
) -> str:
    """A rated Crazymino game of three played to its end with random legal moves; the seat
    `leaving` leaves the table at its first turn (the AI plays it from then on)."""
    asked = CreateGame("crazymino", HUMANS, seed=seed if chosen_seed else None)
    table, _ = await service.create(asked, players, rated=True)
    rng = random.Random(seed)
    while not table.over:
        (seat,) = table.game.to_act(table.state)
        away = seat in table.game.away(table.state)
        if seat == leaving and not away:
            command = Leave()
        elif away:
            command = table.game.policies["easy"](table.game.view(table.state, seat), seed, 0)
        else:
            command = rng.choice(table.game.legal(table.state, seat, 0))
        table, _ = await service.execute(table.id, seat, command, by_ai=away)
    return table.id


async def test_real_logs_recorded_in_any_order_give_the_numbers_of_a_rebuild(
    ratings: Ratings,
) -> None:
    games = [await played(ratings.service, seed) for seed in range(8)]
    for game_id in random.Random(1).sample(games, len(games)):
        assert await ratings.record(game_id) == "rated"
    lines = await ratings.store.lines("crazymino", ["ann", "bob", "cy"])
    results = await ratings.store.results("crazymino", games)
    assert await ratings.rebuild(games) == len(games)
    assert await ratings.store.lines("crazymino", ["ann", "bob", "cy"]) == lines
    assert await ratings.store.results("crazymino", games) == results
    assert {line.rated for line in lines.values()} == {8}


async def test_a_player_who_left_the_table_is_last_whatever_the_score(ratings: Ratings) -> None:
    game_id = await played(ratings.service, 11, leaving=1)
    await ratings.record(game_id)
    result = await ratings.store.result("crazymino", game_id)
    assert result is not None
    assert result.seats[1].place == 3
    assert sorted(s.place for s in result.seats if s.seat != 1) in ([1, 2], [1, 1])


async def test_a_chosen_seed_or_a_guest_makes_a_game_casual(ratings: Ratings) -> None:
    seeded = await played(ratings.service, 12, chosen_seed=True)
    guest = await played(ratings.service, 13, ("ann", "bob", None))
    assert await ratings.record(seeded) == "recorded"
    assert await ratings.record(guest) == "recorded"
    ann = await ratings.store.line("crazymino", "ann")
    assert ann is not None and (ann.games, ann.rated) == (2, 0)


async def test_a_game_that_ends_during_a_rebuild_waits_for_it(ratings: Ratings) -> None:
    """The rebuild holds the title's records: the game's record says "busy" (its job leaves
    the game's due mark to the sweep) and is made when asked again after."""
    game_id = await played(ratings.service, 14)
    held = await ratings.store.lock("crazymino", hold_ms=10_000)
    assert await ratings.record(game_id) == "busy"
    assert await ratings.store.result("crazymino", game_id) is None
    await ratings.store.unlock(held)
    assert await ratings.record(game_id) == "rated"


async def test_a_game_recorded_while_a_rebuild_reads_the_logs_is_not_lost(
    ratings: Ratings,
) -> None:
    """The rebuild holds every title from before it lists the games: a record asked for
    meanwhile answers "busy" (the sweep asks again) rather than being written, then wiped."""
    earlier = [await played(ratings.service, seed) for seed in (15, 16)]
    late = await played(ratings.service, 17)
    answers: list[str] = []

    async def reading(ids: list[str]) -> list[GameResult]:
        answers.append(await ratings.record(late))  # a worker records the game meanwhile
        return await ratings.results_of(ids)

    await ratings.rebuild(earlier, helpers=[reading])
    assert answers == ["busy"]
    assert await ratings.store.result("crazymino", late) is None
    assert await ratings.record(late) == "rated"
    ann = await ratings.store.line("crazymino", "ann")
    assert ann is not None and ann.rated == 3


async def test_a_rebuild_whose_hold_lapsed_wipes_nothing_recorded_since(ratings: Ratings) -> None:
    """A rebuild that read the logs for longer than its hold: a worker recorded a game in the
    meanwhile; the rebuild is refused before it clears anything, and every record stays."""
    earlier = [await played(ratings.service, seed) for seed in (18, 19)]
    for game_id in earlier:
        assert await ratings.record(game_id) == "rated"
    late = await played(ratings.service, 20)

    async def reading(ids: list[str]) -> list[GameResult]:
        await ratings.store.redis.delete(title_key("crazymino", "lock"))  # the hold lapsed
        assert await ratings.record(late) == "rated"  # a worker records a game meanwhile
        return await ratings.results_of(earlier)

    with pytest.raises(LockNotOwnedError):
        await ratings.rebuild([], helpers=[reading])
    assert await ratings.store.result("crazymino", late) is not None
    ann = await ratings.store.line("crazymino", "ann")
    assert ann is not None and ann.rated == 3
