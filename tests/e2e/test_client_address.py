"""The client address the limits count is the peer's unless `TRUST_PROXY=1` and the peer is one
of `TRUSTED_PROXIES` (127.0.0.1 by default): a client that sets `X-Forwarded-For` itself gets no
address of its own and no limits of its own, and behind the proxy it cannot dodge a limit by
writing the header either (the proxy appends the address it saw, and that one counts)."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest
from conftest import clean_server
from websockets.asyncio.client import connect
from websockets.exceptions import ConnectionClosed

LIMIT = 2  # games one address may create a minute
BODY = {"game": "crazymino", "seats": [{"type": "human"}, {"type": "human"}]}
PROXY_SAW = "198.51.100.7"  # what the proxy appends: the address the client came from
MODES = {
    "no proxy": {"TRUST_PROXY": "0"},
    "a trusted proxy": {"TRUST_PROXY": "1"},
    "a peer that is no trusted proxy": {"TRUST_PROXY": "1", "TRUSTED_PROXIES": "192.0.2.1"},
}


@pytest.fixture(scope="module", params=list(MODES))
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, bool]]:
    env = {
        "REDIS_URL": "",
        "RATE_CREATE_PER_MINUTE": str(LIMIT),
        "MAX_STREAMS_PER_ADDRESS": "1",
        **MODES[request.param],
    }
    with clean_server(env, tmp_path_factory) as url:
        yield url, request.param == "a trusted proxy"


def test_a_forwarded_address_counts_only_from_a_trusted_proxy(served: tuple[str, bool]) -> None:
    url, trusted = served
    statuses = [
        httpx.post(
            f"{url}/api/games", json=BODY, headers={"X-Forwarded-For": f"203.0.113.{n}"}
        ).status_code
        for n in range(LIMIT + 2)
    ]
    if trusted:
        assert statuses == [201] * (LIMIT + 2)  # each address its own limit
    else:
        assert statuses == [201] * LIMIT + [429, 429]  # one peer, one limit


def written_then_seen(n: int) -> list[tuple[str, str]]:
    """What reaches the server: the client's own `X-Forwarded-For`, then the proxy's entry,
    appended to the same line or (odd `n`) on a line of its own."""
    if n % 2:
        return [("X-Forwarded-For", f"203.0.113.{n}"), ("X-Forwarded-For", PROXY_SAW)]
    return [("X-Forwarded-For", f"203.0.113.{n}, {PROXY_SAW}")]


async def test_a_client_cannot_dodge_a_limit_by_writing_the_header(
    served: tuple[str, bool],
) -> None:
    url, _ = served  # every mode: one address (the proxy's entry, or the peer), one stream
    socket = url.replace("http://", "ws://") + "/api/games/any/socket"  # the limit comes first
    async with httpx.AsyncClient(base_url=url, timeout=10) as client:
        lobby = "/api/tables/stream"
        async with client.stream("GET", lobby, headers=written_then_seen(0)) as held:
            assert held.status_code == 200
            again = await client.get(lobby, headers=written_then_seen(1))
            assert (again.status_code, again.json()["code"]) == (429, "too_many_open_streams")
            for n in (2, 3):  # two header lines go through `websockets`' handshake, one not
                async with connect(socket, additional_headers=written_then_seen(n)) as refused:
                    answer = json.loads(await refused.recv())
                    assert (answer["status"], answer["code"]) == (429, "too_many_open_streams")
                    with pytest.raises(ConnectionClosed):
                        await refused.recv()
