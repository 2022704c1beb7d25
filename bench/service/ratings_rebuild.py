"""The players' ratings rebuilt from the logs of many finished games, on a private redis-server:
`Ratings.rebuild()` in process, and `python -m app ratings rebuild`, the command users run.

Run from the project root:

    .venv/bin/python -m bench.service.ratings_rebuild                        # 20,000 games
    .venv/bin/python -m bench.service.ratings_rebuild --games 500 --runs 1   # a quick look
    .venv/bin/python -m bench.service.ratings_rebuild --games 2000 --profile 25

The games are real logs stored many times between 500 accounts (`bench.service.rated_games`).
Each run rebuilds every title from nothing; the runs alternate, in process then the command.
In process, a run is what `Ratings.rebuild()` does, timed in its two parts: the known games'
ids and each game's result from its log (`known_games`, `results_of`: reading and folding the
logs), then `rebuild_from` (rating each title's games in the order of their end and writing the
records), in this one process. A run in process builds its `Ratings` afresh
(`app.rebuilding.ratings_of`, on the command's client), so that no state is cached from a run
before. The command reads and folds the logs in `--processes` processes (by default one per
CPU, as the command's own default; `--processes 1,2` times it with each); its time is the wall
time of the whole process (the interpreter's start, imports and helper processes included).
`--base DIR` times the command run from another tree too (a checkout of another commit, with
this interpreter), in the same runs. After every run the records of
every title are read back and hashed: every run must leave the same records. The load average
is read before the runs and after; the CPU that other processes used during them comes from
/proc (`machine_busy_seconds` for the whole machine, the busiest of them by name).
`--profile N` adds a cProfile of one rebuild in process, its `N` costliest functions.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import functools
import hashlib
import io
import os
import pstats
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, cast

from redis.asyncio import Redis

from app.base.config import Settings
from app.people.rating_store import title_key
from app.rebuilding import client_of, ratings_of
from bench.common import (
    busiest,
    command_line,
    cpu_seconds,
    machine,
    machine_busy_seconds,
    process_times,
    table,
)
from bench.servers import ROOT, redis_server
from bench.service.rated_games import TITLES, Log, fill, play

TARGET_S, TARGET_GAMES = 60.0, 20_000
COMMAND = "python -m app ratings rebuild"


@dataclass
class Run:
    """One rebuild: what ran, its seconds (and its parts, in process), what it recorded, the
    CPU seconds used meanwhile by it, by Redis and by every other process, and its records'
    hash."""

    kind: str
    seconds: float
    count: int
    parts: tuple[float, float] | None = None  # reading + folding, rating + writing
    printed: str = ""  # what the command said
    cpu: dict[str, float] = field(default_factory=dict)
    others: list[tuple[str, float]] = field(default_factory=list)
    digest: str = ""


async def rebuild_in_process(url: str) -> Run:
    """`Ratings.rebuild()`, its two parts timed apart."""
    client = client_of(Settings.from_env({"REDIS_URL": url}))
    ratings = ratings_of(client)
    try:
        started = time.perf_counter()
        results = await ratings.results_of(await ratings.known_games())
        read = time.perf_counter()
        await ratings.rebuild_from(results)
        done = time.perf_counter()
    finally:
        await ratings.service.store.close()
        await client.aclose()
    return Run("`Ratings.rebuild()`", done - started, len(results), (read - started, done - read))


def rebuild_command(url: str, options: list[str], where: Path = ROOT, label: str = "") -> Run:
    """`python -m app ratings rebuild` with `options`, as a process of its own, run from
    `where` (this tree, or a base to compare with)."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-m", "app", "ratings", "rebuild", *options],
        cwd=where,
        env={**os.environ, "REDIS_URL": url},
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise RuntimeError(f"the command failed ({done.returncode}):\n{done.stderr[-3000:]}")
    said = done.stdout.strip().splitlines()[-1]  # "ratings rebuilt from N finished games in S s"
    count = int(said.split(" from ")[1].split()[0])
    return Run(label or f"`{COMMAND} {shlex.join(options)}`", seconds, count, printed=said)


def ways_to_rebuild(url: str, processes: str, base: str | None) -> list[Callable[[], Run]]:
    """In process; the command with each number of `processes`; the command at `base`."""
    ways: list[Callable[[], Run]] = [lambda: asyncio.run(rebuild_in_process(url))]
    for n in processes.split(","):
        ways.append(functools.partial(rebuild_command, url, ["--processes", n]))
    if base:
        label = f"`{COMMAND}` at the base ({base})"
        ways.append(functools.partial(rebuild_command, url, [], Path(base), label))
    return ways


