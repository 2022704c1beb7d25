"""The OpenAPI document tells the truth: Schemathesis, with every check on, finds no 5xx and no
conformance failure in any route, on a live server holding real games of every title.

For each hosted title the server holds a running game and a finished one (an imported log),
people at every seat; the routes with `{game_id}` get their ids, and the Authorization header
the token of a seat of them (of the seat to act in the running game), so that commands, reads,
replays, exports, tickets and streams are judged by the game itself, not refused as unknown.
Streams end after a moment (`SSE_MAX_SECONDS`), so that a stream of a real game is tested too.

Schemathesis's engine runs as its command-line tool would (every phase: coverage, fuzzing,
stateful), with a bounded number of examples per operation (`SCHEMATHESIS_EXAMPLES`, 10 in CI)
and a fixed seed. One policy is configured, the API's own: a request that matches the schema
may be answered 422 when the game refuses it (its rules, seats or options) and 429 when a
limit is reached; never 400.
"""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import msgspec
import pytest
from client import auth, view
from conftest import clean_server

from app.api.projection import LOG_FORMAT, api_types
from app.commands.seats import PublicSeat
from domain.game import AnyGame, Record, Setup
from domain.registry import TABLES
from domain.seating import seated
from tests.games.dice_race import DICE_RACE
from tests.processes import database

#: A probe of the edges (held in the fault suite too: `pytest -m faults`).
pytestmark = pytest.mark.faults

EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "10"))
SEED = 20261130
T0 = 1_800_000_000_000
GAMES: dict[str, AnyGame] = {**TABLES, DICE_RACE.name: seated(DICE_RACE)}
#: Options of the running games: rounds that outlast the run.
RUNNING_OPTIONS: dict[str, dict[str, Any]] = {"dice_race": {"round_seconds": 600}}

CONFIG = """
[generation]
max-examples = {examples}

[checks]
positive_data_acceptance.expected-statuses = ["2xx", "401", "403", "404", "409", "422", "429"]

[dictionaries.games]
values = {games}

[dictionaries.tokens]
values = {tokens}

[parameters]
"path.game_id" = {{ dictionary = "games", probability = 1.0 }}
"header.Authorization" = {{ dictionary = "tokens", probability = 0.9 }}
"""


@pytest.fixture(scope="module")
def server(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server of its own whose streams end within a second (as the session's server, else)."""
    env = {"REDIS_URL": database(redis_url, 13), "WORKER_IN_PROCESS": "1"}
    env |= {"SSE_KEEP_ALIVE_SECONDS": "0.1", "SSE_MAX_SECONDS": "0.3"}
    env["EXTRA_GAMES"] = "tests.games.dice_race:DICE_RACE"
    with clean_server(env, tmp_path_factory) as url:
        yield url


def finished_log(game: AnyGame, seed: int) -> bytes:
    """The export of a finished game of people (random legal commands on a simulated clock)."""
    rng = random.Random(seed)
    players = tuple(f"Player {n + 1}" for n in range(max(game.min_seats, 2)))
    options = msgspec.to_builtins(game.options(Setup(seed, players)))
    setup = Setup(seed=seed, players=players, options=options)
    now = T0
    events = game.start(setup, now)
    records = [Record(now, None, e) for e in events]
    state = game.replay(events)
    while not game.is_over(state):
        now += 500
        actors = sorted(game.to_act(state))
        due = [t for t in game.timers(state) if t.due <= now]
        if due:
            seat, command = None, due[0].command
        elif actors:
            seat = rng.choice(actors)
            command = rng.choice(game.legal(state, seat, now))
        else:
            now = min(t.due for t in game.timers(state))
            continue
        new = game.decide(state, seat, command, now)
        state = game.fold(state, new)
        records += [Record(now, seat, e) for e in new]
    types = api_types(game)
    seats = [PublicSeat(n, "human", name) for n, name in enumerate(players)]
    shown = [types.record(r.at, r.by, r.event) for r in records]
    return msgspec.json.encode(types.log(LOG_FORMAT, setup, seats, shown))


def toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


async def real_games(server: str, name: str) -> tuple[list[str], list[str]]:
    """The ids of a running and a finished game of `name`, and a token of each: the running
    game's seat to act, and a seat of the finished one."""
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        body = {"game": name, "seats": [{"type": "human"}] * 2, "seed": 3}
        running = await client.post(
            "/api/games", json=body | {"options": RUNNING_OPTIONS.get(name, {})}
        )
        assert running.status_code == 201, running.text
        created = running.json()
        shown = await view(client, created["id"])
        to_act = shown["to_act"][0]
        token = created["seats"][to_act]["token"]
        assert (await view(client, created["id"], token))["seat"] == to_act
        log = await asyncio.to_thread(finished_log, GAMES[name], 5)
        imported = await client.post(
            "/api/games/import", content=log, headers={"content-type": "application/json"}
        )
        assert imported.status_code == 201, imported.text
        over = imported.json()
        assert (await view(client, over["id"]))["status"] == "over"
        exported = await client.get(
            f"/api/games/{over['id']}/export", headers=auth(over["seats"][0]["token"])
        )
        assert exported.status_code == 200, exported.text
    return [created["id"], over["id"]], [f"Bearer {token}", f"Bearer {over['seats'][0]['token']}"]


@pytest.mark.timeout(300)
@pytest.mark.parametrize("name", sorted(GAMES))
async def test_schemathesis_finds_nothing(server: str, tmp_path: Path, name: str) -> None:
    games, tokens = await real_games(server, name)
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        CONFIG.format(examples=EXAMPLES, games=toml_list(games), tokens=toml_list(tokens))
    )
    st = Path(sys.executable).with_name("st")
    run = await asyncio.to_thread(
        subprocess.run,
        [
            str(st),
            "--config-file",
            str(config),
            "run",
            f"{server}/schema/openapi.json",
            "--seed",
            str(SEED),
            "--request-timeout",
            "5",
            # the routes of no game once (with the first title), the game's routes each time
            *([] if name == min(GAMES) else ["--include-path-regex", "[{]game_id[}]"]),
        ],
        capture_output=True,
        text=True,
        timeout=280,
    )
    report = run.stdout[-8000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    summary = run.stdout.split("SUMMARY")[-1]
    assert "passed" in run.stdout and "failure" not in summary and "error" not in summary, report
