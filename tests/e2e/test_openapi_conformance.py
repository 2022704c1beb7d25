"""The OpenAPI document tells the truth: Schemathesis, with every check on, finds no 5xx and no
conformance failure in any route, on a live server holding real games.

Schemathesis's engine runs as its command-line tool would (every phase: coverage, fuzzing,
stateful), with a bounded number of examples per operation and a fixed seed. One policy is
configured, the API's own: a request that matches the schema may be answered 422 when the
game refuses it (its rules, seats or options) and 429 when a limit is reached; never 400.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import httpx
from client import auth, create

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
"path.game_id" = {{ dictionary = "games", probability = 0.6 }}
"header.Authorization" = {{ dictionary = "tokens", probability = 0.5 }}

[[operations]]
include-name = "GET /api/games/{{game_id}}/stream"
parameters = {{ "path.game_id" = "no-such-game" }}
"""


def toml_list(values: list[str]) -> str:
    return "[" + ", ".join(f'"{v}"' for v in values) + "]"


async def test_schemathesis_finds_nothing(server: str, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        running = await create(client, [{"type": "human"}, {"type": "human"}], seed=3)
        over = await create(client, [{"type": "ai"}, {"type": "ai"}], seed=4)
        tokens = [f"Bearer {s['token']}" for s in running["seats"]]
        assert (
            await client.get(f"/api/games/{running['id']}", headers=auth(tokens[0][7:]))
        ).status_code == 200
    config = tmp_path / "schemathesis.toml"
    config.write_text(
        CONFIG.format(
            examples=40,
            games=toml_list([running["id"], over["id"]]),
            tokens=toml_list(tokens),
        )
    )
    st = Path(sys.executable).with_name("st")
    run = subprocess.run(
        [
            str(st),
            "--config-file",
            str(config),
            "run",
            f"{server}/schema/openapi.json",
            "--seed",
            "20261130",
            "--request-timeout",
            "5",
        ],
        capture_output=True,
        text=True,
        timeout=600,
    )
    report = run.stdout[-6000:] + run.stderr[-2000:]
    assert run.returncode == 0, report
    assert "passed" in run.stdout and "failures" not in run.stdout.split("SUMMARY")[-1], report
