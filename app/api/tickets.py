"""Stream tickets: how a browser's EventSource, which cannot send an Authorization header,
opens a seat's stream without the seat's token in a URL.

A seat asks for a ticket with its bearer token (`POST /api/games/{id}/tickets`); the ticket is
good for one stream of that game, once, within a minute. It is kept in Redis beside the game
(`game:{ID}:ticket:{T}`, the seat as value) and taken with GETDEL, so every API process honours
it once. A ticket asked for with a session or a personal token keeps that identity's keys
(`app.store.ends`) after the seat: it is refused once the identity has ended, and what it opens
holds the identity (and ends with it); a seat token's ticket holds none.
"""

from __future__ import annotations

import secrets
from typing import NamedTuple

from redis.asyncio import Redis

from app.store.ends import lasting

TICKET_SECONDS = 60


class Ticketed(NamedTuple):
    """What a ticket opens: the seat, the identity it was issued to (its keys), and the key of
    that identity if it has ended since (then it opens nothing)."""

    seat: int
    identity: tuple[str, ...]
    ended: str | None


class Tickets:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def issue(self, game_id: str, seat: int, identity: tuple[str, ...] = ()) -> str:
        ticket = secrets.token_urlsafe(24)
        value = " ".join([str(seat), *identity])
        await self._redis.set(f"game:{{{game_id}}}:ticket:{ticket}", value, ex=TICKET_SECONDS)
        return ticket

    async def redeem(self, game_id: str, ticket: str) -> Ticketed | None:
        """What a ticket opens, once; None for a ticket that is used, old or false."""
        if not 0 < len(ticket) <= 64 or not all(c.isalnum() or c in "-_" for c in ticket):
            return None
        found = await self._redis.getdel(f"game:{{{game_id}}}:ticket:{ticket}")
        if found is None:
            return None
        seat, *keys = found.decode().split()
        identity = tuple(keys)
        there = await lasting(self._redis, identity) if identity else set()
        ended = next((key for key in identity if key not in there), None)
        return Ticketed(int(seat), identity, ended)
