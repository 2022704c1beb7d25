"""Tables that never stall, with real processes on a real Redis: an API process, a worker
process (`python -m workers`) and, for bots, `examples/bot.py` processes over HTTP.

- two bots finish a game of each title through the public API alone;
- a person who lets the turn clock run out is played for, then handed to the AI;
- a person leaves, is refused a move while away, takes the seat back and plays again;
- a table whose people have all left plays to its end on its own while its API process is
  killed and another started.

These tests use a Redis database of their own, so no other test's worker takes their jobs.
"""

from __future__ import annotations

import asyncio
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from client import auth
from conftest import ROOT, start_server, start_worker, stop_server

from tests import waiting
from tests.processes import database


@pytest.fixture
def url(redis_url: str) -> Iterator[str]:
    yield database(redis_url, 11)


@pytest.fixture
def base(url: str, tmp_path: Path) -> Iterator[str]:
    """An API process and a worker process on the tests' database; the API's address."""
    api, address = start_server(env(url), tmp_path / "api.log")
    worker = start_worker(env(url), tmp_path / "worker.log")
    try:
        yield address
    finally:
        worker.kill()
        stop_server(api)


def env(url: str, **more: str) -> dict[str, str]:
    return {"REDIS_URL": url, "WORKER_IN_PROCESS": "0", **more}


async def create(client: httpx.AsyncClient, body: dict[str, Any]) -> dict[str, Any]:
    answer = await client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def log_when_over(client: httpx.AsyncClient, game_id: str) -> list[Any]:
    async def over() -> list[Any] | None:
        log = (await client.get(f"/api/games/{game_id}/events")).json()
        events: list[Any] = log["events"]
        return events if log["status"] == "over" else None

    return await waiting.until(over, poll=0.2)


def of_type(events: list[Any], kind: str) -> list[Any]:
    return [e for e in events if e["event"]["type"] == kind]


GAMES = {
    "crazymino": {},
    "bazaar": {},
    "mondo": {"round_seconds": 10, "break_seconds": 0},
}


async def test_two_bots_finish_a_game_of_each_title(base: str, tmp_path: Path) -> None:
    bots: list[subprocess.Popen[bytes]] = []
    outputs: list[Path] = []
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            games = {}
            for name, options in GAMES.items():
                people = [{"type": "human", "name": n} for n in ("Ann", "Bob")]
                created = await create(client, {"game": name, "seats": people, "options": options})
                games[name] = created["id"]
                for seat in created["seats"]:
                    command = [sys.executable, "examples/bot.py", base, created["id"]]
                    command += [seat["token"], "--seed", str(seat["seat"])]
                    # Files, not pipes: a bot must never block on a full pipe nobody reads.
                    out = tmp_path / f"{created['id']}-{seat['seat']}"
                    outputs.append(out)
                    bots.append(
                        subprocess.Popen(
                            command,
                            cwd=ROOT,
                            stdout=out.with_suffix(".out").open("wb"),
                            stderr=out.with_suffix(".err").open("wb"),
                        )
                    )
            for bot, out in zip(bots, outputs, strict=True):
                bot.wait(timeout=240)
                said, err = out.with_suffix(".out").read_text(), out.with_suffix(".err").read_text()
                assert bot.returncode == 0, err[-2000:]
                assert "(this bot)" in said and "1. " in said
            for name, game_id in games.items():
                events = await log_when_over(client, game_id)
                assert {e["by"] for e in events} >= {0, 1}, f"both bots played {name}"
    finally:
        for bot in bots:
            bot.kill()


async def test_a_late_person_is_played_for_then_handed_to_the_ai(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "easy"}]
        options = {"turn_seconds": 5, "timeouts_to_ai": 2}
        created = await create(
            client, {"game": "crazymino", "seats": seats, "options": options, "seed": 4}
        )
        events = await log_when_over(client, created["id"])
    timeouts = of_type(events, "timed_out")
    assert [(e["event"]["seat"], e["event"]["strike"], e["by"]) for e in timeouts] == [
        (0, 1, None),
        (0, 2, None),
    ]
    clocks = {n + 1: e["event"] for n, e in enumerate(of_type(events, "clock_set"))}
    for timeout in timeouts:  # fired by the worker when the clock ends, never before
        due = clocks[timeout["event"]["clock"]]["due"]
        assert timeout["at"] >= due, timeout  # how late: bench/, as a ratio
        assert events[timeout["version"]]["by"] is None  # the move after it, played for Ann
    (handed,) = of_type(events, "seat_left")
    assert handed["event"] == {
        "type": "seat_left",
        "seat": 0,
        "level": "normal",
        "reason": "timeouts",
    }
    assert "ran out of time too often" in handed["text"]
    after = [e for e in events if e["version"] > handed["version"] and e["by"] == 0]
    assert after, "the AI plays Ann's seat after the handover"


