"""With `ACCESS_LOG=1` the access log names every request, but no secret in its query: a used
stream ticket (or any token-like parameter) is written as `[redacted]`."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from client import auth, create
from conftest import start_server, stop_server

from tests.processes import database


@pytest.fixture(params=["text", "json"])
def logged(
    request: pytest.FixtureRequest, redis_url: str, tmp_path: Path
) -> Iterator[tuple[str, Path]]:
    log = tmp_path / "server.log"
    env = {"REDIS_URL": database(redis_url, 13), "ACCESS_LOG": "1", "LOG_FORMAT": request.param}
    proc, url = start_server(env, log)
    yield url, log
    stop_server(proc)


async def test_a_used_stream_ticket_is_not_in_the_access_log(logged: tuple[str, Path]) -> None:
    url, log = logged
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        created = await create(client, [{"type": "human"}, {"type": "human"}])
        game_id, token = created["id"], created["seats"][0]["token"]
        answer = await client.post(f"/api/games/{game_id}/tickets", headers=auth(token))
        ticket = answer.json()["ticket"]
        stream = f"/api/games/{game_id}/stream"
        async with client.stream("GET", stream, params={"ticket": ticket}) as opened:
            assert opened.status_code == 200
        await client.get(f"/api/games/{game_id}", params={"access_token": "made-up-secret"})
    text = log.read_text()
    assert f"{stream}?ticket=[redacted]" in text  # the access log is on
    for secret in (ticket, token, "made-up-secret"):
        assert secret not in text
