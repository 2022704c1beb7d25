"""Timers end to end, with real processes on a real Redis: an API process that schedules, a
worker process (`arq workers.main.WorkerSettings`) that fires, each killed in turn.

The game is the test suite's dice race, whose rounds end by a server timer. These tests use a
Redis database of their own, so no other test's worker can fire their timers.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from client import auth
from conftest import start_server, start_worker, stop_server
from prometheus_client.parser import text_string_to_metric_families

from tests.processes import database, free_port
from tests.waiting import until

RACE = "tests.games.dice_race:DICE_RACE"


@pytest.fixture
def url(redis_url: str) -> Iterator[str]:
    """A database of the test Redis for these tests alone, empty at the start."""
    yield database(redis_url, 5)


def env(url: str, **more: str) -> dict[str, str]:
    return {"REDIS_URL": url, "WORKER_IN_PROCESS": "0", "EXTRA_GAMES": RACE, **more}


async def race(
    client: httpx.AsyncClient, seats: int, seconds: float, rounds: int
) -> dict[str, Any]:
    body = {
        "game": "dice_race",
        "seats": [{"type": "human"}] * seats,
        "options": {"round_seconds": seconds, "rounds": rounds},
    }
    answer = await client.post("/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def finished_log(client: httpx.AsyncClient, game_id: str) -> list[dict[str, Any]]:
    async def over() -> list[dict[str, Any]] | None:
        log = (await client.get(f"/api/games/{game_id}/events")).json()
        events: list[dict[str, Any]] = log["events"]
        return events if log["status"] == "over" else None

    return await until(over, poll=0.1)


async def jobs_run(client: httpx.AsyncClient, metrics: str, job: str, result: str) -> float:
    """How many jobs `job` ended with `result` in the worker serving its measures at `metrics`."""
    text = (await client.get(metrics)).text
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            if sample.name == "boardgames_jobs_total" and sample.labels == {
                "job": job,
                "result": result,
            }:
                return float(sample.value)
    return 0.0


def round_ends(log: list[dict[str, Any]]) -> list[tuple[dict[str, Any], int]]:
    """Each round's end, with the deadline of that round."""
    deadlines = {
        e["event"]["round"]: e["event"]["deadline"]
        for e in log
        if e["event"]["type"] == "round_started"
    }
    return [(e, deadlines[e["event"]["round"]]) for e in log if e["event"]["type"] == "round_ended"]


def assert_fired_once_never_early(log: list[dict[str, Any]], rounds: int) -> None:
    """Each round ended once, by its timer, never before its deadline (how late is measured in
    bench/, as a ratio: a busy machine makes it later, never wrong)."""
    ends = round_ends(log)
    assert [e["event"]["round"] for e, _ in ends] == list(range(1, rounds + 1)), "once per round"
    for end, deadline in ends:
        assert end["by"] is None and end["event"]["timed_out"]
        assert end["at"] >= deadline, f"fired {deadline - end['at']} ms before its deadline"


async def test_a_worker_process_fires_each_timer_once_never_early(url: str, tmp_path: Path) -> None:
    api, base = start_server(env(url), tmp_path / "api.log")
    worker = start_worker(env(url), tmp_path / "worker.log")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            created = await race(client, 2, 1.5, 2)
            assert_fired_once_never_early(await finished_log(client, created["id"]), 2)
    finally:
        worker.kill()
        stop_server(api)


async def test_a_timer_fires_after_the_api_that_scheduled_it_was_killed(
    url: str, tmp_path: Path
) -> None:
    api, base = start_server(env(url), tmp_path / "api.log")
    worker = start_worker(env(url), tmp_path / "worker.log")
    other = None
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            created = await race(client, 2, 2, 1)
        api.kill()
        api.wait()
        other, base = start_server(env(url), tmp_path / "api2.log")
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            assert_fired_once_never_early(await finished_log(client, created["id"]), 1)
    finally:
        worker.kill()
        if other is not None:
            stop_server(other)


async def test_a_timer_fires_after_its_worker_was_killed_and_a_new_one_started(
    url: str, tmp_path: Path
) -> None:
    api, base = start_server(env(url), tmp_path / "api.log")
    first = start_worker(env(url), tmp_path / "worker1.log")
    second = None
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            created = await race(client, 2, 4, 1)
            first.kill()
            first.wait()
            second = start_worker(env(url), tmp_path / "worker2.log")
            assert_fired_once_never_early(await finished_log(client, created["id"]), 1)
    finally:
        if second is not None:
            second.kill()
        stop_server(api)


async def test_a_timer_made_stale_by_a_command_does_nothing(url: str, tmp_path: Path) -> None:
    api, base = start_server(env(url), tmp_path / "api.log")
    port = free_port()
    worker = start_worker(env(url, METRICS_PORT=str(port)), tmp_path / "worker.log")
    try:
        async with httpx.AsyncClient(base_url=base, timeout=10) as client:
            created = await race(client, 1, 3, 2)  # time enough to stop round 1 first
            game_id, token = created["id"], created["seats"][0]["token"]
            stopped = await client.post(
                f"/api/games/{game_id}/commands", json={"type": "stop"}, headers=auth(token)
            )
            assert stopped.status_code == 200, stopped.text  # round 1 ends by the command
            log = await finished_log(client, game_id)  # round 2 ends by its timer
            metrics = f"http://127.0.0.1:{port}/metrics"
            # Round 1's timer job ran too, and found nothing to do.
            await until(lambda: jobs_run(client, metrics, "fire_timer", "stale"))
            after = (await client.get(f"/api/games/{game_id}/events")).json()["events"]
    finally:
        worker.kill()
        stop_server(api)
    assert after == log, "a timer wrote after the game ended"
    (first, _), (second, deadline) = round_ends(log)
    assert first["by"] == 0 and not first["event"]["timed_out"]
    assert second["by"] is None and second["event"]["timed_out"]
    assert second["at"] >= deadline
