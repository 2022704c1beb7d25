"""The index of games that wait for machine work: a sorted set, game id by due time (ms).

A game is marked before the append that makes it wait for an AI turn or a timer, so a crash
between the append and the enqueue cannot hide it; the sweep reads only the entries that are
overdue, so its cost grows with the games that wait, never with the games that are finished.
An entry that outlives its work is cleared by the sweep, only if nobody marked it again
meanwhile.
"""

from __future__ import annotations

from redis.asyncio import Redis

#: The index of before the work queues were split: the sweep of queue 0 still reads it, so that
#: games marked there by an older version are not forgotten. Each queue has its own now
#: (`app.machine.queues.QueueSet.due_key`).
DUE_KEY = "machine:due"

# KEYS: index. ARGV: member, score. Removes the member only if its score is still `score`.
_CLEAR = """
local now = redis.call('ZSCORE', KEYS[1], ARGV[1])
if now and tonumber(now) == tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""


class DueIndex:
    """Games waiting for machine work, by when it is due."""

    def __init__(self, redis: Redis, key: str = DUE_KEY) -> None:
        self._redis = redis
        self._key = key
        self._clear = redis.register_script(_CLEAR)

    async def mark(self, game_id: str, due: int) -> None:
        """The game waits for work due at `due` (ms); replaces an earlier mark."""
        await self._redis.zadd(self._key, {game_id: due})

    async def overdue(self, before: int, limit: int) -> list[tuple[str, int]]:
        """Up to `limit` (game id, due) whose work was due before `before`, oldest first."""
        found = await self._redis.zrangebyscore(
            self._key, "-inf", before, start=0, num=limit, withscores=True
        )
        return [(member.decode(), int(score)) for member, score in found]

    async def clear(self, game_id: str, due: int) -> bool:
        """Forget the game's mark, if it is still the one read (due at `due`)."""
        return bool(await self._clear(keys=[self._key], args=[game_id, due]))

    async def done(self, game_id: str) -> None:
        """Forget the game's mark: it waits for nothing more (a finished game, recorded)."""
        await self._redis.zrem(self._key, game_id)

    async def size(self) -> int:
        return int(await self._redis.zcard(self._key))
