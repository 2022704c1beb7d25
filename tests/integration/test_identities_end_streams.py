"""A hub's streams and sockets end with the identity they act with: at the news of its end, at
the recheck of every `recheck_seconds`, and at the recheck asked for when its listener listens
again; a seat token's stream holds no identity; a ticket issued to an identity opens nothing
once it has ended."""

from __future__ import annotations

import asyncio
import secrets

import pytest
import redis.asyncio

from app.api.tickets import Tickets
from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.live.hub import Hub, Subscription
from app.store.ends import announce
from app.store.events import EventStore


@pytest.fixture
def ann() -> tuple[str, str]:
    """The keys of a session's identity no other test has (the real Redis is shared)."""
    return "session:" + secrets.token_hex(32), "player:{" + secrets.token_hex(6) + "}"


async def setup(
    client: redis.asyncio.Redis, ann: tuple[str, str], recheck_seconds: float = 3600
) -> tuple[Hub, GameService, str]:
    session, player = ann
    service = GameService(EventStore(client), Catalogue.with_extras())
    hub = Hub(service, EventStore(client), recheck_seconds=recheck_seconds)
    await hub.start()
    seats = [SeatRequest("human"), SeatRequest("human")]
    table, _ = await service.create(CreateGame("crazymino", seats, seed=4))
    await client.set(session, b"ann")
    await client.hset(player, "name", "ann")  # type: ignore[misc]
    return hub, service, table.id


async def ended(subscription: Subscription) -> str | None:
    """What its queue says last: None once it has ended (waits: it must come)."""
    async with asyncio.timeout(10):
        while await subscription.queue.get() is not None:
            pass
    return subscription.ended


async def test_a_recheck_ends_only_the_streams_whose_identity_is_gone(
    redis_client: redis.asyncio.Redis, ann: tuple[str, str]
) -> None:
    session, player = ann
    hub, service, game_id = await setup(redis_client, ann)
    try:
        table = await service.load(game_id)
        held = hub.subscribe(table, identity=(session, player))
        seat_token = hub.subscribe(table)  # a seat token: no identity
        await hub.identities.recheck()
        assert held.ended is None and held.queue.empty()
        await redis_client.delete(session)  # closed, and the news of it lost
        await hub.identities.recheck()
        assert await ended(held) == session
        assert seat_token.ended is None and seat_token.queue.empty()
        assert hub.identities.held == 0
        hub.unsubscribe(held)
        hub.unsubscribe(seat_token)
    finally:
        await hub.close()


async def test_the_recheck_runs_every_recheck_seconds(
    redis_client: redis.asyncio.Redis, ann: tuple[str, str]
) -> None:
    session, player = ann
    hub, service, game_id = await setup(redis_client, ann, recheck_seconds=0.05)
    try:
        held = hub.subscribe(await service.load(game_id), identity=(session, player))
        await redis_client.delete(session)
        assert await ended(held) == session
    finally:
        await hub.close()


async def test_listening_again_asks_for_a_recheck_at_once(
    redis_client: redis.asyncio.Redis, ann: tuple[str, str]
) -> None:
    session, player = ann
    hub, service, game_id = await setup(redis_client, ann)
    try:
        held = hub.subscribe(await service.load(game_id), identity=(session, player))
        await redis_client.delete(player)  # an account deleted while the listener was away
        hub.identities.ended(None)  # what the listener says when it subscribes again
        assert await ended(held) == player
    finally:
        await hub.close()


async def test_the_news_of_an_end_from_another_process_ends_the_stream(
    redis_client: redis.asyncio.Redis, ann: tuple[str, str]
) -> None:
    session, player = ann
    hub, service, game_id = await setup(redis_client, ann)
    try:
        held = hub.subscribe(await service.load(game_id), identity=(session, player))
        other = hub.subscribe(await service.load(game_id), identity=("ptoken:" + "cd" * 32,))
        async with asyncio.timeout(10):  # the listener's subscription to the ends channel
            while not held.ended:
                await announce(redis_client, [session])
                await asyncio.sleep(0.05)
        assert await ended(held) == session
        assert other.ended is None
    finally:
        await hub.close()


async def test_a_ticket_of_an_ended_identity_opens_nothing(
    redis_client: redis.asyncio.Redis, ann: tuple[str, str]
) -> None:
    session, player = ann
    tickets = Tickets(redis_client)
    await redis_client.set(session, b"ann")
    kept = await tickets.redeem("g1", await tickets.issue("g1", 0, (session, player)))
    assert kept is not None and kept.seat == 0 and kept.identity == (session, player)
    assert kept.ended == player  # (no account here)
    await redis_client.hset(player, "name", "ann")  # type: ignore[misc]
    late = await tickets.issue("g1", 1, (session, player))
    assert (await tickets.redeem("g1", await tickets.issue("g1", 1, (session, player)))) == (
        1,
        (session, player),
        None,
    )
    await redis_client.delete(session)
    assert await tickets.redeem("g1", late) == (1, (session, player), session)
    seat_token = await tickets.redeem("g1", await tickets.issue("g1", 1))
    assert seat_token == (1, (), None)
