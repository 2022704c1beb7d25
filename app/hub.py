"""Live fan-out for server-sent events: one Redis reader per game per process.

Each game with subscribers in this process has one reader task, blocked on the game's stream;
it decodes each new event once and puts it on every subscriber's bounded queue. A subscriber
that falls too far behind is dropped (its client reconnects with Last-Event-ID and loses
nothing); the reader stops when its last subscriber leaves.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import NamedTuple

from redis.exceptions import RedisError

from app.service import Entry, GameService, Table
from app.store import EventStore

log = logging.getLogger(__name__)


class Delivery(NamedTuple):
    entry: Entry
    over: bool  # the game is over once this event is in: show it unredacted


class Subscription:
    """One client's place in a game's fan-out."""

    def __init__(self, game_id: str, size: int) -> None:
        self.game_id = game_id
        self.queue: asyncio.Queue[Delivery | None] = asyncio.Queue(maxsize=size)
        self.dropped = False

    def offer(self, delivery: Delivery | None) -> bool:
        try:
            self.queue.put_nowait(delivery)
        except asyncio.QueueFull:
            self.dropped = True
            return False
        return True


class _Channel:
    def __init__(self, table: Table) -> None:
        self.table = table
        self.subscribers: set[Subscription] = set()
        self.reader: asyncio.Task[None] | None = None


class Hub:
    """Subscriptions to games' events, fed by one blocking reader per game."""

    def __init__(
        self,
        service: GameService,
        waiter: EventStore,
        *,
        block_ms: int = 5_000,
        queue_size: int = 512,
    ) -> None:
        self._service = service
        self._waiter = waiter  # a store on its own connection pool: blocking reads hold one each
        self._block_ms = block_ms
        self._queue_size = queue_size
        self._channels: dict[str, _Channel] = {}

    def subscribe(self, table: Table) -> Subscription:
        channel = self._channels.get(table.id)
        if channel is None:
            channel = self._channels[table.id] = _Channel(table)
            channel.reader = asyncio.create_task(self._read(channel), name=f"sse:{table.id}")
        subscription = Subscription(table.id, self._queue_size)
        channel.subscribers.add(subscription)
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        channel = self._channels.get(subscription.game_id)
        if channel is None:
            return
        channel.subscribers.discard(subscription)
        if not channel.subscribers:
            del self._channels[subscription.game_id]
            if channel.reader is not None:
                channel.reader.cancel()

    @property
    def subscribers(self) -> int:
        return sum(len(c.subscribers) for c in self._channels.values())

    def end_streams(self) -> None:
        """Ask every stream of this process to end (a process shutting down): each ends
        cleanly and its client reconnects, elsewhere or later, with the last id it has."""
        for channel in self._channels.values():
            for subscription in channel.subscribers:
                subscription.offer(None)

    async def close(self) -> None:
        readers = [c.reader for c in self._channels.values() if c.reader is not None]
        for channel in self._channels.values():
            for subscription in channel.subscribers:
                subscription.offer(None)
        self._channels.clear()
        for reader in readers:
            reader.cancel()
        for reader in readers:
            with contextlib.suppress(asyncio.CancelledError):
                await reader

    async def _read(self, channel: _Channel) -> None:
        try:
            while channel.subscribers:
                await self._pass_on(channel)
        except Exception:
            # Whatever broke, the subscribers must not wait forever: end their streams (their
            # clients reconnect with Last-Event-ID and lose nothing).
            log.exception("the reader of game %s stopped", channel.table.id)
            for subscription in channel.subscribers:
                subscription.offer(None)
            channel.subscribers.clear()
        finally:
            if self._channels.get(channel.table.id) is channel and not channel.subscribers:
                del self._channels[channel.table.id]

    async def _pass_on(self, channel: _Channel) -> None:
        table = channel.table
        try:
            stored = await self._waiter.wait(table.id, table.version, self._block_ms)
        except (ConnectionError, OSError, RedisError):
            log.exception("reading game %s for its subscribers", table.id)
            await asyncio.sleep(1)
            return
        if not stored:
            return
        deliveries = []
        state = table.state
        for entry in self._service.entries(table, stored):
            state = table.game.evolve(state, entry.event)
            deliveries.append(Delivery(entry, bool(table.game.is_over(state))))
        channel.table = table._replace(state=state, version=stored[-1].version, at=stored[-1].at)
        for subscription in list(channel.subscribers):
            if not all(subscription.offer(d) for d in deliveries):
                channel.subscribers.discard(subscription)  # it drains its queue, then ends
