"""Stream tickets: how a browser's EventSource, which cannot send an Authorization header,
opens a seat's stream without the seat's token in a URL.

A seat asks for a ticket with its bearer token (`POST /api/games/{id}/tickets`); the ticket is
good for one stream of that game, once, within a minute. It is kept in Redis beside the game
(`game:{ID}:ticket:{T}`, the seat as value) and taken with GETDEL, so every API process honours
it once.
"""

from __future__ import annotations

import secrets

from redis.asyncio import Redis

TICKET_SECONDS = 60


class Tickets:
    def __init__(self, redis: Redis) -> None:
        self._redis = redis

    async def issue(self, game_id: str, seat: int) -> str:
        ticket = secrets.token_urlsafe(24)
        await self._redis.set(f"game:{{{game_id}}}:ticket:{ticket}", seat, ex=TICKET_SECONDS)
        return ticket

    async def redeem(self, game_id: str, ticket: str) -> int | None:
        """The seat a ticket was issued to, once; None for a ticket that is used, old or false."""
        if not 0 < len(ticket) <= 64 or not all(c.isalnum() or c in "-_" for c in ticket):
            return None
        seat = await self._redis.getdel(f"game:{{{game_id}}}:ticket:{ticket}")
        return None if seat is None else int(seat)
