"""Limits per client address, kept in Redis so that every API process shares them.

- How many games an address may create a minute, commands it may send, views it may ask for
  (a view, events, a replay, a timeline, an export, a page of the lobby), stream tickets, and
  streams and sockets it may open (one-minute windows: `rate:{kind}:{address}`); a creation
  refused for any reason gives its place back.
- How many streams and sockets an address may hold open at once in this process (counted here:
  a process that goes away takes its connections with it).
- How many running games an address may have created at once (`client:{address}:games`, the
  ids of its games; finished ones are dropped when it creates the next).
- Guesses at passwords (15-minute windows): failed logins to one name from one address, and
  wrong current passwords given to change one account's; failed logins to one name from
  anywhere never refuse, they slow every login to it (`login_delay`), so that nobody can lock
  an owner out.

A window starts at the first request it counts, by the clock handed in (`clock`), and lasts
its length: there is no edge shared by every address, so no test waits for one, and a test
that moves the clock opens the next window at once. A window is one hash (its start `s` and
its count `n`), counted by one script.

Addresses are kept as a hash, never as they are.
"""

from __future__ import annotations

import hashlib
import math
import time
from collections.abc import Callable

from redis.asyncio import Redis

from app.base.config import Settings
from app.commands.errors import RateLimited, TooManyOpenGames, TooManyOpenStreams
from app.commands.meta import status_field
from app.store.pipe import Arg, Pipe

# KEYS: window. ARGV: now (ms, the caller's clock), length (ms), ttl (s). A window that is
# missing or over starts again at `now`. Replies {the count after this request, its start}.
_COUNT = """
local start = tonumber(redis.call('HGET', KEYS[1], 's'))
if start == nil or tonumber(ARGV[1]) - start >= tonumber(ARGV[2]) then
  redis.call('HSET', KEYS[1], 's', ARGV[1], 'n', 1)
  redis.call('EXPIRE', KEYS[1], ARGV[3])
  return {1, tonumber(ARGV[1])}
end
return {redis.call('HINCRBY', KEYS[1], 'n', 1), start}
"""

_COUNT_SOURCE = _COUNT.encode()

# KEYS: window. ARGV: its start. Gives one back, only to that window (its expiry stays).
_GIVE_BACK = """
if redis.call('HGET', KEYS[1], 's') == ARGV[1] then
  return redis.call('HINCRBY', KEYS[1], 'n', -1)
end
return 0
"""

_ACTIVE = status_field("active")["status"]
#: What each kind of request is called in a refusal.
_WHAT = {
    "create": "games",
    "command": "commands",
    "view": "views",
    "ticket": "stream tickets",
    "stream": "streams and sockets opened",
    "login": "logins and sign-ups",
    "login_name": "failed logins to this account from your address",
    "password": "wrong current passwords for this account",
}
#: The kinds whose words say whose count it is.
_OF_ACCOUNTS = ("login_name", "password")
#: The length of each kind's window in seconds (else a minute).
_WINDOW = {"login_name": 900, "password": 900, "login_tries": 900}
#: The first wait of a login to a name that failed too often from anywhere; it doubles.
FIRST_DELAY = 0.5


def login_delay(failed: int, free: int, most: float) -> float:
    """How long a login to a name waits after `failed` failed logins to it from anywhere in the
    window: nothing for the first `free`, then FIRST_DELAY doubling with each, at most `most`."""
    if free <= 0 or most <= 0 or failed < free:
        return 0.0
    return float(min(most, FIRST_DELAY * 2 ** min(failed - free, 32)))


def address_key(address: str) -> str:
    return hashlib.sha256(address.encode()).hexdigest()[:20]


def _window(kind: str, address: str) -> str:
    return f"rate:{kind}:{address_key(address)}"


