"""A real server: `python -m app` in a subprocess, on a real Redis, with its worker in process."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest

from tests.processes import ROOT, database, start_server, start_worker, stop_server

__all__ = ["ROOT", "clean_server", "start_server", "start_worker", "stop_server"]


@pytest.fixture(scope="session")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of a server on a real Redis (a database of its own), its arq worker in
    process, AI thinking 0 s, hosting the test suite's timed game (dice race) too."""
    env = {"REDIS_URL": database(redis_url, 1), "WORKER_IN_PROCESS": "1"}
    env["SSE_KEEP_ALIVE_SECONDS"] = "0.5"
    env["EXTRA_GAMES"] = "tests.games.dice_race:DICE_RACE"
    with clean_server(env, tmp_path_factory) as url:
        yield url


@contextlib.contextmanager
def clean_server(env: dict[str, str], tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """The base URL of `python -m app` with these settings; stopped after, its log free of
    tracebacks."""
    log = tmp_path_factory.mktemp("server") / "server.log"
    proc, url = start_server(env, log)
    try:
        yield url
    finally:
        stop_server(proc)
        text = log.read_text()
        assert "Traceback" not in text, text[-4000:]
