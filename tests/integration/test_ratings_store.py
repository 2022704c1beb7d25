"""The players' records on a real Redis, fakeredis and a Redis Cluster: recorded live in any
order, by writers racing, or rebuilt from nothing, a title's ratings are the same numbers."""

from __future__ import annotations

import asyncio
import random
import secrets

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
from app.people.results import PROVISIONAL_GAMES, GameResult, SeatResult, shown
from app.rebuilding import ratings_of
from app.store.events import EventStore
from app.store.lifecycle import Lifecycle

PLAYERS = [f"p{n}" for n in range(12)]


def ratings_on(client: redis.asyncio.Redis) -> Ratings:
    """Records whose writers wait for each other as long as it takes: a test that starts many
    writers at once must not see one give up ("busy") on a slow machine."""
    store = RatingStore(client, wait_s=120)
    return Ratings(store, GameService(EventStore(client), Catalogue.with_extras()))


def random_games(title: str, count: int, seed: int) -> list[GameResult]:
    """`count` finished games of `title` between the players, 2 to 6 seats, ties and casual
    games among them, several ending at the same millisecond."""
    chance = random.Random(seed)
    games = []
    for number in range(count):
        sitting = chance.sample(PLAYERS, chance.randint(2, 6))
        scores = [chance.randint(0, 5) * 10 for _ in sitting]
        seats = [
            SeatResult(n, p.upper(), s, 1 + sum(o > s for o in scores), p)
            for n, (p, s) in enumerate(zip(sitting, scores, strict=True))
        ]
        rated = chance.random() < 0.9
        games.append(GameResult(f"g{number:05d}", title, 1_000 + number // 3, rated, seats))
    return games


def arrival(games: list[GameResult], seed: int) -> list[GameResult]:
    """The games in the order a service might record them: mostly by their end, one in ten
    late by up to 30 games (its worker died; the sweep found it again)."""
    chance = random.Random(seed)
    keyed = [
        (n + (chance.randint(1, 30) if chance.random() < 0.1 else 0), n) for n in range(len(games))
    ]
    return [games[n] for _, n in sorted(keyed)]


async def everything(client: redis.asyncio.Redis, title: str) -> dict[str, object]:
    """Every record of the title, as stored."""
    store = RatingStore(client)
    keys = sorted(k.decode() for k in await client.smembers(title_key(title, "keys")))
    found: dict[str, object] = {}
    for key in keys:
        kind = (await client.type(key)).decode()
        if kind == "string":
            found[key] = await client.get(key)
        elif kind == "hash":
            found[key] = await client.hgetall(key)  # type: ignore[misc]
        elif kind == "zset":
            found[key] = await client.zrange(key, 0, -1, withscores=True)
    found["board"] = await store.board(title, 100)
    return found


@pytest.mark.timeout(300)  # a thousand games, each under the title's lock, on three backends
async def test_a_thousand_games_recorded_in_any_order_give_the_numbers_of_a_rebuild(
    redis_client: redis.asyncio.Redis,
) -> None:
    title = f"t{secrets.token_hex(4)}"
    games = random_games(title, 1_000, seed=7)
    ratings = ratings_on(redis_client)
    for game in arrival(games, seed=8):
        assert await ratings.record_result(game) in ("rated", "recorded")
    live = await everything(redis_client, title)
    await ratings.rebuild_from(games, titles=[title])
    assert await everything(redis_client, title) == live
    # Every player played enough to be established: the leaderboard holds them all, by rating.
    board = await ratings.store.board(title, 100)
    assert sorted(p for p, _ in board) == sorted(PLAYERS)
    lines = await ratings.store.lines(title, PLAYERS)
    assert all(line.rated >= PROVISIONAL_GAMES for line in lines.values())
    assert [v for _, v in board] == sorted((v for _, v in board), reverse=True)
    assert all(v == shown(lines[p].skill) for p, v in board)


async def test_a_game_recorded_twice_changes_nothing(redis_client: redis.asyncio.Redis) -> None:
    title = f"t{secrets.token_hex(4)}"
    games = random_games(title, 20, seed=3)
    ratings = ratings_on(redis_client)
    for game in games:
        await ratings.record_result(game)
    before = await everything(redis_client, title)
    assert {await ratings.record_result(g) for g in games} == {"recorded already"}
    assert await everything(redis_client, title) == before


async def test_two_writers_racing_on_the_same_finished_games_record_each_once(
    redis_client: redis.asyncio.Redis,
) -> None:
    title = f"t{secrets.token_hex(4)}"
    games = random_games(title, 60, seed=5)
    one, two = ratings_on(redis_client), ratings_on(redis_client)
    answers = await asyncio.gather(*(w.record_result(g) for g in games for w in (one, two)))
    assert answers.count("recorded already") == len(games)
    raced = await everything(redis_client, title)
    await one.rebuild_from(games, titles=[title])
    assert await everything(redis_client, title) == raced


async def test_a_writer_whose_lock_lapsed_clears_nothing(
    redis_client: redis.asyncio.Redis,
) -> None:
    """A rebuild that held the title past its hold: another writer has recorded games since,
    and the rebuild's clear (one script per step, each checking its token) is refused."""
    title = f"t{secrets.token_hex(4)}"
    games = random_games(title, 20, seed=9)
    ratings = ratings_on(redis_client)
    for game in games[:10]:
        await ratings.record_result(game)
    held = await ratings.store.lock(title)
    await redis_client.delete(title_key(title, "lock"))  # its hold lapsed
    for game in games[10:]:  # another writer meanwhile
        assert await ratings.record_result(game) in ("rated", "recorded")
    before = await everything(redis_client, title)
    with pytest.raises(LockNotOwnedError):
        await ratings.store.clear(title, held)
    assert await everything(redis_client, title) == before
    assert len(await ratings.store.newest(title, "games", 100)) == 20


async def test_a_casual_game_counts_in_the_statistics_and_moves_no_rating(
    redis_client: redis.asyncio.Redis,
) -> None:
    title = f"t{secrets.token_hex(4)}"
    seats = [SeatResult(0, "Ann", 80, 1, "ann"), SeatResult(1, "Bob", 60, 2, "bob")]
    ratings = ratings_on(redis_client)
    await ratings.record_result(GameResult("casual", title, 5, False, seats))
    ann = await ratings.store.line(title, "ann")
    assert ann is not None
    assert (ann.games, ann.wins, ann.rated, ann.best, ann.total) == (1, 1, 0, 80, 80)
    assert shown(ann.skill) == 1000
    assert (await ratings.store.result(title, "casual")) == GameResult(
        "casual", title, 5, False, seats
    )


async def test_the_command_line_rebuilds_from_archived_games_too() -> None:
    """The retention job archives finished games a day after their end: `python -m app ratings
    rebuild` (`ratings_of`) reads them from their archive, as the service does."""
    client = fakeredis.aioredis.FakeRedis(server=fakeredis.FakeServer())
    lifecycle = Lifecycle(client)
    service = GameService(EventStore(client), Catalogue.with_extras(), lifecycle=lifecycle)
    try:
        people = [SeatRequest("human", "Ann"), SeatRequest("human", "Bob")]
        table, _ = await service.create(CreateGame("crazymino", people), ["ann", "bob"], rated=True)
        chance = random.Random(4)
        while not table.over:
            (seat,) = table.game.to_act(table.state)
            command = chance.choice(table.game.legal(table.state, seat, 0))
            table, _ = await service.execute(table.id, seat, command)
        assert await lifecycle.archive(table.id, table.version, await service.store.read(table.id))
        ratings = ratings_of(client)
        assert await ratings.rebuild() == 1
        line = await ratings.store.line("crazymino", "ann")
        assert line is not None and (line.games, line.rated) == (1, 1)
    finally:
        await client.aclose()
