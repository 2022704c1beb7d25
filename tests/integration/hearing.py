"""A hub whose hearing a test can follow: the notifications it heard, and the reads of its event
store begun and done; so that a test waits for what must come instead of sleeping."""

from __future__ import annotations

import asyncio
from typing import Any

import redis.asyncio

from app.live.hub import Hub
from app.store.events import EventStore, StoredEvent
from tests.waiting import until


class HeardHub(Hub):
    """A hub that keeps the notifications it heard: (game, version or None)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.heard: list[tuple[str, int | None]] = []

    def notify(self, game_id: str, version: int | None = None) -> None:
        self.heard.append((game_id, version))
        super().notify(game_id, version)

    async def hears(self, game_id: str, version: int) -> None:
        """Until the notification of the game's `version` has come (and been handled)."""
        await until(lambda: (game_id, version) in self.heard)


class CountedReads(EventStore):
    """An event store that counts its reads begun and done and, while `gate` is clear, holds
    them."""

    def __init__(self, client: redis.asyncio.Redis) -> None:
        super().__init__(client)
        self.reads = 0
        self.done = 0
        self.gate = asyncio.Event()
        self.gate.set()

    async def read(
        self, game_id: str, after: int = 0, count: int | None = None
    ) -> list[StoredEvent]:
        self.reads += 1
        await self.gate.wait()
        stored = await super().read(game_id, after=after, count=count)
        self.done += 1  # its caller goes on in the same step: what it passes on is passed on
        return stored

    async def more(self) -> None:
        """Until one more read than now is done."""
        begun = self.reads
        await until(lambda: self.done > begun)


async def confirmed(reader: CountedReads) -> None:
    """Until a new subscription was confirmed: the hub read its game once."""
    await until(lambda: reader.done >= 1)
