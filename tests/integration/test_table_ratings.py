"""Ratings at open tables on a real Redis, fakeredis and a Redis Cluster: each seated player's
rating at the table's game in its view, the whole lobby's in one read; a table's rating range
refuses who is out of it, the creator and the players seats are kept for included."""

from __future__ import annotations

from typing import Any

import pytest
import redis.asyncio

from app.commands.errors import ServiceError
from app.people.accounts import Player
from app.people.hosting import Hosting, OpenSeat, OpenTable, PlayerSeat
from app.people.rating_store import PlayerLine, Writes
from app.people.results import Skill, shown
from tests.integration.hosts import host_on, open_seats, players


async def rated(host: Hosting, player: Player, mu: float, sigma: float, games: int) -> int:
    """Give `player` a line at Crazymino, as `games` rated games would; their shown rating."""
    store = host.ratings.store
    token = await store.lock("crazymino")
    try:
        writes = Writes("crazymino")
        writes.player(player.key, PlayerLine(player.name, mu, sigma, games, games), None)
        await store.write(token, writes)
    finally:
        await store.unlock(token)
    return shown(Skill(mu, sigma))


async def code_of(coroutine: Any) -> tuple[str, str]:
    with pytest.raises(ServiceError) as caught:
        await coroutine
    return caught.value.code, caught.value.message


async def test_each_seated_player_shows_their_rating_and_the_lobby_reads_them_at_once(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy = await players(host, 3)
    strong = await rated(host, ann, 30.0, 4.0, 12)  # established
    fresh = await rated(host, cy, 27.0, 7.0, 3)  # provisional
    first = await host.open(ann, open_seats(2))
    await host.join(bob, first.id, None)
    second = await host.open(cy, OpenTable("crazymino", [OpenSeat(), PlayerSeat(bob.name)]))

    reads: list[int] = []
    of = host.ratings.of

    async def counted(wanted: Any) -> Any:
        reads.append(1)
        return await of(wanted)

    host.ratings.of = counted  # type: ignore[method-assign]
    lobby = {t.id: t for t in await host.lobby()}
    assert len(reads) == 1, "one read of the ratings for the whole lobby"
    seats = lobby[first.id].seats
    assert (seats[0].rating, seats[0].provisional) == (strong, False)
    assert (seats[1].rating, seats[1].provisional) == (1000, True)  # a new player
    kept = lobby[second.id].seats
    assert (kept[0].rating, kept[0].provisional) == (fresh, True)
    assert kept[1].reserved == bob.name and kept[1].rating is None  # not sitting yet
    assert (await host.view(second.id)).seats[0].rating == fresh


async def test_a_range_refuses_who_is_out_of_it_and_seats_who_is_in(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy, dee = await players(host, 4)
    high = await rated(host, cy, 35.0, 3.0, 20)
    assert high > 1200
    table = await host.open(ann, open_seats(3, rating_min=900, rating_max=1200))
    assert (table.rating_min, table.rating_max) == (900, 1200)
    assert await code_of(host.join(cy, table.id, None)) == (
        "rating_out_of_range",
        f"This table is for ratings between 900 and 1200; yours is {high} at Crazymino.",
    )
    joined = await host.join(bob, table.id, None)  # 1000, provisional: its shown number
    assert joined.seats[1].player == bob.key
    code, _ = await code_of(host.join(bob, table.id, None))
    assert code == "already_seated"  # the table's own refusal first

    # The creator sits inside their own range, or does not sit.
    assert await code_of(host.open(ann, open_seats(2, rating_min=1001))) == (
        "rating_out_of_range",
        "This table is for ratings of 1001 or more; yours is 1000 at Crazymino: "
        "widen the range, or do not sit.",
    )
    aside = await host.open(ann, open_seats(2, rating_min=1001, sit=False))
    assert all(s.player is None for s in aside.seats)
    assert (await code_of(host.join(dee, aside.id, None)))[0] == "rating_out_of_range"
    assert (await host.join(cy, aside.id, None)).seats[0].rating == high

    # A seat kept for a player out of the range is refused when the table opens.
    keeping = OpenTable("crazymino", [OpenSeat(), PlayerSeat(cy.name)], rating_max=1000, rated=True)
    assert await code_of(host.open(ann, keeping)) == (
        "rating_out_of_range",
        f"This table is for ratings of 1000 or less; {cy.name}'s is {high} at Crazymino: "
        "widen the range, or keep the seat for another player.",
    )

    # A casual table may ask for a range too.
    casual = await host.open(ann, open_seats(2, rating_max=1100, seed=3))
    assert casual.casual and casual.rating_max == 1100
    assert (await code_of(host.join(cy, casual.id, None)))[0] == "rating_out_of_range"


async def test_a_range_upside_down_is_refused(redis_client: redis.asyncio.Redis) -> None:
    host = host_on(redis_client)
    (ann,) = await players(host, 1)
    assert await code_of(host.open(ann, open_seats(2, rating_min=1200, rating_max=900))) == (
        "bad_rating_range",
        "The lowest rating asked (1200) is above the highest (900): swap them, or leave one out.",
    )
