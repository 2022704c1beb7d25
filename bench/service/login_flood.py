"""A flood of logins against one API process: a seated player's view, `/healthz` and the
process's memory, quiet and while 400 wrong logins from 20 addresses arrive at once.

Run from the project root:

    .venv/bin/python -m bench.service.login_flood

The service runs as one uvicorn process on a private redis-server, trusting X-Forwarded-For
so that the logins come from 20 addresses, with the limits per address off (the flood meets
only the bounded hashing: `HASH_WORKERS`, `HASH_QUEUE`). A seated player reads its view one
request after another, quiet (200 reads) and then for as long as the flood lasts; the ratio
of the two is what a player notices.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx

from bench.common import percentile, table
from bench.servers import redis_server, report_header, uvicorn_server

SERVICE = "app.main:create_app"
ADDRESSES, LOGINS, QUIET_READS = 20, 400, 200
MB = 1 << 20
NO_LIMITS = {
    "RATE_CREATE_PER_MINUTE": "0",
    "RATE_VIEWS_PER_MINUTE": "0",
    "RATE_LOGINS_PER_MINUTE": "0",
    "RATE_LOGINS_PER_NAME": "0",
    "MAX_OPEN_GAMES": "0",
}


def rss(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) * 1024
    return 0


async def timed(client: httpx.AsyncClient, path: str, headers: dict[str, str]) -> float:
    began = time.perf_counter()
    answer = await client.get(path, headers=headers)
    assert answer.status_code == 200, answer.text
    return (time.perf_counter() - began) * 1000


async def measure(url: str, pid: int) -> dict[str, Any]:
    limits = httpx.Limits(max_connections=LOGINS + 10, max_keepalive_connections=LOGINS + 10)
    async with httpx.AsyncClient(base_url=url, limits=limits, timeout=300) as client:
        await client.get("/api/games/types")
        csrf = {"X-CSRFToken": client.cookies["csrftoken"]}
        body = {"name": "Ann", "password": "correct horse"}
        assert (await client.post("/api/accounts", json=body, headers=csrf)).status_code == 201
        seats = [{"type": "human"}, {"type": "human"}]
        made = await client.post(
            "/api/games", json={"game": "crazymino", "seats": seats, "seed": 3}, headers=csrf
        )
        game = made.json()
        view = f"/api/games/{game['id']}"
        seat = {"Authorization": f"Bearer {game['seats'][0]['token']}"}
        quiet = [await timed(client, view, seat) for _ in range(QUIET_READS)]
        quiet_health = [await timed(client, "/healthz", {}) for _ in range(50)]
        start, peak, done = rss(pid), [0], threading.Event()

        def sample() -> None:
            while not done.is_set():
                peak[0] = max(peak[0], rss(pid) - start)
                time.sleep(0.005)

        answers: Counter[str] = Counter()
        waits: list[float] = []

        async def log_in(number: int) -> None:
            headers = {"X-Forwarded-For": f"10.9.{number % ADDRESSES}.1", **csrf}
            guess = {"name": "Ann", "password": f"guess number {number}"}
            began = time.perf_counter()
            answer = await client.post("/api/session", json=guess, headers=headers)
            waits.append(time.perf_counter() - began)
            answers[f"{answer.status_code} {answer.json()['code']}"] += 1

        sampler = threading.Thread(target=sample, daemon=True)
        sampler.start()
        flood = asyncio.gather(*(log_in(n) for n in range(LOGINS)))
        busy: list[float] = []
        busy_health: list[float] = []
        while not flood.done():
            busy.append(await timed(client, view, seat))
            busy_health.append(await timed(client, "/healthz", {}))
        await flood
        done.set()
        sampler.join()
    return {
        "quiet": quiet,
        "busy": busy,
        "quiet_health": quiet_health,
        "busy_health": busy_health,
        "answers": answers,
        "longest_login": max(waits),
        "peak": peak[0],
    }


def report(found: dict[str, Any], workers: int, queue: int) -> str:
    quiet, busy = found["quiet"], found["busy"]
    rows = []
    for label, a, b in (
        ("seated player's view", quiet, busy),
        ("`/healthz`", found["quiet_health"], found["busy_health"]),
    ):
        q50, b50 = percentile(a, 50), percentile(b, 50)
        q95, b95 = percentile(a, 95), percentile(b, 95)
        rows.append(
            [
                label,
                f"{q50:.1f} / {q95:.1f}",
                f"{b50:.1f} / {b95:.1f} / {max(b):.1f} ({len(b)} reads)",
                f"{b50 / q50:.1f}× / {b95 / q95:.1f}×",
            ]
        )
    answered = ", ".join(f"{n} {code}" for code, n in sorted(found["answers"].items()))
    return "\n".join(
        [
            report_header(f"A flood of logins: {LOGINS} from {ADDRESSES} addresses at once"),
            f"`HASH_WORKERS={workers}`, `HASH_QUEUE={queue}`.\n",
            table(["ms", "quiet p50 / p95", "flood p50 / p95 / max", "ratio p50 / p95"], rows),
            "",
            f"Logins answered: {answered}; the longest took {found['longest_login']:.1f} s. "
            f"The process grew by at most {found['peak'] / MB:.0f} MiB "
            f"({workers} × 64 MiB = {workers * 64} MiB).",
        ]
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hash-workers", type=int, default=2)
    parser.add_argument("--hash-queue", type=int, default=32)
    args = parser.parse_args()
    with redis_server() as store:
        env = {
            "REDIS_URL": store.url,
            "WORKER_IN_PROCESS": "1",
            "TRUST_PROXY": "1",
            "HASH_WORKERS": str(args.hash_workers),
            "HASH_QUEUE": str(args.hash_queue),
            **NO_LIMITS,
        }
        with uvicorn_server(SERVICE, env) as server:
            found = asyncio.run(measure(server.url, server.pid))
    print(report(found, args.hash_workers, args.hash_queue))


if __name__ == "__main__":
    main()
