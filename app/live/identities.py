"""The identities this process's streams and sockets act with, and their end.

A stream or a seat's socket opened with a session, a personal token or a ticket issued to one
holds that identity (its keys: `app.store.ends`); a seat token is no identity and holds none.
When an identity ends, in any process, its key comes on the ends channel and every
subscription holding it ends there and then (`Subscription.end`: a socket says why). Every
`recheck_seconds` (and whenever the listener subscribes to that channel again) the keys held
are asked of Redis in one round trip, so that an end missed while the listener was away still
ends them. Nothing of this runs per command or per event.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Protocol

from redis.asyncio import Redis
from redis.exceptions import RedisError

from app.store.ends import lasting

log = logging.getLogger(__name__)


class Holder(Protocol):
    """A subscription as this module sees it."""

    identity: tuple[str, ...]

    def end(self, key: str) -> None:
        """End it: the identity of `key` ended."""


class Identities:
    def __init__(self, redis: Redis, recheck_seconds: float) -> None:
        self._redis = redis
        self.recheck_seconds = recheck_seconds
        self._held: dict[str, set[Holder]] = {}
        self._asked = asyncio.Event()  # a recheck is asked for before its time

    def hold(self, holder: Holder) -> None:
        for key in holder.identity:
            self._held.setdefault(key, set()).add(holder)

    def release(self, holder: Holder) -> None:
        for key in holder.identity:
            holders = self._held.get(key)
            if holders is not None:
                holders.discard(holder)
                if not holders:
                    del self._held[key]

    @property
    def held(self) -> int:
        """Identities held open here."""
        return len(self._held)

    def ended(self, keys: list[str] | None) -> None:
        """These identities ended: end what holds them. None: the ends channel was subscribed
        to again, and what was said meanwhile is unknown: recheck them all now."""
        if keys is None:
            self._asked.set()
            return
        for key in keys:
            for holder in self._held.pop(key, ()):
                self.release(holder)
                holder.end(key)

    async def recheck(self) -> None:
        """Ask Redis which identities held here still last; end the rest."""
        held = list(self._held)
        if held:
            there = await lasting(self._redis, held)
            self.ended([key for key in held if key not in there])

    async def run(self) -> None:
        """Recheck every `recheck_seconds`, or sooner when asked."""
        while True:
            try:
                async with asyncio.timeout(self.recheck_seconds):
                    await self._asked.wait()
            except TimeoutError:
                pass
            self._asked.clear()
            try:
                await self.recheck()
            except (ConnectionError, OSError, RedisError) as error:
                log.warning("the identities of open streams were not rechecked (%s)", error)
