"""A connection pool that hands out an idle connection without awaiting anything.

redis-py 5's `BlockingConnectionPool` takes every connection under a lock and a timeout, then
polls its socket (a read with a zero timeout) to make sure no stale reply waits on it. Measured
under load, that was about 7% of a command's CPU. Here an idle connection whose buffers are
empty (nothing read and not parsed, no end of stream) is handed out at once; any other case,
and an exhausted pool, go through redis-py's own path, checks and waiting included.
"""

from __future__ import annotations

from typing import Any

from redis.asyncio import BlockingConnectionPool


def _clean(connection: Any) -> bool:
    """Whether nothing is waiting to be read on an idle connection (False when unsure)."""
    parser = getattr(connection, "_parser", None)
    stream = getattr(parser, "_stream", None)
    reader = getattr(parser, "_reader", None)
    has_data = getattr(reader, "has_data", None)
    if stream is None or has_data is None or not connection.is_connected:
        return False
    return not (getattr(stream, "_buffer", b"x") or stream.at_eof() or has_data())


class LeanPool(BlockingConnectionPool):
    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        if self._available_connections:
            connection = self._available_connections.pop()
            self._in_use_connections.add(connection)
            if _clean(connection):
                return connection
            try:
                await self.ensure_connection(connection)
            except BaseException:
                await self.release(connection)
                raise
            return connection
        return await super().get_connection()
