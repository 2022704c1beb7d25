"""The client address the limits count is the peer's unless `TRUST_PROXY=1`: a client that sets
`X-Forwarded-For` itself, even from 127.0.0.1 (where uvicorn would trust it by default), gets no
address of its own and no limits of its own; behind a trusted proxy each address is counted
apart."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
from conftest import clean_server
from windows import in_one_window_now

LIMIT = 2  # games one address may create a minute
BODY = {"game": "crazymino", "seats": [{"type": "human"}, {"type": "human"}]}


@pytest.fixture(params=["0", "1"], ids=["no proxy", "a trusted proxy"])
def served(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[tuple[str, bool]]:
    env = {"REDIS_URL": "", "TRUST_PROXY": request.param, "RATE_CREATE_PER_MINUTE": str(LIMIT)}
    with clean_server(env, tmp_path_factory) as url:
        yield url, request.param == "1"


def test_a_forwarded_address_counts_only_behind_a_trusted_proxy(served: tuple[str, bool]) -> None:
    url, trusted = served
    in_one_window_now()
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
