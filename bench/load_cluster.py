"""A load test with real processes on a local 3-master Redis Cluster: 3 API processes, 3
workers (one queue each), N concurrent games, bounded in time.

Run from the project root (it starts the cluster from `redis-server` on the given ports):

    .venv/bin/python -m bench.load_cluster                        # 1,000 games
    .venv/bin/python -m bench.load_cluster --games 100 --ports 7101 7102 7103

Half the games are a person against the AI: this process plays the person over HTTP (the
seat's view, then its command when it is to act), with the game's stream open (SSE) and
woken by it; the other half are AIs alone, watched by a spectator's stream. The clients go
round-robin over the API processes. At the end, for every game: it is over; its log's versions
are 1..N; every stream got exactly those ids (none lost, none twice). Counted: answers by
status (no 5xx allowed), commands and AI turns per second, POST latency, and Redis commands per
turn (INFO commandstats summed over the three nodes, reset when the games start).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import redis

from bench.common import command_line, percentile
from tests.processes import LocalCluster, free_port, start_worker, stop

ROOT = Path(__file__).resolve().parents[1]


class Tally:
    def __init__(self) -> None:
        self.statuses: Counter[int] = Counter()
        self.post_ms: list[float] = []
        self.problems: list[str] = []


async def stream(
    client: httpx.AsyncClient, game_id: str, token: str | None, ids: list[int], news: asyncio.Event
) -> None:
    """Follow the game's stream (reconnecting with Last-Event-ID) until its end."""
    while True:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        if ids:
            headers["Last-Event-ID"] = str(ids[-1])
        try:
            async with client.stream(
                "GET", f"/api/games/{game_id}/stream", headers=headers, timeout=None
            ) as answer:
                if answer.status_code != 200:
                    await asyncio.sleep(0.5)
                    continue
                async for line in answer.aiter_lines():
                    if line.startswith("id: "):
                        ids.append(int(line[4:]))
                    elif line.startswith("data: ") and '"game_ended"' in line:
                        news.set()
                        return
                    elif line == "":
                        news.set()
        except httpx.TransportError:  # a dropped stream: resume after the last id
            await asyncio.sleep(0.5)


