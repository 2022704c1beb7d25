"""A rebuild of the players' records killed (-9) after each of its writes to a title in turn
(its clear, its games, its players): the title is left partly written, and the next rebuild,
which takes the title once the dead one's hold lapses, makes every record again as it was."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import redis.asyncio
from faults.dying import killed_after

from app.people.ratings import Ratings
from app.rebuilding import ratings_of
from tests.integration.test_ratings_logs import played
from tests.processes import RedisServer

PLAYERS = ["ann", "bob", "cy"]


@pytest.fixture
async def ratings(store: RedisServer) -> AsyncIterator[Ratings]:
    client = redis.asyncio.Redis.from_url(store.url)
    found = ratings_of(client)
    yield found
    await found.service.store.close()
    await client.aclose()


async def records(ratings: Ratings, games: list[str]) -> tuple[object, ...]:
    store = ratings.store
    return (
        await store.lines("crazymino", PLAYERS),
        await store.results("crazymino", games),
        await store.board("crazymino", 10),
        await store.newest("crazymino", "games", 10),
    )


@pytest.mark.timeout(300)  # a rebuild in a new process for each write, each waiting a hold out
async def test_a_rebuild_killed_after_any_write_is_made_whole_by_the_next(
    store: RedisServer, ratings: Ratings
) -> None:
    games = [await played(ratings.service, seed) for seed in range(3)]
    for game_id in games:
        assert await ratings.record(game_id) == "rated"
    recorded = await records(ratings, games)
    kills = left_wrong = 0
    for writes in range(1, 10):
        finished = killed_after(store.url, writes, "rebuild", "crazymino")
        if finished is not None:
            assert finished.split() == [b"3"]
            break
        kills += 1
        left_wrong += await records(ratings, games) != recorded  # cleared, or games alone
        assert await ratings.rebuild() == 3  # once the dead rebuild's hold has lapsed
        assert await records(ratings, games) == recorded, f"killed after write {writes}"
    assert kills >= 3 and left_wrong >= 2, "the kills did not land between the rebuild's writes"
