"""A whole Mondo over HTTP with real processes: a person against an AI, three rounds of 15 s,
the rounds ended by timers that a separate worker process fires, that worker killed in round 1
and another started; the final scores are the boards' scores recomputed from the log, and the
exported log replays to the same result."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path
from typing import Any

import httpx
import msgspec
from client import auth

from domain.mondo.game import MONDO
from domain.mondo.model import RoundEnded, RoundStarted
from domain.mondo.table import scores_now
from tests.processes import database, start_server, start_worker, stop
from tests.waiting import until

ENV = {"WORKER_IN_PROCESS": "0", "AI_THINK_SECONDS": "0"}


async def place_some(
    client: httpx.AsyncClient, game_id: str, token: str, tiles: int, rng: random.Random
) -> None:
    """Take a tile and lay it on an open space, `tiles` times, as a person would."""
    for _ in range(tiles):
        shown = (await client.get(f"/api/games/{game_id}", headers=auth(token))).json()
        takes = [c for c in shown["legal"] if c["type"] == "take_tile"]
        if not shown["state"]["running"] or not takes:
            return
        took = await client.post(
            f"/api/games/{game_id}/commands", json=rng.choice(takes), headers=auth(token)
        )
        if took.status_code != 200:  # the AI took it first, or the round is over
            continue
        shown = (await client.get(f"/api/games/{game_id}", headers=auth(token))).json()
        places = [c for c in shown["legal"] if c["type"] == "place_tile"]
        if places:
            await client.post(
                f"/api/games/{game_id}/commands", json=rng.choice(places), headers=auth(token)
            )


async def round_is(client: httpx.AsyncClient, game_id: str, number: int, running: bool) -> None:
    async def there() -> bool:
        state = (await client.get(f"/api/games/{game_id}")).json()["state"]
        return bool(state["over"] or (state["round"] == number and state["running"] == running))

    await until(there, poll=0.2)


async def test_a_person_and_an_ai_play_three_timed_rounds(redis_url: str, tmp_path: Path) -> None:
    env = {"REDIS_URL": database(redis_url, 9), **ENV}
    api, base = start_server(env, tmp_path / "api.log")
    worker = start_worker(env, tmp_path / "worker1.log")
    rng = random.Random(3)
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            seats = [{"type": "human", "name": "Ann"}, {"type": "ai"}]
            options = {"round_seconds": 15, "break_seconds": 2}
            answer = await client.post(
                "/api/games", json={"game": "mondo", "seats": seats, "seed": 5, "options": options}
            )
            assert answer.status_code == 201, answer.text
            game_id, token = answer.json()["id"], answer.json()["seats"][0]["token"]
            # Round 1: Ann lays a few tiles; the worker is killed and another starts.
            await place_some(client, game_id, token, 4, rng)
            worker.kill()
            worker.wait()
            worker = start_worker(env, tmp_path / "worker2.log")
            await place_some(client, game_id, token, 2, rng)
            for number in (2, 3):
                await round_is(client, game_id, number, True)
                await place_some(client, game_id, token, 5, rng)
                if number == 2:
                    chip = await client.post(
                        f"/api/games/{game_id}/commands",
                        json={"type": "take_bonus"},
                        headers=auth(token),
                    )
                    assert chip.status_code == 200, chip.text
            while (final := (await client.get(f"/api/games/{game_id}")).json())["status"] != "over":
                await asyncio.sleep(0.3)
            log = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
            exported = await client.get(f"/api/games/{game_id}/export")
            imported = await client.post("/api/games/import", content=exported.content)
            assert imported.status_code == 201, imported.text
            again = (await client.get(f"/api/games/{imported.json()['id']}")).json()
    finally:
        stop(worker)
        stop(api)
    check_rounds(log, final)
    assert again["scores"] == final["scores"] and again["standings"] == final["standings"]


def check_rounds(log: list[dict[str, Any]], final: dict[str, Any]) -> None:
    """Each round's recorded scores are its boards' scores, recomputed from the log; round 1
    ended by its timer, never before its deadline (a worker was killed in it); the
    totals are the sums of the rounds."""
    events = msgspec.convert([e["event"] for e in log], type=list[MONDO.event_type])
    state, totals, deadline = MONDO.initial(), [0, 0], 0
    for entry, event in zip(log, events, strict=True):
        if isinstance(event, RoundStarted):
            deadline = event.deadline
        if isinstance(event, RoundEnded):
            recomputed = scores_now(state)
            assert [s.total for s in recomputed] == [s.total for s in event.scores], event.round
            assert recomputed == event.scores
            totals = [t + s.total for t, s in zip(totals, event.scores, strict=True)]
            if event.round == 1:
                assert event.timed_out and entry["by"] is None
                assert entry["at"] >= deadline, entry["at"] - deadline
        state = MONDO.evolve(state, event)
    assert MONDO.is_over(state) and state.round == 3
    assert final["scores"] == totals
    placed_by_ann = [e for e in log if e["event"]["type"] == "tile_placed" and e["by"] == 0]
    assert placed_by_ann, "Ann laid tiles"