async def call(
    client: httpx.AsyncClient, tally: Tally, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """A request, sent again after a dropped connection (counted as status 0); commands carry
    an Idempotency-Key, so a command sent again applies once."""
    while True:
        try:
            return await client.request(method, url, **kwargs)
        except httpx.TransportError:
            tally.statuses[0] += 1
            await asyncio.sleep(0.5)


async def person(client: httpx.AsyncClient, tally: Tally, game_id: str, token: str) -> list[int]:
    ids: list[int] = []
    news = asyncio.Event()
    follower = asyncio.create_task(stream(client, game_id, token, ids, news))
    auth = {"Authorization": f"Bearer {token}"}
    while True:
        shown = await call(client, tally, "GET", f"/api/games/{game_id}", headers=auth)
        tally.statuses[shown.status_code] += 1
        if shown.status_code != 200:
            await asyncio.sleep(1)
            continue
        view = shown.json()
        if view["status"] == "over":
            break
        if 0 in view["to_act"] and view["legal"]:
            command = max(view["legal"], key=lambda c: c["type"] == "place_tile")
            started = time.perf_counter()
            answer = await client.post(f"/api/games/{game_id}/commands", json=command, headers=auth)
            tally.post_ms.append((time.perf_counter() - started) * 1000)
            tally.statuses[answer.status_code] += 1
            continue
        news.clear()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(news.wait(), 5)
    await asyncio.wait_for(follower, 30)
    return ids


async def spectator(client: httpx.AsyncClient, game_id: str) -> list[int]:
    ids: list[int] = []
    await stream(client, game_id, None, ids, asyncio.Event())
    return ids


async def one_game(
    clients: list[httpx.AsyncClient], n: int, tally: Tally, starting: asyncio.Semaphore
) -> None:
    client = clients[n % len(clients)]
    human = n % 2 == 0
    seats = [{"type": "human"} if human else {"type": "ai"}, {"type": "ai", "level": "easy"}]
    body = {"game": "crazymino", "seats": seats, "seed": n}
    async with starting:  # games start a few dozen at a time, then all run at once
        while (
            answer := await call(client, tally, "POST", "/api/games", json=body)
        ).status_code != 201:
            tally.statuses[answer.status_code] += 1
            await asyncio.sleep(1)
    tally.statuses[answer.status_code] += 1
    created = answer.json()
    game_id = created["id"]
    if human:
        ids = await person(client, tally, game_id, created["seats"][0]["token"])
    else:
        ids = await spectator(client, game_id)
    log = (await call(client, tally, "GET", f"/api/games/{game_id}/events")).json()
    versions = [e["version"] for e in log["events"]]
    if versions != list(range(1, log["version"] + 1)):
        tally.problems.append(f"{game_id}: versions are not 1..N")
    if ids != versions:
        tally.problems.append(f"{game_id}: the stream got {len(ids)} ids for {len(versions)}")


def start_api(env: dict[str, str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    port = free_port()
    full = {**os.environ, **env, "PORT": str(port)}
    with log.open("ab") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "app"], cwd=ROOT, env=full, stdout=out, stderr=subprocess.STDOUT
        )
    url = f"http://127.0.0.1:{port}"
    for _ in range(200):
        try:
            if httpx.get(f"{url}/healthz", timeout=1).status_code == 200:
                return proc, url
        except httpx.TransportError:
            pass
        time.sleep(0.1)
    raise RuntimeError(f"the API did not start: {log.read_text()[-2000:]}")


def redis_counts(ports: list[int]) -> int:
    total = 0
    for port in ports:
        with redis.Redis(port=port) as node:
            stats: dict[str, Any] = node.info("commandstats")
            total += sum(
                int(f["calls"])
                for name, f in stats.items()
                if name not in ("cmdstat_info", "cmdstat_config|resetstat")
            )
    return total


async def run_games(urls: list[str], games: int, timeout: float, tally: Tally) -> float:
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
    clients = [httpx.AsyncClient(base_url=u, timeout=30, limits=limits) for u in urls]
    started = time.monotonic()
    starting = asyncio.Semaphore(30)
    try:
        await asyncio.wait_for(
            asyncio.gather(*(one_game(clients, n, tally, starting) for n in range(games))),
            timeout,
        )
    finally:
        for client in clients:
            await client.aclose()
    return time.monotonic() - started


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--ports", type=int, nargs=3, default=None)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--think", default="0.1", help="AI_THINK_SECONDS")
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder:
        home = Path(folder)
        cluster = LocalCluster(home / "cluster", ports=args.ports).start()
        procs: list[subprocess.Popen[bytes]] = []
        try:
            env = {
                "REDIS_URL": cluster.url,
                "QUEUES": "3",
                "WORKER_IN_PROCESS": "0",
                "AI_THINK_SECONDS": args.think,
                "RATE_CREATE_PER_MINUTE": "0",
                "RATE_COMMANDS_PER_MINUTE": "0",
                "MAX_OPEN_GAMES": "0",
            }
            urls = []
            for n in range(3):
                proc, url = start_api(env, home / f"api{n}.log")
                procs.append(proc)
                urls.append(url)
            for n in range(3):
                procs.append(start_worker({**env, "WORKER_QUEUES": str(n)}, home / f"w{n}.log"))
            time.sleep(2)
            for port in cluster.ports:
                with redis.Redis(port=port) as node:
                    node.config_resetstat()
            tally = Tally()
            seconds = asyncio.run(run_games(urls, args.games, args.timeout, tally))
            commands = redis_counts(cluster.ports)
            turns = 0
            with redis.RedisCluster(host="127.0.0.1", port=cluster.ports[0]) as client:
                for key in client.scan_iter(match="game:*:events", count=1000, target_nodes="all"):
                    for _, fields in client.xrange(key):
                        turns += 1 if fields.get(b"by", b"") != b"" else 0
            five = sum(n for status, n in tally.statuses.items() if status >= 500)
            print(command_line())
            print(
                json.dumps(
                    {
                        "games": args.games,
                        "seconds": round(seconds, 1),
                        "turn_events": turns,
                        "turn_events_per_s": round(turns / seconds),
                        "posts": len(tally.post_ms),
                        "post_p50_ms": round(percentile(tally.post_ms, 50), 1)
                        if tally.post_ms
                        else None,
                        "post_p99_ms": round(percentile(tally.post_ms, 99), 1)
                        if tally.post_ms
                        else None,
                        "redis_commands": commands,
                        "redis_commands_per_turn_event": round(commands / max(1, turns), 2),
                        "statuses": dict(tally.statuses),
                        "5xx": five,
                        "problems": tally.problems[:10],
                        "problem_count": len(tally.problems),
                    },
                    indent=1,
                )
            )
        finally:
            for proc in procs:
                stop(proc)
            cluster.close()


if __name__ == "__main__":
    main()