def measured(url: str, redis_pid: int, one: Callable[[], Run]) -> Run:
    """One rebuild (`one`) with the CPU used meanwhile."""
    mine, children = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    redis0, busy0, each0 = cpu_seconds(redis_pid), machine_busy_seconds(), process_times()
    run = one()
    each1, busy1, redis1 = process_times(), machine_busy_seconds(), cpu_seconds(redis_pid)
    mine1, children1 = (
        resource.getrusage(resource.RUSAGE_SELF),
        resource.getrusage(resource.RUSAGE_CHILDREN),
    )
    own = (mine1.ru_utime + mine1.ru_stime - mine.ru_utime - mine.ru_stime) + (
        children1.ru_utime + children1.ru_stime - children.ru_utime - children.ru_stime
    )
    redis = redis1 - redis0
    run.cpu = {"rebuild": own, "redis": redis, "others": max(0.0, busy1 - busy0 - own - redis)}
    ours = {os.getpid(), redis_pid} | (set(each1) - set(each0))  # the command's process too
    run.others = busiest(each0, each1, ours)
    run.digest = asyncio.run(records_digest(url))
    return run


async def records_digest(url: str) -> str:
    """A hash of every record of every title, as stored."""
    client = Redis.from_url(url)
    digest = hashlib.sha256()
    try:
        for title in TITLES:
            members = await cast("Awaitable[set[bytes]]", client.smembers(title_key(title, "keys")))
            keys = sorted(k.decode() for k in members)
            async with client.pipeline(transaction=False) as pipe:
                for key in keys:
                    suffix = key.split("}:", 1)[1]
                    if suffix.startswith("g:"):
                        pipe.get(key)
                    elif suffix.startswith("p:"):
                        pipe.hgetall(key)
                    else:
                        pipe.zrange(key, 0, -1, withscores=True)
                values = await pipe.execute()
            for key, value in zip(keys, values, strict=True):
                shown = sorted(value.items()) if isinstance(value, dict) else value
                digest.update(f"{key}={shown!r}\n".encode())
    finally:
        await client.aclose()
    return digest.hexdigest()[:16]


async def check_one(url: str, game_id: str) -> str:
    """A stored game read back by the service: over, every seat a player's, rated."""
    client = Redis.from_url(url)
    ratings = ratings_of(client)
    try:
        table = await ratings.service.load(game_id)
        assert table.over and all(s.player for s in table.seats), table.seats
        result = await ratings.result(game_id)
        assert result is not None and result.rated, result
        meta = await ratings.service.meta(game_id)
        where = "its archive" if meta.archived else "its stream"
        return f"{table.game.name}, {len(table.seats)} seats, {table.version} events from {where}"
    finally:
        await ratings.service.store.close()
        await client.aclose()


async def stored(url: str, logs: list[Log], games: int, players: int, archived: float) -> Any:
    client = Redis.from_url(url)
    try:
        ids = await fill(client, logs, games, players, archived)
        memory = (await client.info("memory"))["used_memory"]
    finally:
        await client.aclose()
    return ids, memory


def profile(url: str, count: int) -> str:
    """The `count` costliest functions of one rebuild in process (cProfile, by own time)."""
    profiler = cProfile.Profile()
    profiler.enable()
    asyncio.run(rebuild_in_process(url))
    profiler.disable()
    out = io.StringIO()
    stats = pstats.Stats(profiler, stream=out).strip_dirs().sort_stats("tottime")
    stats.print_stats(count)
    out.write("\nBy cumulative time:\n")
    stats.sort_stats("cumulative").print_stats(count)
    return out.getvalue()


