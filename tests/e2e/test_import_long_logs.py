"""Any finished game exports and imports: the longest log of each title measured by
`bench.games.log_sizes` (past the 64 KiB every other route takes) goes through import, export
and import again over HTTP, and replays to the same end."""

from __future__ import annotations

import asyncio
from pathlib import Path

import httpx
import pytest
from client import view

from bench.games.log_sizes import play

#: A probe of the edges (held in the fault suite too: `pytest -m faults`).
pytestmark = pytest.mark.faults

#: The games with the largest export of each title in the measured run (docs/benchmarks.md).
LONGEST = [
    ("crazymino", 104, True),  # 4 people at a turn clock, 57,935 bytes
    ("bazaar", 143, False),  # 6 AI seats, 1,483 events, 166,751 bytes
    ("bazaar", 143, True),  # 6 people at a turn clock, 1,908 events, 221,542 bytes
    ("mondo", 997, False),  # 4 AI seats, 68,028 bytes
]
JSON = {"content-type": "application/json"}
#: A Mondo game recorded with the first tile set (`docs/rules/versions.md`), totals 93 and 76.
FIRST_TILES = Path(__file__).parents[1] / "unit" / "recorded" / "mondo_first_tiles.json"


@pytest.mark.parametrize(("name", "seed", "people"), LONGEST)
async def test_the_longest_log_of_each_title_exports_and_imports(
    server: str, name: str, seed: int, people: bool
) -> None:
    events, log = await asyncio.to_thread(play, name, seed, people)
    assert len(log) > 56_000
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        first = await client.post("/api/games/import", content=log, headers=JSON)
        assert first.status_code == 201, first.text
        exported = await client.get(f"/api/games/{first.json()['id']}/export")
        assert exported.status_code == 200, exported.text
        assert exported.content == log  # the same file, byte for byte
        again = await client.post("/api/games/import", content=exported.content, headers=JSON)
        assert again.status_code == 201, again.text
        for created in (first.json(), again.json()):
            rebuilt = await view(client, created["id"])
            assert rebuilt["status"] == "over" and rebuilt["version"] == events


async def test_an_import_past_its_limit_is_413_and_other_routes_keep_64_kib(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        huge = b'{"format": "boardgames-log/2", "pad": "' + b"x" * (1024 * 1024) + b'"}'
        answer = await client.post("/api/games/import", content=huge, headers=JSON)
        assert answer.status_code == 413 and answer.json()["code"] == "body_too_large"
        assert "1,024 KiB" in answer.json()["message"]
        big = b'{"game": "crazymino", "x": "' + b"x" * (64 * 1024) + b'"}'
        answer = await client.post("/api/games", content=big, headers=JSON)
        assert answer.status_code == 413 and "64 KiB" in answer.json()["message"]


async def test_a_mondo_log_of_the_first_tiles_imports_with_its_scores(server: str) -> None:
    """Played before the tiles changed, it names no rules version: the server checks it with
    the first tiles, keeps the scores it was played to and exports it naming version 1."""
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        answer = await client.post(
            "/api/games/import", content=FIRST_TILES.read_bytes(), headers=JSON
        )
        assert answer.status_code == 201, answer.text
        game_id = answer.json()["id"]
        shown = await view(client, game_id)
        assert shown["status"] == "over"
        assert [s["total"] for s in shown["state"]["seats"]] == [93, 76]
        exported = (await client.get(f"/api/games/{game_id}/export")).json()
        assert exported["events"][0]["event"]["rules"] == 1