async def test_a_person_leaves_and_takes_the_seat_back(base: str) -> None:
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "easy"}]
        created = await create(client, {"game": "crazymino", "seats": seats, "seed": 6})
        game_id, token = created["id"], created["seats"][0]["token"]
        mine = await ann_to_act(client, game_id, token)
        move = mine["legal"][0]

        async def send(command: dict[str, Any]) -> httpx.Response:
            return await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(token)
            )

        left = await send({"type": "leave"})
        assert left.status_code == 200, left.text
        assert left.json()["events"][0]["event"]["type"] == "seat_left"
        refused = await send(move)
        assert refused.status_code == 409 and refused.json()["code"] == "seat_away"
        await until(client, game_id, lambda e: any(x["by"] == 0 for x in e[-3:]))
        back = await send({"type": "rejoin"})
        assert back.status_code == 200, back.text
        assert back.json()["events"][0]["text"] == "Ann took their seat back."
        mine = await ann_to_act(client, game_id, token)
        assert mine["table"]["away"] == []
        # Nobody plays for Ann now: her move at the version she saw is taken, and so is her
        # next one, after the AI's answer.
        for _ in range(2):
            played = await send({**mine["legal"][0], "expected_version": mine["version"]})
            assert played.status_code == 200, played.text
            mine = await ann_to_act(client, game_id, token, after=mine["version"])
        events = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
    kinds = [
        e["event"]["type"] for e in events if e["event"]["type"] in ("seat_left", "seat_rejoined")
    ]
    assert kinds == ["seat_left", "seat_rejoined"]


async def ann_to_act(
    client: httpx.AsyncClient, game_id: str, token: str, after: int = 0
) -> dict[str, Any]:
    """Ann's view once she is to act, at a version past `after`."""

    async def shown() -> dict[str, Any] | None:
        view: dict[str, Any] = (
            await client.get(f"/api/games/{game_id}", headers=auth(token))
        ).json()
        mine = 0 in view["to_act"] and view["legal"] and view["version"] > after
        return view if mine else None

    return await waiting.until(shown)


async def until(client: httpx.AsyncClient, game_id: str, done: Any) -> None:
    async def events() -> bool:
        return bool(done((await client.get(f"/api/games/{game_id}/events")).json()["events"]))

    await waiting.until(events)


async def test_a_table_whose_people_left_finishes_alone_across_an_api_restart(
    url: str, tmp_path: Path
) -> None:
    api, base = start_server(env(url), tmp_path / "api.log")
    worker = start_worker(env(url, AI_THINK_SECONDS="0.15"), tmp_path / "worker.log")
    other = None
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            people = [{"type": "human", "name": n} for n in ("Ann", "Bob")]
            created = await create(client, {"game": "crazymino", "seats": people, "seed": 9})
            for seat in created["seats"]:
                answer = await client.post(
                    f"/api/games/{created['id']}/commands",
                    json={"type": "leave"},
                    headers=auth(seat["token"]),
                )
                assert answer.status_code == 200, answer.text
        api.kill()  # the API dies mid-game; the worker plays on
        api.wait()
        await asyncio.sleep(1.0)
        other, base = start_server(env(url), tmp_path / "api2.log")
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            during = (await client.get(f"/api/games/{created['id']}")).json()
            assert during["status"] == "active", "the game should outlast the restart"
            events = await log_when_over(client, created["id"])
    finally:
        worker.kill()
        if other is not None:
            stop_server(other)
    assert {e["by"] for e in events if e["event"]["type"] == "tile_placed"} == {0, 1}
    assert of_type(events, "game_ended")