def report(runs: list[Run], games: int) -> list[str]:
    rows = []
    for kind in dict.fromkeys(r.kind for r in runs):
        mine = [r for r in runs if r.kind == kind]
        median = statistics.median(r.seconds for r in mine)
        parts = [r.parts for r in mine if r.parts is not None]
        split = "—"
        if parts:
            read, write = (statistics.median(p[i] for p in parts) for i in (0, 1))
            split = f"{read:.1f} s / {write:.1f} s"
        cpu = {k: sum(r.cpu[k] for r in mine) / sum(r.seconds for r in mine) for k in mine[0].cpu}
        rows.append(
            [
                kind,
                f"{mine[0].count:,}",
                f"{median:.1f}",
                ", ".join(f"{r.seconds:.1f}" for r in mine),
                f"{mine[0].count / median:,.0f}",
                split,
                f"{statistics.median(r.cpu['rebuild'] for r in mine):.1f}",
                " / ".join(f"{cpu[k]:.0%}" for k in ("rebuild", "redis", "others")),
            ]
        )
    header = ["rebuild", "games", "seconds (median)", "each run", "games/s"]
    header += ["read + fold logs / rate + write", "its CPU-s (median)"]
    header += ["CPU in cores: rebuild / redis / others"]
    verdicts = []
    for kind in dict.fromkeys(r.kind for r in runs if "--processes" in r.kind):
        median = statistics.median(r.seconds for r in runs if r.kind == kind)
        scaled = median * TARGET_GAMES / games
        holds = "holds" if scaled <= TARGET_S else "does NOT hold"
        verdicts.append(f"{kind} {median:.1f} s, {scaled:.1f} s at that rate: {holds}")
    return [
        table(header, rows),
        "",
        f"Target: {TARGET_GAMES:,} games in ≤ {TARGET_S:.0f} s by the command; for {games:,} "
        f"games: {'; '.join(verdicts)}.",
    ]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.service.ratings_rebuild")
    parser.add_argument("--games", type=int, default=TARGET_GAMES, help="finished games stored")
    parser.add_argument("--logs", type=int, default=100, help="games played per title")
    parser.add_argument("--players", type=int, default=500, help="accounts that play them")
    parser.add_argument("--archived", type=float, default=0.0, help="share of games archived")
    parser.add_argument("--runs", type=int, default=3, help="runs of each way to rebuild")
    parser.add_argument("--jobs", type=int, default=2, help="processes that play the logs")
    parser.add_argument(
        "--processes",
        default=str(min(os.cpu_count() or 1, 8)),
        help="the command's --processes, comma separated for several (default: one per CPU)",
    )
    parser.add_argument("--base", help="also time the command in this tree (another commit)")
    parser.add_argument("--profile", type=int, default=0, help="profile: how many functions")
    args = parser.parse_args(argv)
    load = os.getloadavg()
    started = time.perf_counter()
    logs = play(args.logs, args.jobs)
    played = time.perf_counter() - started
    with redis_server() as server:
        started = time.perf_counter()
        ids, memory = asyncio.run(stored(server.url, logs, args.games, args.players, args.archived))
        filled = time.perf_counter() - started
        checked = asyncio.run(check_one(server.url, ids[0]))
        url, ways = server.url, ways_to_rebuild(server.url, args.processes, args.base)
        runs = [measured(url, server.pid, way) for _ in range(args.runs) for way in ways]
        profiled = profile(server.url, args.profile) if args.profile else ""
    after = os.getloadavg()
    events = [len(log.records) for log in logs]
    per_title = ", ".join(
        f"{t} {statistics.mean(len(g.records) for g in logs if g.title == t):.0f}" for t in TITLES
    )
    digests = sorted({r.digest for r in runs})
    counts = {r.count for r in runs}
    others: dict[str, float] = {}
    for run in runs:
        for name, seconds in run.others:
            others[name] = others.get(name, 0.0) + seconds
    busiest_others = sorted(others.items(), key=lambda i: -i[1])[:4]
    lines = [
        f"Command: `{command_line()}`",
        "",
        f"Machine: {machine()}; load average {load[0]:.2f} / {load[1]:.2f} / {load[2]:.2f} "
        f"(1 / 5 / 15 min) before, {after[0]:.2f} after.",
        "",
        f"Games: {args.games:,} finished rated games, copies of {len(logs)} games played by the "
        f"`easy` and `normal` AIs ({args.logs} per title, {min(events)}–{max(events)} events, "
        f"mean {statistics.mean(events):.0f}: {per_title}; played in {played:.0f} s), between "
        f"{args.players} players; {args.archived:.0%} archived; stored in {filled:.0f} s, "
        f"{memory / 2**20:,.0f} MiB in Redis. Read back: {checked}.",
        "",
        *report(runs, args.games),
        "",
        f"Every run recorded {', '.join(f'{c:,}' for c in sorted(counts))} games; records hash "
        f"{', '.join(digests)} ({'the same after every run' if len(digests) == 1 else 'DIFFER'}).",
        "Other processes' CPU during the runs, busiest first: "
        + (", ".join(f"{n} {s:.1f} CPU-s" for n, s in busiest_others) or "none"),
    ]
    print("\n".join(lines))
    if profiled:
        print("\nProfile of one rebuild in process:\n")
        print(profiled)
    if len(digests) != 1 or counts != {args.games}:
        sys.exit("the runs did not all record every game alike")


if __name__ == "__main__":
    main()
