"""Live fan-out for server-sent events: a notification per append, then one read per process.

Every append (and every creation) publishes the game's new version on the game's shard
channel ``game:{ID}:news`` (SPUBLISH, from the append script: on a Redis Cluster the channel
lives on the game's own slot). A process listens with one connection per Redis server (per
cluster node), subscribed to the channels of the games it has subscribers for; a notification
makes it read the game's new events once (XRANGE, no blocking), decode them once and put them
on every subscriber's bounded queue. So a process holds a few connections however many games
it serves, and a game costs Redis nothing while nobody plays it. The appends this process makes
itself are passed on at once, without a read, when they follow what the game's subscribers
have (the service calls the hub back); their notifications, carrying a version passed on
already, are then not read again.

A channel is read once its subscription is confirmed (nothing between the caller's load and
the subscription is missed), after every reconnection of its listener, and every
`resync_ms` in any case. A subscriber that falls too far behind is dropped (its client
reconnects with Last-Event-ID and loses nothing). Past `max_subscribers` a new subscription
is refused (`StreamsFull`: 503 with Retry-After).

A table's chat comes the same way: a message's news on the same channel says ``c<n>``
(`app.store.chat`), and the hub reads the chat after the last message it passed on (one read,
whatever the subscribers), then gives each subscriber the messages (`Said`) in the same queue
as the events, in order; this process's own messages are passed on at once, without a read.
The chat is read too when a subscription is confirmed, after a reconnection and at the resync.
A subscriber tells where its chat stands when it subscribes (`subscribe(table, said=...)`) and
learns where the channel's stood (`Subscription.heard`), so that it reads what it lacks itself.

A deleted game's news says `GONE`: its streams end (`Subscription.gone`: a seat's socket says
why) and the service forgets it. A hub that missed that news (its listener was away) finds the
stream gone at its next read of the game after a reconnection or at the periodic resync, which
read the last event passed on as well (`EventStore.since`).

A subscription opened with an identity (a session, a personal token: `subscribe(...,
identity=...)`) ends when that identity ends, in whatever process it was ended
(`app.live.identities`: the ends channel, and a recheck every `recheck_seconds`).
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable, Sequence
from typing import Any, NamedTuple

from redis.asyncio import Redis, RedisCluster
from redis.exceptions import RedisError

from app.commands.errors import StreamsFull
from app.commands.service import GameService
from app.commands.table import Entry, Table
from app.live import news
from app.live.identities import Identities
from app.live.news import Listener
from app.store.chat import ChatLog, ChatMessage
from app.store.ends import ENDS_CHANNEL
from app.store.events import GONE, EventStore, GameNotFound, news_channel

log = logging.getLogger(__name__)


class Delivery(NamedTuple):
    entry: Entry
    over: bool  # the game is over once this event is in: show it unredacted


class Said(NamedTuple):
    message: ChatMessage  # a message of the table's chat


#: What a subscriber is given: an event, or a chat message.
Passed = Delivery | Said


class Subscription:
    """One client's place in a game's fan-out: its queue, and optionally a `sink` that takes
    deliveries at once when it can (a seat's socket with nothing in flight writes them there
    and then) and answers False to have them queued instead."""

    def __init__(self, game_id: str, size: int) -> None:
        self.game_id = game_id
        self.queue: asyncio.Queue[Passed | None] = asyncio.Queue(maxsize=size)
        self.dropped = False
        self.gone = False  # ended because its game was deleted
        self.identity: tuple[str, ...] = ()  # the keys of the identity it was opened with
        self.ended: str | None = None  # the key of the identity whose end ended it
        self.sink: Callable[[Sequence[Passed]], bool] | None = None
        self.heard = 0  # the chat message the hub had passed on when this one joined

    def offer_all(self, deliveries: Sequence[Passed]) -> bool:
        """Give the deliveries to the sink or the queue; False: the queue is full (dropped)."""
        if self.sink is not None and self.queue.empty():
            try:
                if self.sink(deliveries):
                    return True
            except Exception:
                log.exception("a subscriber's sink failed; its deliveries are queued")
        return all(self.offer(d) for d in deliveries)

    def end(self, key: str) -> None:
        """The identity it acts with ended (`key`): it ends, whatever it has not taken."""
        self.ended = key
        if self.queue.full():
            self.queue.get_nowait()
        self.offer(None)

    def offer(self, delivery: Passed | None) -> bool:
        try:
            self.queue.put_nowait(delivery)
        except asyncio.QueueFull:
            self.dropped = True
            return False
        return True


#: How many games the hub reads at once (fewer than the connections of its client per node).
_READS_AT_ONCE = 32
#: What a listener of a cluster node keeps of the cluster client's connection settings.
_KEPT = ("username", "password", "socket_connect_timeout")


class _Channel:
    def __init__(self, table: Table, said: int) -> None:
        self.table = table
        self.said = said  # the last chat message passed on
        self.subscribers: set[Subscription] = set()


class Hub:
    """Subscriptions to games' events, fed by notifications and catch-up reads."""

    def __init__(
        self,
        service: GameService,
        reader: EventStore,
        *,
        chat: ChatLog | None = None,
        resync_ms: int = 30_000,
        queue_size: int = 512,
        max_subscribers: int = 0,
        retry_after: int = 2,
        recheck_seconds: float = 120.0,
    ) -> None:
        self._service = service
        self._reader = reader
        self._chat = chat
        self._resync = resync_ms / 1000
        self._queue_size = queue_size
        self._max = max_subscribers
        self._retry_after = retry_after
        self._channels: dict[str, _Channel] = {}
        self._listeners: dict[str, Listener] = {}
        self._dirty: dict[str, int | None] = {}  # games with news, up to what version (None: any)
        self._stale: set[str] = set()  # games read again by the periodic resync
        self._chatty: set[str] = set()  # games whose chat is to be read
        self._wake = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []
        self._count = 0
        self.identities = Identities(reader.client, recheck_seconds)
        service.watch(self._appended, self._settled)

    async def start(self) -> None:
        """Learn the cluster's nodes (a cluster client); start the reading tasks."""
        client = self._reader.client
        if isinstance(client, RedisCluster):
            await client.initialize()
        if not self._tasks:
            loop = asyncio.get_running_loop()
            self._tasks = [
                loop.create_task(self._pull(), name="hub-reader"),
                loop.create_task(self._resync_all(), name="hub-resync"),
                loop.create_task(self.identities.run(), name="hub-identities"),
            ]
            self._listener_of(ENDS_CHANNEL).add(ENDS_CHANNEL)

    def subscribe(
        self, table: Table, said: int = 0, identity: tuple[str, ...] = ()
    ) -> Subscription:
        """A new subscriber of the game; `said`: the last message of its chat that the caller
        read (from the chat's own answer) before subscribing, where a new channel starts;
        `identity`: the keys of the identity it acts with (`app.store.ends`), which end it."""
        if self._max and self._count >= self._max:
            raise StreamsFull(
                f"This server streams to {self._max} clients already; try again shortly.",
                retry_after=self._retry_after,
            )
        channel = self._channels.get(table.id)
        if channel is None:
            channel = self._channels[table.id] = _Channel(table, said)
            self._listener(table.id).add(news_channel(table.id))
        subscription = Subscription(table.id, self._queue_size)
        subscription.heard = channel.said
        if identity:
            subscription.identity = identity
            self.identities.hold(subscription)
        channel.subscribers.add(subscription)
        self._count += 1
        return subscription

    def unsubscribe(self, subscription: Subscription) -> None:
        if subscription.identity:
            self.identities.release(subscription)
        channel = self._channels.get(subscription.game_id)
        if channel is None or subscription not in channel.subscribers:
            return
        channel.subscribers.discard(subscription)
        self._count -= 1
        if not channel.subscribers:
            self._forget(subscription.game_id)

    def _forget(self, game_id: str) -> None:
        channel = self._channels.pop(game_id, None)
        if channel is not None:
            self._count -= len(channel.subscribers)
            channel.subscribers.clear()
            self._listener(game_id).remove(news_channel(game_id))

    @property
    def subscribers(self) -> int:
        return self._count

    @property
    def watched(self) -> int:
        """Games with subscribers in this process."""
        return len(self._channels)

    def notify(self, game_id: str, version: int | None = None) -> None:
        """The game has news (up to `version`, when known): read it soon (once, however many
        notifications come), unless this process has passed that version on already. A
        version `GONE`: the game was deleted."""
        if version == GONE:
            self.gone(game_id)
            return
        channel = self._channels.get(game_id)
        if channel is not None and version is None:
            self._chatty.add(game_id)
        if channel is not None and (version is None or version > channel.table.version):
            known = self._dirty.get(game_id, 0)
            newest = None if version is None or known is None else max(known, version)
            self._dirty[game_id] = newest
            # While this process appends to the game, the news is most often that very
            # append's, come in before its reply (which passes its events on without a read):
            # the reader is woken when the append is over (`_settled`) if it is still unseen.
            if version is None or not self._service.appending(game_id):
                self._wake.set()

    def _settled(self, game_id: str) -> None:
        """An append of this process to the game is over: wake the reader for news that came
        meanwhile and that the append did not bring."""
        dirty = self._dirty
        held = game_id in dirty and not self._service.appending(game_id)
        if held and self._unseen(game_id, dirty[game_id]):
            self._wake.set()

    def chatted(self, game_id: str, number: int) -> None:
        """The game's chat has message `number`: read it soon, unless it was passed on."""
        channel = self._channels.get(game_id)
        if channel is not None and number > channel.said and self._chat is not None:
            self._chatty.add(game_id)
            self._wake.set()

    def spoken(self, game_id: str, message: ChatMessage) -> None:
        """A message this process wrote: passed on at once when it follows what the game's
        subscribers have (otherwise its news brings it by a read)."""
        channel = self._channels.get(game_id)
        if channel is not None and message.id == channel.said + 1:
            channel.said = message.id
            self._give(channel, [Said(message)])

    def gone(self, game_id: str) -> None:
        """The game was deleted: end its streams, forget it here and in the service."""
        self._service.forget(game_id)
        channel = self._channels.get(game_id)
        if channel is None:
            return
        for subscription in channel.subscribers:
            subscription.gone = True
            if subscription.queue.full():  # what it has not taken is of a game that is gone
                subscription.queue.get_nowait()
            subscription.offer(None)
        self._forget(game_id)

    def _appended(self, after: Table, appended: list[Entry], answering: object) -> None:
        """This process's own append: passed on at once, without a read, when it follows
        what the game's subscribers have; otherwise its notification brings it by a read. The
        subscription `answering` (a seat's socket that sent the command) answers the command
        with its events itself: it is not given them as well."""
        channel = self._channels.get(after.id)
        if channel is None or not appended or channel.table.version != appended[0].version - 1:
            return
        try:
            if after.over:  # find the event that ended it (once a game)
                deliveries, _ = self._folded(channel.table, appended)
            else:
                deliveries = [Delivery(entry, False) for entry in appended]
        except Exception:
            log.exception("the events of game %s cannot be passed on", after.id)
            return  # its notification brings them by a read, which ends the streams
        self._deliver(channel, after, deliveries, skip=answering)

    def _folded(self, table: Table, entries: list[Entry]) -> tuple[list[Delivery], Any]:
        deliveries = []
        state = table.state
        for entry in entries:
            state = table.game.evolve(state, entry.event)
            deliveries.append(Delivery(entry, bool(table.game.is_over(state))))
        return deliveries, state

    def _deliver(
        self,
        channel: _Channel,
        table: Table,
        deliveries: list[Delivery],
        skip: object = None,
    ) -> None:
        channel.table = table
        self._give(channel, deliveries, skip)

    def _give(self, channel: _Channel, deliveries: Sequence[Passed], skip: object = None) -> None:
        for subscription in list(channel.subscribers):
            if subscription is skip:
                continue
            if not subscription.offer_all(deliveries):
                channel.subscribers.discard(subscription)  # it drains its queue, then ends
                self._count -= 1
        if not channel.subscribers:
            self._forget(channel.table.id)

    def end_streams(self) -> None:
        """Ask every stream of this process to end (a process shutting down): each ends
        cleanly and its client reconnects, elsewhere or later, with the last id it has."""
        for channel in self._channels.values():
            for subscription in channel.subscribers:
                subscription.offer(None)

    async def close(self) -> None:
        self.end_streams()
        self._channels.clear()
        self._count = 0
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            await asyncio.wait(self._tasks, timeout=5)
        for listener in self._listeners.values():
            await listener.aclose()
        self._listeners.clear()
        self._tasks = []

    def _listener(self, game_id: str) -> Listener:
        return self._listener_of(news_channel(game_id))

    def _listener_of(self, channel: str) -> Listener:
        client = self._reader.client
        node = ""
        if isinstance(client, RedisCluster):
            found = client.get_node_from_key(channel)
            node = f"{found.host}:{found.port}"
        listener = self._listeners.get(node)
        if listener is None:
            if isinstance(client, RedisCluster):
                host, port = node.rsplit(":", 1)
                given = client.get_connection_kwargs()
                kwargs = {k: given[k] for k in _KEPT if given.get(k) is not None}
                own = Redis(host=host, port=int(port), **kwargs)
                listener = news.listener(
                    self.notify, own, owned=True, chat=self.chatted, ended=self.identities.ended
                )
            else:
                listener = news.listener(
                    self.notify, client, owned=False, chat=self.chatted, ended=self.identities.ended
                )
            self._listeners[node] = listener
        return listener

    async def _resync_all(self) -> None:
        while True:
            await asyncio.sleep(self._resync)
            self._stale.update(self._channels)
            self._wake.set()

    async def _pull(self) -> None:
        """Read the games with news first, all of them; the stale ones (the periodic resync)
        a slice at a time in between, so that a resync never holds news back."""
        while True:
            await self._wake.wait()
            # A notification of this process's own append may come in before the append's
            # reply: let that reply's command pass the events on first (then nothing is read).
            await asyncio.sleep(0)
            self._wake.clear()
            news, self._dirty = self._dirty, {}
            chatty, self._chatty = self._chatty, set()
            self._stale -= news.keys()
            # News of a version is read as it is; the rest (a subscription confirmed, after a
            # reconnection, or the resync) also checks that the game is still there.
            games = [(g, v is None) for g, v in news.items() if self._unseen(g, v)]
            for _ in range(_READS_AT_ONCE):
                if not self._stale:
                    break
                game_id = self._stale.pop()
                if game_id in self._channels:
                    games.append((game_id, True))
                    chatty.add(game_id)
            reads = [functools.partial(self._pass_on, g, checked) for g, checked in games]
            if self._chat is not None:
                reads += [functools.partial(self._pass_on_chat, g) for g in chatty]
            for start in range(0, len(reads), _READS_AT_ONCE):
                await asyncio.gather(*(read() for read in reads[start : start + _READS_AT_ONCE]))
            if self._stale:
                self._wake.set()

    def _unseen(self, game_id: str, version: int | None) -> bool:
        """The game has subscribers and news they were not given (or may have: None)."""
        channel = self._channels.get(game_id)
        return channel is not None and (version is None or version > channel.table.version)

    async def _pass_on(self, game_id: str, checked: bool = False) -> None:
        channel = self._channels.get(game_id)
        if channel is None:
            return
        try:
            if checked:
                found = await self._reader.since(game_id, channel.table.version)
                if found is None and not await self._reader.exists(game_id):
                    self.gone(game_id)  # deleted, and this process missed the news
                    return
                stored = found or []  # None: an archived game's stream, gone for good
            else:
                stored = await self._reader.read(game_id, after=channel.table.version)
        except (ConnectionError, OSError, RedisError):
            log.warning("reading game %s for its subscribers failed; trying again", game_id)
            await asyncio.sleep(0.5)
            self.notify(game_id)
            return
        if self._channels.get(game_id) is not channel:
            return
        table = channel.table  # this process's own appends may have moved it during the read
        stored = [s for s in stored if s.version > table.version]
        if not stored:
            return
        try:
            deliveries, state = self._folded(table, self._service.entries(table, stored))
        except Exception:
            # Whatever broke, the subscribers must not wait forever: end their streams (their
            # clients reconnect with Last-Event-ID and lose nothing).
            log.exception("the events of game %s cannot be passed on", game_id)
            for subscription in channel.subscribers:
                subscription.offer(None)
            self._forget(game_id)
            return
        self._deliver(channel, table.followed(state, stored), deliveries)

    async def _pass_on_chat(self, game_id: str) -> None:
        """Read the game's chat after the last message passed on, and pass the rest on."""
        channel = self._channels.get(game_id)
        if channel is None or self._chat is None:
            return
        try:
            messages, _ = await self._chat.read(game_id, channel.said)
        except GameNotFound:
            return  # deleted: its events' news or the resync end its streams
        except (ConnectionError, OSError, RedisError):
            log.warning("reading the chat of game %s failed; trying again", game_id)
            await asyncio.sleep(0.5)
            self._chatty.add(game_id)
            self._wake.set()
            return
        if self._channels.get(game_id) is not channel:
            return
        fresh = [Said(m) for m in messages if m.id > channel.said]
        if fresh:
            channel.said = fresh[-1].message.id
            self._give(channel, fresh)
