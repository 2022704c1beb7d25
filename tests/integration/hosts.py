"""Open tables on a Redis of the tests: a host (`app.people.hosting`) with a clock the test
moves, players signed up with a cheap hash, and a table of open seats."""

from __future__ import annotations

import secrets
from typing import Any

import argon2
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.people.accounts import Accounts, Player
from app.people.hosting import Hosting, OpenSeat, OpenTable
from app.people.rating_store import RatingStore
from app.people.table_ratings import TableRatings
from app.people.tables import Tables
from app.store.events import EventStore

T0 = 1_800_000_000_000


class Clock:
    """The tables' time, moved by the test (ms)."""

    def __init__(self) -> None:
        self.now = T0

    def __call__(self) -> int:
        return self.now


def host_on(client: redis.asyncio.Redis, clock: Clock | None = None) -> Hosting:
    service = GameService(EventStore(client), Catalogue.with_extras())
    cheap = argon2.PasswordHasher(time_cost=1, memory_cost=8, parallelism=1)
    accounts, ratings = Accounts(client, cheap), TableRatings(RatingStore(client))
    return Hosting(Tables(client, clock or Clock()), service, accounts, 30, ratings)


async def players(host: Hosting, count: int) -> list[Player]:
    """`count` new players, with names no other test uses."""
    tag = secrets.token_hex(3)
    return [await host.accounts.sign_up(f"p{n}-{tag}", "a good password") for n in range(count)]


def open_seats(count: int, **more: Any) -> OpenTable:
    return OpenTable("crazymino", [OpenSeat() for _ in range(count)], **more)
