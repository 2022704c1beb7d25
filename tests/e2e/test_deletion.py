"""A game deleted by retention is gone in every API process that had it loaded: two real
servers on one real Redis, each way of serving the seat's socket (`tests/deletion.py`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.deletion import deleted_in_both
from tests.processes import database, start_server, stop

#: A probe of the edges (held in the fault suite too: `pytest -m faults`).
pytestmark = pytest.mark.faults

#: Process A's and B's ways of serving the socket: below ASGI (`app.wire.seatwire`) and
#: Litestar's route.
SERVINGS = {"seatwire": {}, "asgi": {"ASGI_SOCKETS": "1"}}


@pytest.mark.parametrize("serving", list(SERVINGS))
async def test_a_deleted_game_is_unknown_in_both_processes_and_its_streams_end(
    redis_url: str, tmp_path: Path, serving: str
) -> None:
    url = database(redis_url, 13)
    other = next(s for s in SERVINGS if s != serving)
    a, base_a = start_server(
        {"REDIS_URL": url, "WORKER_IN_PROCESS": "1", **SERVINGS[serving]}, tmp_path / "a.log"
    )
    b, base_b = start_server(
        {"REDIS_URL": url, "WORKER_IN_PROCESS": "0", **SERVINGS[other]}, tmp_path / "b.log"
    )
    try:
        await deleted_in_both(base_a, base_b, url)
    finally:
        stop(a)
        stop(b)
    for log in ("a.log", "b.log"):
        text = (tmp_path / log).read_text()
        assert "Traceback" not in text, text[-4000:]
