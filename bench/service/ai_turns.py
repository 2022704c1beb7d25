"""Redis commands per AI turn, counted by Redis itself (INFO commandstats), with 1 and 2
worker processes.

Run from the project root (it starts a private redis-server on a free port, or uses --url, a
Redis of its own: its statistics are reset):

    .venv/bin/python -m bench.service.ai_turns                  # 200 games, 1 then 2 workers
    .venv/bin/python -m bench.service.ai_turns --games 50 --queues 4

A run: the worker processes (`python -m workers`, AI think time 0, QUEUES queues) start and go
idle; the statistics are reset; N games of two AI seats (Crazymino) are created through the
command service (as the API does: store, lobby, lifecycle index, due index, first enqueue);
once the index of running games is empty the statistics are read. Everything Redis ran
meanwhile is counted: the creation of the games, the queues (enqueue, poll, take, finish), the
idle polls of every worker, the sweeps, the health checks, the appends, the commands run by
the scripts, the test's own polls for the end. An AI turn is an event caused by an AI seat's
command (counted from the streams after the statistics are read).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
import redis.asyncio

from app.commands.catalogue import Catalogue
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame
from app.store.events import EventStore
from app.store.lifecycle import RUNNING
from bench.common import command_line
from bench.servers import redis_server

ROOT = Path(__file__).resolve().parents[2]


@dataclass
class Run:
    workers: int
    games: int
    turns: int
    commands: Counter[str]
    seconds: float
    usec: int = 0  # the CPU time the Redis server used meanwhile

    @property
    def usec_per_turn(self) -> float:
        return self.usec / max(1, self.turns)

    @property
    def per_turn(self) -> float:
        return sum(self.commands.values()) / max(1, self.turns)


def command_counts(client: redis.Redis) -> Counter[str]:
    """Calls of every command since the last reset (scripts' own commands included)."""
    stats: dict[str, Any] = client.info("commandstats")  # type: ignore[assignment]
    counts: Counter[str] = Counter()
    for name, fields in stats.items():
        command = name.removeprefix("cmdstat_")
        if command not in ("info", "config|resetstat"):
            counts[command] = int(fields["calls"])
    return counts


def cpu_usec(client: redis.Redis) -> int:
    """The CPU time the Redis server has used (user and system), in µs."""
    cpu: dict[str, Any] = client.info("cpu")  # type: ignore[assignment]
    return round((float(cpu["used_cpu_user"]) + float(cpu["used_cpu_sys"])) * 1e6)


def start_workers(url: str, count: int, queues: int, log: Path) -> list[subprocess.Popen[bytes]]:
    env = {**os.environ, "REDIS_URL": url, "AI_THINK_SECONDS": "0", "QUEUES": str(queues)}
    with log.open("ab") as out:
        return [
            subprocess.Popen(
                [sys.executable, "-m", "workers"], cwd=ROOT, env=env, stdout=out, stderr=out
            )
            for _ in range(count)
        ]


def stop_all(procs: list[subprocess.Popen[bytes]]) -> None:
    for proc in procs:
        proc.terminate()
    for proc in procs:
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


async def play(url: str, games: int, timeout: float) -> tuple[list[str], float]:
    """Create `games` games of two AI seats; wait until none is running. (ids, seconds)"""
    client = redis.asyncio.Redis.from_url(url)
    try:
        from app.base.config import Settings
        from app.runtime import machine_service, queue_pools

        settings = Settings(redis_url=url, queues=int(os.environ.get("BENCH_QUEUES", "4")))
        pools = await queue_pools(settings, client)
        service = machine_service(settings, client, pools, Catalogue.with_extras()).service
        started = time.monotonic()
        seats = [SeatRequest("ai", level="easy"), SeatRequest("ai", level="normal")]
        ids = []
        for seed in range(games):
            table, _ = await service.create(CreateGame("crazymino", seats, seed=seed))
            ids.append(table.id)
        while await client.zcard(RUNNING):
            if time.monotonic() - started > timeout:
                raise TimeoutError(f"{await client.zcard(RUNNING)} games still running")
            await asyncio.sleep(0.25)
        seconds = time.monotonic() - started
        for each in {id(p): p for p in pools}.values():
            await each.aclose()
        return ids, seconds
    finally:
        await client.aclose()


async def ai_turns(url: str, ids: list[str]) -> int:
    client = redis.asyncio.Redis.from_url(url)
    try:
        store = EventStore(client)
        turns = 0
        for game_id in ids:
            stored = await store.read(game_id)
            # One AI command appends one batch of events stamped with one time and its seat:
            # count the batches (two commands of a seat in the same ms count once: the count
            # of turns can only be low, the cost per turn only high).
            last = None
            for event in stored:
                if event.by is not None and (event.at, event.by) != last:
                    turns += 1
                last = (event.at, event.by)
        return turns
    finally:
        await client.aclose()


def measure(url: str, games: int, workers: int, queues: int, log: Path, timeout: float) -> Run:
    """One run on the (otherwise idle) Redis at `url`: its data is flushed first."""
    client = redis.Redis.from_url(url)
    client.flushdb()
    os.environ["BENCH_QUEUES"] = str(queues)
    procs = start_workers(url, workers, queues, log)
    try:
        deadline = time.monotonic() + 20
        while len(client.keys("arq:queue:*:health-check")) < queues:  # type: ignore[arg-type]
            if time.monotonic() > deadline:
                raise RuntimeError(f"the workers did not start: {log.read_text()[-2000:]}")
            time.sleep(0.1)
        time.sleep(0.5)
        client.config_resetstat()
        cpu = cpu_usec(client)
        ids, seconds = asyncio.run(play(url, games, timeout))
        commands, usec = command_counts(client), cpu_usec(client) - cpu
    finally:
        stop_all(procs)
        client.close()
    return Run(workers, games, asyncio.run(ai_turns(url, ids)), commands, seconds, usec)


@contextlib.contextmanager
def redis_url(given: str | None) -> Iterator[str]:
    """The Redis given, or a private one for this run."""
    if given:
        yield given
        return
    with redis_server() as server:
        yield server.url


def report(run: Run) -> str:
    top = ", ".join(f"{c} {n / max(1, run.turns):.2f}" for c, n in run.commands.most_common(8))
    return (
        f"| {run.workers} | {run.games} | {run.turns} | {sum(run.commands.values())} | "
        f"{run.per_turn:.2f} | {run.usec_per_turn:.1f} | {run.turns / run.seconds:.0f} | {top} |"
    )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--queues", type=int, default=4)
    parser.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--url", help="a Redis of its own (flushed; statistics reset)")
    parser.add_argument("--timeout", type=float, default=300)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as folder, redis_url(args.url) as url:
        print(command_line())
        print(
            "| workers | games | AI turns | commands | per AI turn | Redis CPU µs per turn"
            " | turns/s | most, per turn |"
        )
        print("| --- | --- | --- | --- | --- | --- | --- | --- |")
        for workers in args.workers:
            run = measure(
                url, args.games, workers, args.queues, Path(folder) / "w.log", args.timeout
            )
            print(report(run), flush=True)


if __name__ == "__main__":
    main()
