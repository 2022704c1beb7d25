"""A flood of logins from many addresses against a real server process on a real Redis: the
passwords are checked `HASH_WORKERS` at a time (argon2id, 64 MiB each), so the process grows by
at most that many times 64 MiB; what cannot wait is refused at once (503 `busy_hashing` with
Retry-After); and a seated player's view answers all the while (how fast, against a quiet
server: `bench/service/login_flood.py`)."""

from __future__ import annotations

import asyncio
import contextlib
import threading
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import httpx

from tests.faults.conftest import settings
from tests.processes import RedisServer, start_server, stop

MB = 1 << 20
WORKERS = 2
#: What a flood may grow the process by: its hashes' memory, and some for the requests.
BOUND = WORKERS * 64 * MB + 48 * MB
ADDRESSES, LOGINS = 20, 400


def rss(pid: int) -> int:
    """The process's resident memory, in bytes."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    raise AssertionError("no VmRSS")


@contextlib.contextmanager
def peak_growth(pid: int) -> Iterator[list[int]]:
    """The most the process's memory grew above its start while the block ran (sampled)."""
    start, peak, done = rss(pid), [0], threading.Event()

    def sample() -> None:
        while not done.is_set():
            peak[0] = max(peak[0], rss(pid) - start)
            time.sleep(0.005)

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    try:
        yield peak
    finally:
        done.set()
        sampler.join()


async def csrf_of(client: httpx.AsyncClient) -> dict[str, str]:
    await client.get("/api/games/types")
    return {"X-CSRFToken": client.cookies["csrftoken"]}


def test_a_flood_of_logins_is_hashed_a_few_at_a_time_and_the_rest_refused_at_once(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store, TRUST_PROXY="1", HASH_WORKERS=str(WORKERS), HASH_QUEUE="8")
    env["WORKER_IN_PROCESS"] = "1"
    proc, url = start_server(env, tmp_path / "server.log")
    try:
        seen, peak, views = asyncio.run(flood(url, proc.pid))
    finally:
        stop(proc)
    assert set(seen) <= {(401, "wrong_login"), (503, "busy_hashing")}, seen
    assert seen[(503, "busy_hashing")] > 0 and seen[(401, "wrong_login")] > 0, seen
    assert peak < BOUND, f"grew {peak / MB:.0f} MiB, more than {BOUND / MB:.0f}"
    assert views and set(views) == {200}, views


async def flood(url: str, pid: int) -> tuple[Counter[tuple[int, str]], int, list[int]]:
    """Sign Ann up, seat a player, then LOGINS wrong logins at once from ADDRESSES addresses
    while the seat reads its view: what the logins were answered, the peak growth, the views'
    statuses."""
    limits = httpx.Limits(max_connections=LOGINS + 10, max_keepalive_connections=LOGINS + 10)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=120) as client:
        headers = await csrf_of(client)
        answer = await client.post(
            "/api/accounts", json={"name": "Ann", "password": "correct horse"}, headers=headers
        )
        assert answer.status_code == 201, answer.text
        body = {"game": "crazymino", "seats": [{"type": "human"}, {"type": "human"}], "seed": 3}
        created = await client.post("/api/games", json=body, headers=headers)
        assert created.status_code == 201, created.text
        game = created.json()
        seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        refused: Counter[tuple[int, str]] = Counter()

        async def log_in(number: int) -> None:
            address = {"X-Forwarded-For": f"10.9.{number % ADDRESSES}.1", **headers}
            name = "Ann" if number % 2 else f"nobody{number}"
            guess = {"name": name, "password": f"guess number {number}"}
            answer = await client.post("/api/session", json=guess, headers=address)
            refused[(answer.status_code, answer.json()["code"])] += 1
            if answer.status_code == 503:
                assert int(answer.headers["Retry-After"]) > 0

        views: list[int] = []

        async def watch(logins: asyncio.Future[list[None]]) -> None:
            while not logins.done():
                views.append(
                    (await client.get(f"/api/games/{game['id']}", headers=seat)).status_code
                )
                await asyncio.sleep(0.05)

        await log_in(0)  # the hashing threads exist before the flood
        with peak_growth(pid) as peak:
            logins = asyncio.gather(*(log_in(n) for n in range(1, LOGINS + 1)))
            await asyncio.gather(logins, watch(logins))
        return refused, peak[0], views
