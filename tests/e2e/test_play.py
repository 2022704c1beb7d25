"""A whole game over HTTP: a person against the AI, watched live, exported, imported, replayed."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
from client import auth, create, my_turn, sse, view

ROOT = Path(__file__).resolve().parents[2]


async def test_a_person_plays_a_whole_game_against_the_ai(server: str, tmp_path: Path) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=30) as client:
        created = await create(
            client, [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "normal"}], seed=7
        )
        game_id, token = created["id"], created["seats"][0]["token"]
        watched: list[dict[str, Any]] = []
        watcher = asyncio.create_task(sse(client, game_id, token, None, watched))
        first_part: list[dict[str, Any]] = []  # a spectator who leaves after six events
        interrupted = asyncio.create_task(
            sse(client, game_id, None, None, first_part, stop_after=6)
        )
        commands = 0
        while True:
            shown = await my_turn(client, game_id, token, 0)
            if shown["status"] == "over":
                break
            assert shown["legal"], "the seat to act has no legal command"
            command = max(
                shown["legal"], key=lambda c: c["type"] == "place_tile"
            )  # place if it can
            answer = await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(token)
            )
            assert answer.status_code == 200, answer.text
            commands += 1
        await asyncio.wait_for(watcher, 20)
        await asyncio.wait_for(interrupted, 20)
        resumed: list[dict[str, Any]] = []
        await asyncio.wait_for(sse(client, game_id, None, first_part[-1]["id"], resumed), 20)

        log = (await client.get(f"/api/games/{game_id}/events")).json()
        versions = [e["version"] for e in log["events"]]
        assert versions == list(range(1, log["version"] + 1)) and commands > 5
        assert [m["id"] for m in watched] == versions
        assert [m["data"]["event"]["type"] for m in watched] == [
            e["event"]["type"] for e in log["events"]
        ]
        assert [m["id"] for m in first_part + resumed] == versions

        final = await view(client, game_id)
        assert final["status"] == "over" and final["to_act"] == []
        by_seat = sorted(final["standings"], key=lambda s: s["seat"])
        assert final["scores"] == [s["score"] for s in by_seat] and max(final["scores"]) > 0

        exported = await client.get(f"/api/games/{game_id}/export")
        assert (
            exported.status_code == 200 and "attachment" in exported.headers["content-disposition"]
        )
        imported = await client.post("/api/games/import", content=exported.content)
        assert imported.status_code == 201, imported.text
        rebuilt = await view(client, imported.json()["id"])
        assert rebuilt["standings"] == final["standings"] and rebuilt["version"] == final["version"]

    path = tmp_path / "game.json"
    path.write_bytes(exported.content)
    printed = subprocess.run(
        [sys.executable, "-m", "app", "replay", str(path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    for standing in final["standings"]:
        name = final["seats"][standing["seat"]]["name"]
        assert (
            f"{standing['rank']}. {name} (seat {standing['seat']}): {standing['score']}" in printed
        )
