"""A game's chat in Redis: one capped stream beside the game's own keys, never one of its events.

``game:{ID}:chat`` (same hash tag as the game: one slot of a cluster) holds the messages,
entry id ``0-<n>`` for the game's n-th message (fields ``at``, ``seat``, ``name``, ``text``),
trimmed to about `kept` messages (XADD MAXLEN ~). A message is written by one script that
checks the game still exists, counts the seat in a one-minute window that starts at the seat's
first message in it, by the time the message is written at (``game:{ID}:chat:rate:{seat}``,
a hash: start ``s`` and count ``n``), and publishes ``c<n>`` on the game's news channel,
where appends publish their version: the hub tells the two apart by the ``c``. The game's
version, log, replay and export never see a message.

The rules of who may say what, and how often, are `app.people.chat`'s; the hub (`app.live`)
reads here, below both.
"""

from __future__ import annotations

from typing import Any

import msgspec
from redis.asyncio import Redis

from app.store.events import GameNotFound
from app.store.pipe import Arg, Pipe

#: What a chat message's news on the game's news channel starts with (a version never does).
CHAT_NEWS = b"c"

# KEYS: version, chat, window. ARGV: limit (0: none), window ttl, kept, at, seat, name, text.
# Replies {-1}: no such game; {0, start}: the seat said `limit` messages in its window, which
# started at `start` (ms), already; {1, n}: written as message n.
_SAY = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local limit = tonumber(ARGV[1])
if limit > 0 then
  local start = tonumber(redis.call('HGET', KEYS[3], 's'))
  if start == nil or tonumber(ARGV[4]) - start >= 60000 then
    redis.call('HSET', KEYS[3], 's', ARGV[4], 'n', 1)
    redis.call('EXPIRE', KEYS[3], ARGV[2])
  else
    if tonumber(redis.call('HGET', KEYS[3], 'n')) >= limit then return {0, start} end
    redis.call('HINCRBY', KEYS[3], 'n', 1)
  end
end
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local n = 1
if #last > 0 then n = tonumber(string.sub(last[1][1], 3)) + 1 end
redis.call('XADD', KEYS[2], 'MAXLEN', '~', ARGV[3], '0-' .. n,
  'at', ARGV[4], 'seat', ARGV[5], 'name', ARGV[6], 'text', ARGV[7])
redis.call('SPUBLISH', string.sub(KEYS[1], 1, -8) .. 'news', 'c' .. n)
return {1, n}
"""

# KEYS: version, chat. ARGV: after, the id after it. Replies {-1} for no such game, else
# {the number of the chat's last message (0: none), the messages after `after`}, read at once.
_READ = """
if redis.call('EXISTS', KEYS[1]) == 0 then return {-1} end
local last = redis.call('XREVRANGE', KEYS[2], '+', '-', 'COUNT', 1)
local top = 0
if #last > 0 then top = tonumber(string.sub(last[1][1], 3)) end
if top <= tonumber(ARGV[1]) then return {top, {}} end
return {top, redis.call('XRANGE', KEYS[2], ARGV[2], '+')}
"""
_READ_SOURCE = _READ.encode()


class ChatMessage(msgspec.Struct, frozen=True):
    """One message of a game's chat, as every viewer sees it."""

    id: int  # its place in the game's chat, from 1
    at: int  # server time, ms since the epoch
    seat: int  # the seat that said it
    name: str  # that seat's name at the table
    text: str  # plain text, as said: never markup


class TooFast(Exception):
    """The seat has said as many messages as it may in its minute; nothing was written."""

    def __init__(self, game_id: str, until: int) -> None:
        super().__init__(game_id)
        self.until = until  # when the seat's window ends (ms)


def chat_key(game_id: str, suffix: str = "chat") -> str:
    return f"game:{{{game_id}}}:{suffix}"


def chat_news(payload: bytes) -> int | None:
    """The message number of a chat news payload (``c<n>``); None for any other payload."""
    if payload[:1] != CHAT_NEWS or not payload[1:].isdigit():
        return None
    return int(payload[1:])


def _message(entry: Any) -> ChatMessage:
    stream_id, flat = entry
    fields = dict(zip(flat[::2], flat[1::2], strict=True))
    return ChatMessage(
        int(bytes(stream_id).split(b"-", 1)[1]),
        int(fields[b"at"]),
        int(fields[b"seat"]),
        bytes(fields[b"name"]).decode(),
        bytes(fields[b"text"]).decode(),
    )


class ChatLog:
    """The chats of games in Redis (a bytes client, as the event store's)."""

    def __init__(self, redis: Redis, *, kept: int = 1000, pipe: Pipe | None = None) -> None:
        if kept <= 0:
            raise ValueError("kept must be positive")
        self._redis = redis
        self._kept = kept
        self._say = redis.register_script(_SAY)
        self._read = redis.register_script(_READ)
        self._pipe = pipe  # reads go through it when given (`app.store.pipe`), as the events'

    async def say(
        self, game_id: str, seat: int, name: str, text: str, at: int, *, per_minute: int = 0
    ) -> ChatMessage:
        """Write one message of the seat at `at` (ms), unless the seat has said `per_minute`
        messages in the minute since its window's first (`TooFast`; 0: no limit) or the game
        does not exist (`GameNotFound`)."""
        window = chat_key(game_id, f"chat:rate:{seat}")
        keys = [chat_key(game_id, "version"), chat_key(game_id), window]
        args: list[str | int] = [per_minute, 61, self._kept, at, seat, name, text]
        reply = await self._say(keys=keys, args=args)
        if reply[0] == -1:
            raise GameNotFound(game_id)
        if reply[0] == 0:
            raise TooFast(game_id, int(reply[1]) + 60_000)
        return ChatMessage(int(reply[1]), at, seat, name, text)

    async def read(self, game_id: str, after: int = 0) -> tuple[list[ChatMessage], int]:
        """The messages after message `after`, in order, and the number of the chat's last
        message (0 when nothing was said), both as they were at one instant; `GameNotFound`
        when the game does not exist."""
        keys = [chat_key(game_id, "version"), chat_key(game_id)]
        args: list[Arg] = [after, f"0-{after + 1}"]
        if self._pipe is None:
            reply = await self._read(keys=keys, args=args)
        else:
            reply = await self._pipe.script(_READ_SOURCE, self._read.sha, keys, args)
        if reply[0] == -1:
            raise GameNotFound(game_id)
        return [_message(entry) for entry in reply[1]], int(reply[0])
