"""Open tables on a real Redis, fakeredis and a Redis Cluster: taking a seat, leaving it,
declining it, starting the game, closing by time; and players racing for the last seat."""

from __future__ import annotations

import asyncio

import pytest
import redis.asyncio

from app.commands.errors import ServiceError
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame
from app.people import forming
from app.people.forming import Stored
from app.people.hosting import AiSeat, Hosting, OpenSeat, OpenTable, PlayerSeat
from app.people.tables import LOBBY_KEY
from domain.errors import RuleError
from tests.integration.hosts import Clock, host_on, open_seats, players


async def test_a_table_forms_and_its_game_binds_each_seat_to_who_sat_there(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob = await players(host, 2)
    opened = await host.open(ann, OpenTable("crazymino", [OpenSeat(), AiSeat("easy"), OpenSeat()]))
    assert opened.status == "forming" and opened.creator == ann.name
    assert [(s.type, s.player) for s in opened.seats] == [
        ("player", ann.key),
        ("ai", None),
        ("open", None),
    ]
    assert opened.casual and not opened.rated and opened.seed is None
    assert opened.id in {t.id for t in await host.lobby()}

    joined = await host.join(bob, opened.id, None)
    assert joined.seats[2].player == bob.key and joined.seats[2].name == bob.name
    started = await host.start(ann, opened.id)
    assert started.status == "started" and started.game_id == opened.id
    assert opened.id not in {t.id for t in await host.lobby()}

    game = await host.service.load(started.game_id)
    assert [(s.type, s.player, s.token_hash) for s in game.seats] == [
        ("human", ann.key, None),
        ("ai", None, None),
        ("human", bob.key, None),
    ]
    assert game.seats[1].level == "easy"
    assert await host.tables.games_of(bob.key) == [started.game_id]
    again = await host.start(ann, opened.id)  # a start sent twice changes nothing
    assert again.game_id == started.game_id


async def test_each_way_a_seat_is_refused(redis_client: redis.asyncio.Redis) -> None:
    host = host_on(redis_client)
    ann, bob, cy, dee = await players(host, 4)
    seats = [OpenSeat(), PlayerSeat(cy.name), OpenSeat()]
    table = await host.open(ann, OpenTable("crazymino", seats))

    async def refused(coroutine: object) -> str:
        with pytest.raises(ServiceError) as caught:
            await coroutine  # type: ignore[misc]
        return caught.value.code

    assert await refused(host.start(ann, table.id)) == "too_few_players"
    assert await refused(host.join(ann, table.id, None)) == "already_seated"
    assert await refused(host.join(bob, table.id, 0)) == "seat_taken"
    assert await refused(host.join(bob, table.id, 1)) == "seat_reserved"
    assert await refused(host.join(bob, table.id, 7)) == "no_such_seat"
    assert await refused(host.leave(bob, table.id)) == "not_at_table"
    assert await refused(host.decline(bob, table.id)) == "not_reserved"
    assert (await host.join(bob, table.id, None)).seats[2].player == bob.key
    assert await refused(host.join(dee, table.id, None)) == "table_full"
    assert await refused(host.start(bob, table.id)) == "not_creator"
    assert await refused(host.join(bob, "nosuchtable", None)) == "unknown_table"
    assert await refused(host.view("nosuchtable")) == "unknown_table"

    taken = await host.join(cy, table.id, None)  # the seat kept for Cy: accepting it
    assert taken.seats[1].player == cy.key and taken.seats[1].reserved == cy.name


async def test_a_player_leaves_and_the_creator_leaving_closes_the_table(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy = await players(host, 3)
    table = await host.open(ann, open_seats(3))
    await host.join(bob, table.id, None)
    assert [t.id for t in (await host_tables(host, bob.key))] == [table.id]
    left = await host.leave(bob, table.id)
    assert left.seats[1].type == "open" and left.status == "forming"
    assert await host_tables(host, bob.key) == []
    await host.join(cy, table.id, 1)
    closed = await host.leave(ann, table.id)
    assert closed.status == "closed"
    assert table.id not in {t.id for t in await host.lobby()}
    assert await host_tables(host, cy.key) == []
    with pytest.raises(ServiceError) as caught:
        await host.join(bob, table.id, None)
    assert caught.value.code == "table_closed"


async def test_a_declined_seat_is_left_out_and_the_table_starts_when_the_rest_accepted(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy = await players(host, 3)
    seats = [OpenSeat(), PlayerSeat(bob.name), PlayerSeat(cy.name)]
    table = await host.open(ann, OpenTable("crazymino", seats, start_when_full=True))
    assert {t.id for t in await host_tables(host, cy.key)} == {table.id}
    assert (await host.join(bob, table.id, None)).status == "forming"
    declined = await host.decline(cy, table.id)
    assert declined.status == "started" and declined.game_id is not None
    assert declined.seats[2].declined and declined.seats[2].player is None
    game = await host.service.load(declined.game_id)
    assert [s.player for s in game.seats] == [ann.key, bob.key]
    assert await host_tables(host, cy.key) == []


async def test_a_table_nobody_starts_closes_after_its_time(
    redis_client: redis.asyncio.Redis,
) -> None:
    clock = Clock()
    host = host_on(redis_client, clock)
    ann, bob = await players(host, 2)
    table = await host.open(ann, open_seats(2))
    assert table.closes_at == clock.now + 30 * 60_000
    clock.now = table.closes_at
    assert (await host.view(table.id)).status == "closed"
    assert table.id not in {t.id for t in await host.lobby()}
    assert await redis_client.zscore(LOBBY_KEY, table.id) is None
    with pytest.raises(ServiceError) as caught:
        await host.join(bob, table.id, None)
    assert caught.value.code == "table_closed"
    ttl = await redis_client.pttl(f"table:{{{table.id}}}:seats")
    assert 0 < ttl <= 30 * 60_000 + 86_400_000  # then it is gone: 404 `unknown_table`


@pytest.mark.parametrize("seat", [None, 1])
async def test_of_twenty_players_racing_for_the_last_seat_exactly_one_sits(
    redis_client: redis.asyncio.Redis, seat: int | None
) -> None:
    host = host_on(redis_client)
    ann, *racers = await players(host, 21)
    table = await host.open(ann, open_seats(2))
    outcomes = await asyncio.gather(
        *(host.join(racer, table.id, seat) for racer in racers), return_exceptions=True
    )
    won = [r for r in outcomes if not isinstance(r, BaseException)]
    lost = [r for r in outcomes if isinstance(r, BaseException)]
    assert len(won) == 1 and len(lost) == 19
    expected = "table_full" if seat is None else "seat_taken"
    assert {getattr(r, "code", repr(r)) for r in lost} == {expected}
    shown = await host.view(table.id)
    winner = shown.seats[1].player
    assert winner in {r.key for r in racers}
    for racer in racers:  # the losers' indexes say nothing of the table
        assert [t.id for t in await host_tables(host, racer.key)] == (
            [table.id] if racer.key == winner else []
        )


async def test_a_move_decided_on_a_table_written_meanwhile_is_not_written(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    ann, bob, cy = await players(host, 3)
    table = await host.open(ann, open_seats(2))
    read = await host.tables.read(table.id)
    assert read is not None
    bob_sits, _ = forming.join(read, bob.key, bob.name, None, host.tables.clock())
    await host.join(cy, table.id, None)  # Cy takes the last seat meanwhile
    assert not await host.tables._written(read, bob_sits)
    now = await host.tables.read(table.id)
    assert now is not None and now.sitter(1) == (cy.key, cy.name)
    assert now.version == read.version + 1


async def host_tables(host: Hosting, key: str) -> list[Stored]:
    return await host.tables.of_player(key)


async def test_a_table_and_a_game_refuse_a_bad_setup_with_the_same_code_and_sentence(
    redis_client: redis.asyncio.Redis,
) -> None:
    host = host_on(redis_client)
    (ann,) = await players(host, 1)
    bad = [
        ([OpenSeat()], {}),  # one seat
        ([OpenSeat()] * 5, {}),  # five
        ([OpenSeat(), AiSeat("godlike")], {}),
        ([OpenSeat(), OpenSeat()], {"turn_seconds": -4}),
        ([OpenSeat(), OpenSeat()], {"no_such_option": 1}),
    ]
    for seats, options in bad:
        asked = [
            SeatRequest("ai", level=s.level) if isinstance(s, AiSeat) else SeatRequest("human")
            for s in seats
        ]
        with pytest.raises((ServiceError, RuleError)) as by_game:
            await host.service.create(CreateGame("crazymino", asked, options))
        with pytest.raises((ServiceError, RuleError)) as by_table:
            await host.open(ann, OpenTable("crazymino", list(seats), options, sit=False))
        assert (by_table.value.code, str(by_table.value)) == (
            by_game.value.code,
            str(by_game.value),
        )
