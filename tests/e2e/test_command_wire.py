"""A command POST answers the same below Litestar (`app.wire.commandwire`, the default) as
through Litestar's route (`ASGI_COMMANDS=1`): the same status, headers and body, byte for byte,
for every kind of answer: applied, replayed, refused by the rules, by the limits, for its body,
its key, its token or its game; and for what the wire passes on to the app (a cookie, a
personal token, no bearer token, a body past the limit).

Each case runs on two servers on one Redis, each on a game of its own made from the same seed,
from an address of its own (`X-Forwarded-For`, `TRUST_PROXY=1`) so that the limits count each
case apart. Times differ between the two (the events' `at`, the seconds a limit has left) and
are the only thing set aside.
"""

from __future__ import annotations

import json
import re
import uuid
from collections.abc import Awaitable, Callable, Iterator
from typing import Any

import httpx
import pytest
from client import auth, create

from tests.processes import ROOT, database, start_server, stop_server

SERVINGS = {"wire": {}, "route": {"ASGI_COMMANDS": "1"}}
HUMANS = [{"type": "human"}, {"type": "human"}]
LIMIT = 4  # commands a minute from one address


@pytest.fixture(scope="module")
def servers(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, str]]:
    env = {
        "REDIS_URL": database(redis_url, 1, flush=False),  # new games only: nothing is shared
        "TRUST_PROXY": "1",
        "RATE_COMMANDS_PER_MINUTE": str(LIMIT),
    }
    started = {}
    try:
        for name, extra in SERVINGS.items():
            log = tmp_path_factory.mktemp(f"server-{name}") / "server.log"
            started[name] = (*start_server({**env, **extra}, log, cwd=ROOT), log)
        yield {name: url for name, (_, url, _) in started.items()}
    finally:
        for proc, _, log in started.values():
            stop_server(proc)
            text = log.read_text()
            assert "Traceback" not in text, text[-4000:]


class Game:
    """One server's game of a case, and how a case asks it."""

    def __init__(self, client: httpx.AsyncClient, created: dict[str, Any], address: str):
        self.client = client
        self.id = created["id"]
        self.tokens = [seat["token"] for seat in created["seats"]]
        self.address = address

    async def post(
        self,
        body: bytes | dict[str, Any],
        *,
        seat: int | None = 0,
        headers: dict[str, str] | None = None,
        game_id: str | None = None,
    ) -> httpx.Response:
        content = body if isinstance(body, bytes) else json.dumps(body).encode()
        sent = {"X-Forwarded-For": self.address, "Content-Type": "application/json"}
        if seat is not None:
            sent |= auth(self.tokens[seat])
        sent |= headers or {}
        path = f"/api/games/{game_id or self.id}/commands"
        return await self.client.post(path, content=content, headers=sent)


Case = Callable[[Game], Awaitable[list[httpx.Response]]]
PASS = {"type": "draw_and_pass"}
MONDOS = {"type": "place_tile", "tile": 3, "space": 5, "face": "plain", "rotation": 90}
BASIC = {"Authorization": "Basic eA=="}


async def one(game: Game, body: Any, **kwargs: Any) -> list[httpx.Response]:
    return [await game.post(body, **kwargs)]


#: Each case, and the statuses its requests are answered with.
CASES: dict[str, tuple[Case, list[int]]] = {
    "applied": (lambda g: one(g, PASS), [200]),
    "applied-then-refused": (lambda g: _twice(g, PASS), [200, 409]),
    "replayed": (lambda g: _twice(g, PASS, headers={"Idempotency-Key": "k-1"}), [200, 200]),
    "not-your-turn": (lambda g: one(g, PASS, seat=1), [409]),
    "malformed": (lambda g: one(g, b'{"type":'), [400]),
    "empty": (lambda g: one(g, b""), [400]),
    "not-an-object": (lambda g: one(g, b"[1, 2]"), [400]),
    "unknown-command": (lambda g: one(g, {"type": "fly"}), [400]),
    "another-games": (lambda g: one(g, MONDOS), [422]),
    "bad-field": (lambda g: one(g, {"type": "place_tile", "tile": "x"}), [400]),
    "expected-version": (lambda g: one(g, {**PASS, "expected_version": 1}), [200]),
    "stale-version": (lambda g: one(g, {**PASS, "expected_version": 0}), [409]),
    "version-not-whole": (lambda g: one(g, {**PASS, "expected_version": "1"}), [400]),
    "too-deep": (lambda g: one(g, b"[" * 10_000 + b"]" * 10_000), [400]),
    "bad-key": (lambda g: one(g, PASS, headers={"Idempotency-Key": "no spaces"}), [400]),
    "no-seat's-token": (lambda g: one(g, PASS, seat=None, headers=auth("x" * 32)), [401]),
    "unknown-game": (lambda g: one(g, PASS, game_id="no-such-game"), [404]),
    "limited": (lambda g: _times(g, LIMIT + 1), [200, 200, 200, 200, 429]),
    # What the wire passes on to the app: the route answers in both servers.
    "no-token": (lambda g: one(g, PASS, seat=None), [401]),
    "not-a-bearer": (lambda g: one(g, PASS, seat=None, headers=BASIC), [401]),
    "personal-token": (lambda g: one(g, PASS, seat=None, headers=auth("bgp_" + "x" * 40)), [401]),
    "cookie": (lambda g: one(g, PASS, headers={"Cookie": "session=nothing"}), [403]),
    "too-large": (lambda g: one(g, b'{"type":"x","x":"' + b"x" * 70_000 + b'"}'), [413]),
}


async def _twice(game: Game, body: Any, **kwargs: Any) -> list[httpx.Response]:
    return [await game.post(body, **kwargs), await game.post(body, **kwargs)]


async def _times(game: Game, count: int) -> list[httpx.Response]:
    return [await game.post(PASS, seat=n % 2) for n in range(count)]


def answer_of(response: httpx.Response) -> tuple[int, list[tuple[str, str]], str]:
    """What must be the same: the status, the headers but the date, the body; times (of the
    events, and the seconds a limit has left) set aside."""
    headers = [
        (k, "N" if k == "retry-after" else v)
        for k, v in response.headers.multi_items()
        if k != "date"
    ]
    body = re.sub(r'"at":\d+', '"at":0', response.text)
    return response.status_code, headers, re.sub(r"in \d+ s\.", "in N s.", body)


@pytest.mark.parametrize("case", list(CASES))
async def test_the_wire_answers_as_the_route(servers: dict[str, str], case: str) -> None:
    ask, statuses = CASES[case]
    answers = {}
    run = uuid.uuid4().hex[:8]
    for name, url in servers.items():
        async with httpx.AsyncClient(base_url=url, timeout=10) as client:
            game = Game(client, await create(client, HUMANS, seed=7), f"{run}-{name}")
            answers[name] = [answer_of(r) for r in await ask(game)]
    assert [status for status, _, _ in answers["wire"]] == statuses, answers["wire"]
    assert answers["wire"] == answers["route"]
