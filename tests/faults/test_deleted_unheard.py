"""A game deleted while process A's news listener is away (Redis dropped its connection just
before): A hears nothing, yet ends the game's stream and socket once its listener is back, and
both API processes answer 404 `unknown_game` (`tests/deletion.py`)."""

from __future__ import annotations

from pathlib import Path

import redis.asyncio
from faults.conftest import settings

from tests.deletion import deleted_in_both
from tests.processes import RedisServer, start_server, stop


async def test_a_deletion_announced_while_a_listener_was_away_still_ends_its_streams(
    store: RedisServer, tmp_path: Path
) -> None:
    a, base_a = start_server(settings(store, WORKER_IN_PROCESS="1"), tmp_path / "a.log")
    b, base_b = start_server(settings(store, ASGI_SOCKETS="1"), tmp_path / "b.log")

    async def drop_listeners() -> None:
        client = redis.asyncio.Redis.from_url(store.url)
        try:
            assert await client.client_kill_filter(_type="pubsub") >= 1
        finally:
            await client.aclose()

    try:
        await deleted_in_both(base_a, base_b, store.url, before_deletion=drop_listeners)
    finally:
        stop(a)
        stop(b)
    text = (tmp_path / "a.log").read_text()
    assert "stream notifications lost" in text, text[-4000:]
    for log in ("a.log", "b.log"):
        text = (tmp_path / log).read_text()
        assert "Traceback" not in text, text[-4000:]
