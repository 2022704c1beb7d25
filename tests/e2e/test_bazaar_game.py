"""A whole Bazaar over HTTP: a person (playing over the API) against two AI seats played by
the worker, followed by a stream to the end; the exported log replays to the same scores."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import msgspec
from client import auth, my_turn, sse, view

from domain.bazaar.game import BAZAAR
from domain.bazaar.views import BazaarView

ROOT = Path(__file__).resolve().parents[2]


async def test_a_person_and_two_ais_play_bazaar_to_the_end(server: str, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "hard"}, {"type": "ai"}]
        answer = await client.post("/api/games", json={"game": "bazaar", "seats": seats, "seed": 8})
        assert answer.status_code == 201, answer.text
        created = answer.json()
        game_id, token = created["id"], created["seats"][0]["token"]
        followed: list[dict[str, Any]] = []
        watcher = asyncio.create_task(sse(client, game_id, None, None, followed))
        while True:
            shown = await my_turn(client, game_id, token, 0, timeout=60)
            if shown["status"] == "over":
                break
            state = msgspec.convert(shown["state"], BazaarView)
            command = msgspec.to_builtins(BAZAAR.policies["normal"](state, 1, shown["now"]))
            sent = await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(token)
            )
            assert sent.status_code == 200, sent.text
        await asyncio.wait_for(watcher, 30)
        final = await view(client, game_id)
        log = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
        assert [m["id"] for m in followed] == [e["version"] for e in log]  # no gap, no repeat
        assert len(final["state"]["sales"]) == 24 and final["state"]["phase"] == "over"
        assert {e["by"] for e in log if e["by"] is not None} == {0, 1, 2}
        exported = await client.get(f"/api/games/{game_id}/export")
        assert exported.status_code == 200
        imported = await client.post("/api/games/import", content=exported.content)
        assert imported.status_code == 201, imported.text
        again = await view(client, imported.json()["id"])
    assert again["scores"] == final["scores"] and again["standings"] == final["standings"]
    path = tmp_path / "bazaar.json"
    path.write_bytes(exported.content)
    replayed = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(path)], cwd=ROOT, capture_output=True, text=True
    )
    assert replayed.returncode == 0, replayed.stderr
    for standing in final["standings"]:
        assert f"(seat {standing['seat']}): {standing['score']}" in replayed.stdout