class Guard:
    """Rate limits and the cap on open games; a limit of 0 is no limit."""

    def __init__(
        self,
        redis: Redis,
        settings: Settings,
        pipe: Pipe | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self._redis = redis
        self._clock = clock
        self._settings = settings
        self._count = redis.register_script(_COUNT)
        self._give_back = redis.register_script(_GIVE_BACK)
        self._pipe = pipe  # the count goes through it when given (`app.store.pipe`)
        self._limits = {
            "create": settings.create_per_minute,
            "command": settings.commands_per_minute,
            "view": settings.views_per_minute,
            "ticket": settings.tickets_per_minute,
            "stream": settings.streams_per_minute,
            "login": settings.logins_per_minute,
            "login_name": settings.logins_per_name,
            "password": settings.logins_per_name,
        }
        self._open: dict[str, int] = {}  # streams and sockets held, by address key

    async def admit(self, kind: str, address: str) -> str | None:
        """Count one request of `kind` (one of `_WHAT`); `RateLimited` past the limit. The
        window it was counted in (None: no limit), for `refund`."""
        limit = self._limits[kind]
        if limit <= 0:
            return None
        now, length = self._clock(), _WINDOW.get(kind, 60)
        key = _window(kind, address)
        count, start = await self._counted(key, now, length)
        if count > limit:
            wait = max(1, math.ceil(start / 1000 + length - now))
            per = "a minute" if length == 60 else f"in {length // 60} minutes"
            where = "" if kind in _OF_ACCOUNTS else " from your address"
            raise RateLimited(
                f"Too many {_WHAT[kind]}{where}: at most {limit} {per}. Try again in {wait} s.",
                retry_after=wait,
            )
        return f"{key} {start}"

    async def slowed(self, name: str) -> tuple[float, str | None]:
        """Count one login to the account `name` from anywhere; how long it waits first (the
        failed ones before it, `login_delay`), and its window, for `refund` when it succeeds."""
        free, most = self._settings.logins_per_name, self._settings.login_delay_max
        if free <= 0 or most <= 0:
            return 0.0, None
        now, length = self._clock(), _WINDOW["login_tries"]
        key = _window("login_tries", name)
        count, start = await self._counted(key, now, length)
        return login_delay(count - 1, free, most), f"{key} {start}"

    async def _counted(self, key: str, now: float, length: int) -> tuple[int, int]:
        """The window's count after one more, and its start (ms)."""
        args: list[Arg] = [int(now * 1000), length * 1000, length + 1]
        if self._pipe is None:
            count, start = await self._count(keys=[key], args=args)
        else:
            script = self._count.sha
            count, start = await self._pipe.script(_COUNT_SOURCE, script, [key], args)
        return int(count), int(start)

    async def refund(self, *windows: str | None) -> None:
        """Give back the place a request took in each window (what `admit` answered) when the
        request was then refused; a window that has ended meanwhile is left alone."""
        for window in windows:
            if window is not None:
                key, start = window.split(" ")
                await self._give_back(keys=[key], args=[start])

    def hold(self, address: str) -> str:
        """One more stream or socket held open by the address; `RateLimited` past the limit.
        What it returns is given back to `release` when the connection ends."""
        cap, held = self._settings.streams_per_address, address_key(address)
        if cap > 0 and self._open.get(held, 0) >= cap:
            raise TooManyOpenStreams(
                f"Your address holds {cap} open streams and sockets here already: close one "
                "before you open another.",
                retry_after=5,
            )
        self._open[held] = self._open.get(held, 0) + 1
        return held

    def release(self, held: str) -> None:
        left = self._open.get(held, 0) - 1
        if left > 0:
            self._open[held] = left
        else:
            self._open.pop(held, None)

    async def check_open(self, address: str) -> None:
        """`RateLimited` if the address has as many running games as it may have."""
        cap = self._settings.open_games
        if cap <= 0:
            return
        key = f"client:{address_key(address)}:games"
        ids = [i.decode() for i in await self._redis.smembers(key)]  # type: ignore[misc]
        if len(ids) < cap:
            return
        async with self._redis.pipeline(transaction=False) as pipe:
            for game_id in ids:
                pipe.hget(f"game:{{{game_id}}}:meta", "status")
            statuses = await pipe.execute()
        done = [g for g, s in zip(ids, statuses, strict=True) if s is None or s.decode() != _ACTIVE]
        if done:
            await self._redis.srem(key, *done)  # type: ignore[misc]
        if len(ids) - len(done) >= cap:
            raise TooManyOpenGames(
                f"You have {cap} running games: finish or leave one before you create another.",
                retry_after=60,
            )

    async def opened(self, address: str, game_id: str) -> None:
        """Remember that the address created this game."""
        if self._settings.open_games <= 0:
            return
        key = f"client:{address_key(address)}:games"
        async with self._redis.pipeline(transaction=False) as pipe:
            pipe.sadd(key, game_id)
            pipe.expire(key, 60 * 86400)
            await pipe.execute()
