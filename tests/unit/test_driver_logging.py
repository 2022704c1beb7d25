"""A worker driving games logs one line a game without a traceback when Redis goes away
(it drove 20 games: 20 lines, not 20 tracebacks), and the traceback of anything else."""

from __future__ import annotations

import logging

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from app.commands.errors import StoreUnavailable
from app.machine.driver import failed


@pytest.mark.parametrize(
    "error",
    [
        RedisConnectionError("Connection closed by server."),
        RedisTimeoutError("Timeout reading from socket"),
        ConnectionRefusedError(111, "Connection refused"),
        StoreUnavailable("The store does not answer."),
    ],
)
def test_redis_away_is_one_line_a_game_without_a_traceback(
    error: Exception, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.INFO, logger="app.machine.driver"):
        for n in range(20):
            failed(f"game{n}", error)
    assert len(caplog.records) == 20
    assert all(r.exc_info is None and r.levelno == logging.WARNING for r in caplog.records)
    assert "Traceback" not in caplog.text and "game7" in caplog.text


def test_anything_else_keeps_its_traceback(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.INFO, logger="app.machine.driver"):
        try:
            raise KeyError("seat")
        except KeyError as error:
            failed("game1", error)
    (record,) = caplog.records
    assert record.levelno == logging.ERROR and record.exc_info is not None
    assert "Traceback" in caplog.text
