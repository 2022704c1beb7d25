"""Fault injection with real processes: a private redis-server (AOF, fsync every second) per
test, API processes and workers started by the test, each killed, stopped or restarted."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.processes import RedisServer


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every test here is marked `faults`, so that `pytest -m faults` runs them alone."""
    for item in items:
        if Path(item.path).parent == Path(__file__).parent:
            item.add_marker(pytest.mark.faults)


@pytest.fixture
def store(tmp_path: Path) -> Iterator[RedisServer]:
    folder = tmp_path / "redis"
    folder.mkdir()
    server = RedisServer(folder).start()
    try:
        yield server
    finally:
        server.close()


def settings(store: RedisServer, **more: str) -> dict[str, str]:
    """The environment of an API or worker process on that Redis; Redis calls time out after
    a second, so an outage answers fast."""
    return {
        "REDIS_URL": store.url,
        "WORKER_IN_PROCESS": "0",
        "REDIS_TIMEOUT_SECONDS": "1",
        "RETRY_AFTER_SECONDS": "1",
        **more,
    }
