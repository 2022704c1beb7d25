"""Commands over HTTP: the real service against a ceiling app, each in one uvicorn process.

Run from the project root:

    .venv/bin/python -m bench.service.http_commands            # full run (about 3 minutes)
    .venv/bin/python -m bench.service.http_commands --quick    # a short run (about 15 s)

The ceiling is a Litestar app whose POST does only one Lua append (`EventStore.append`, the
service's own script and client pool) to a stream that was created beforehand. The service plays
many 2-human Crazymino games: each game's whole command sequence is precomputed offline by
replaying the domain from the same seed, so the load generator only sends bytes. Both run behind
the same uvicorn command on a private redis-server, and the two are measured alternately.

* sustained: a closed loop of `--connections` keep-alive connections, each playing whole games
  one command after the other; commands/s over the measured window (after a warm-up).
* latency: an open loop paced at half the service's median sustained rate; each command's latency
  counts from its scheduled send time (no coordinated omission), over many games.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import math
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import time
from collections import Counter, deque
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field, replace
from typing import Any

import msgspec
from litestar import Litestar, Request, get, post
from redis.asyncio import BlockingConnectionPool, Redis

from app.store.events import EventStore
from bench.common import cpu_seconds, machine_busy_seconds, percentile, table
from bench.servers import Connection, Server, redis_server, report_header, uvicorn_server
from domain.crazymino.game import CRAZYMINO
from domain.game import Setup

SERVICE = "app.main:create_app"
CEILING = "bench.service.http_commands:ceiling_app"
PLAYERS = ("Player 1", "Player 2")  # the service's default names for two human seats
_encoder = msgspec.json.Encoder()

# -- the ceiling app -----------------------------------------------------------------------------


def ceiling_app() -> Litestar:
    """POST /append/{id}: one Lua append of the body to the game's stream, nothing else."""
    versions: dict[str, int] = {}

    @contextlib.asynccontextmanager
    async def lifespan(app: Litestar) -> AsyncIterator[None]:
        pool = BlockingConnectionPool.from_url(os.environ["REDIS_URL"], max_connections=64)
        redis = Redis(connection_pool=pool)  # as app/runtime.py opens the commands client
        app.state.store = EventStore(redis)
        yield
        await redis.aclose()

    @post("/create/{game_id:str}", status_code=201)
    async def create(request: Request[Any, Any, Any], game_id: str) -> dict[str, int]:
        await request.app.state.store.create(game_id, {}, [], time.time())
        versions[game_id] = 0
        return {"version": 0}

    @post("/append/{game_id:str}", status_code=200)
    async def append(request: Request[Any, Any, Any], game_id: str) -> dict[str, int]:
        store: EventStore = request.app.state.store
        result = await store.append(game_id, versions[game_id], [await request.body()])
        versions[game_id] = result.last
        return {"version": result.last}

    @get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return Litestar(route_handlers=[create, append, health], lifespan=[lifespan])


# -- precomputed games ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Script:
    """A whole 2-player game from a seed: each command's seat and JSON body, in order."""

    seed: int
    moves: tuple[tuple[int, bytes], ...]


def script(seed: int) -> Script:
    """Seeded random legal play to the end, as the service will replay it from the same seed."""
    choose = random.Random(seed)
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=seed, players=PLAYERS)))
    moves = []
    while not CRAZYMINO.is_over(state):
        (seat,) = CRAZYMINO.to_act(state)
        command = choose.choice(CRAZYMINO.legal(state, seat))
        state = CRAZYMINO.fold(state, CRAZYMINO.decide(state, seat, command))
        moves.append((seat, _encoder.encode(command)))
    return Script(seed, tuple(moves))


@dataclass
class Play:
    """One game on a server: where its commands go, each seat's header, and how far it is."""

    path: str
    headers: tuple[str, ...]
    moves: tuple[tuple[int, bytes], ...]
    done: int = 0

    def next(self) -> tuple[bytes, str]:
        seat, body = self.moves[self.done]
        return body, self.headers[seat]


async def service_games(port: int, scripts: list[Script], count: int) -> list[Play]:
    """`count` new 2-human games on the service, cycling through the scripts' seeds."""
    chosen = list(itertools.islice(itertools.cycle(scripts), count))

    async def create(work: Iterator[Script], plays: list[Play]) -> None:
        connection = Connection(port)
        for item in work:
            seats = [{"type": "human"}, {"type": "human"}]
            body = _encoder.encode({"game": "crazymino", "seats": seats, "seed": item.seed})
            status, answer = await connection.request("POST", "/api/games", body)
            if status != 201:
                raise RuntimeError(f"creating a game: {status} {answer[:200]!r}")
            created = msgspec.json.decode(answer)
            tokens = {s["seat"]: s["token"] for s in created["seats"]}
            headers = tuple(f"Authorization: Bearer {tokens[n]}\r\n" for n in range(2))
            plays.append(Play(f"/api/games/{created['id']}/commands", headers, item.moves))
        connection.close()

    plays: list[Play] = []
    work = iter(chosen)
    await asyncio.gather(*(create(work, plays) for _ in range(8)))
    await _check_first(port, plays[0])
    return plays


async def _check_first(port: int, play: Play) -> None:
    """The server's view of a new game agrees with the precomputed script."""
    connection = Connection(port)
    seat, body = play.moves[0]
    path = play.path.removesuffix("/commands")
    status, answer = await connection.request("GET", path, headers=play.headers[seat])
    connection.close()
    view = msgspec.json.decode(answer)
    legal = [_encoder.encode(c) for c in view["legal"]]
    if status != 200 or view["to_act"] != [seat] or body not in legal:
        raise RuntimeError("the service's game does not follow the precomputed script")


async def ceiling_games(port: int, scripts: list[Script], count: int, tag: str) -> list[Play]:
    """`count` streams on the ceiling app, fed the same bodies as the service's games."""
    chosen = itertools.islice(itertools.cycle(scripts), count)
    plays = []
    connection = Connection(port)
    header = f"Authorization: Bearer {'x' * 32}\r\n"
    for n, item in enumerate(chosen):
        status, _ = await connection.request("POST", f"/create/{tag}-{n}")
        if status != 201:
            raise RuntimeError(f"creating a stream on the ceiling app: {status}")
        plays.append(Play(f"/append/{tag}-{n}", (header, header), item.moves))
    connection.close()
    return plays


# -- load ----------------------------------------------------------------------------------------


@dataclass
class Load:
    """What one measured window gave."""

    sent: int = 0  # commands answered within the window
    errors: int = 0  # answers other than 200, or broken connections (whole run)
    seconds: float = 0.0
    latencies: list[float] = field(default_factory=list)  # seconds, within the window
    skipped: int = 0  # paced sends with no idle game (the generator's own limit)
    exhausted: bool = False  # every game finished before the window closed
    cpu: dict[str, float] = field(default_factory=dict)  # share of one core, by process

    @property
    def rate(self) -> float:
        return self.sent / self.seconds if self.seconds else 0.0


class CpuMeter:
    """CPU shares of one core used by the server, Redis and this client over a window."""

    def __init__(self, pids: dict[str, int]) -> None:
        self.pids = pids
        self.start = self._now()

    def _now(self) -> dict[str, float]:
        usage = resource.getrusage(resource.RUSAGE_SELF)
        now = {name: cpu_seconds(pid) for name, pid in self.pids.items()}
        now["client"] = usage.ru_utime + usage.ru_stime
        return {**now, "machine": machine_busy_seconds(), "wall": time.monotonic()}

    def shares(self) -> dict[str, float]:
        """Shares of one core; `others` is what the rest of the machine used meanwhile."""
        end = self._now()
        wall = end["wall"] - self.start["wall"]
        shares = {k: (end[k] - self.start[k]) / wall for k in end if k != "wall"}
        ours = sum(shares[k] for k in self.pids) + shares["client"]
        shares["others"] = max(0.0, shares.pop("machine") - ours)
        return shares


async def closed_loop(
    port: int, plays: list[Play], connections: int, warmup: float, duration: float
) -> Load:
    """Each connection plays games one command at a time; counts answers inside the window."""
    load = Load(seconds=duration)
    queue = deque(plays)
    start = time.monotonic()
    opens, closes = start + warmup, start + warmup + duration

    async def player() -> None:
        connection = Connection(port)
        while queue and time.monotonic() < closes:
            play = queue.popleft()
            while play.done < len(play.moves) and time.monotonic() < closes:
                body, header = play.next()
                sent = time.monotonic()
                try:
                    status, _ = await connection.request("POST", play.path, body, header)
                except (OSError, asyncio.IncompleteReadError):
                    status = 0
                done = time.monotonic()
                play.done += 1
                if status != 200:
                    load.errors += 1
                    break  # the game is out of step: leave it
                if opens <= sent and done < closes:
                    load.sent += 1
                    load.latencies.append(done - sent)
        connection.close()

    await asyncio.gather(*(player() for _ in range(connections)))
    load.exhausted = time.monotonic() < closes
    return load


async def paced(port: int, plays: list[Play], rate: float, warmup: float, duration: float) -> Load:
    """An open loop: one command every 1/rate s to an idle game; latency from the schedule."""
    load = Load(seconds=duration)
    idle = deque(plays)
    free = [Connection(port) for _ in range(16)]
    every = [*free]
    start = time.monotonic() + 0.05
    opens = start + warmup
    pending: set[asyncio.Task[None]] = set()

    async def send(play: Play, connection: Connection, scheduled: float) -> None:
        body, header = play.next()
        try:
            status, _ = await connection.request("POST", play.path, body, header)
        except (OSError, asyncio.IncompleteReadError):
            status = 0
        done = time.monotonic()
        play.done += 1
        free.append(connection)
        if status != 200:
            load.errors += 1
            return
        if scheduled >= opens:
            load.sent += 1
            load.latencies.append(done - scheduled)
        if play.done < len(play.moves):
            idle.append(play)

    for n in range(round(rate * (warmup + duration))):
        scheduled = start + n / rate
        delay = scheduled - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        if not idle:
            load.skipped += 1
            continue
        if not free:
            every.append(Connection(port))
            free.append(every[-1])
        task = asyncio.create_task(send(idle.popleft(), free.pop(), scheduled))
        pending.add(task)
        task.add_done_callback(pending.discard)
    if pending:
        await asyncio.wait(pending, timeout=30)
    for connection in every:
        connection.close()
    load.exhausted = not idle and load.skipped > 0
    return load


# -- the runs ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    repeats: int
    warmup: float
    duration: float
    connections: int
    scripts: int
    budget: float  # commands/s that the games made for one window must be able to absorb
    service: str = SERVICE  # the uvicorn factory of the service


FULL = Plan(repeats=3, warmup=2.0, duration=10.0, connections=32, scripts=48, budget=4500)
QUICK = Plan(repeats=1, warmup=0.5, duration=2.0, connections=32, scripts=8, budget=4500)


def _games_for(plan: Plan, rate: float, scripts: list[Script]) -> int:
    average = statistics.mean(len(s.moves) for s in scripts)
    return int(rate * (plan.warmup + plan.duration) * 1.3 / average) + plan.connections + 8


@contextlib.contextmanager
def _server(kind: str, plan: Plan, redis: Server) -> Iterator[Server]:
    env = {"REDIS_URL": redis.url, "WORKER_IN_PROCESS": "0"}
    with uvicorn_server(plan.service if kind == "service" else CEILING, env) as server:
        yield server


async def _make(kind: str, port: int, scripts: list[Script], count: int, n: int) -> list[Play]:
    if kind == "service":
        return await service_games(port, scripts, count)
    return await ceiling_games(port, scripts, count, f"r{n}")


def run_sustained(
    kind: str, plan: Plan, redis: Server, scripts: list[Script], n: int, profile: str | None = None
) -> Load:
    with _server(kind, plan, redis) as server:
        count = _games_for(plan, plan.budget, scripts)
        plays = asyncio.run(_make(kind, server.port, scripts, count, n))
        with _py_spy(server.pid, plan, profile):
            meter = CpuMeter({"server": server.pid, "redis": redis.pid})
            load = asyncio.run(
                closed_loop(server.port, plays, plan.connections, plan.warmup, plan.duration)
            )
            load.cpu = meter.shares()
    return load


@contextlib.contextmanager
def _py_spy(pid: int, plan: Plan, path: str | None) -> Iterator[None]:
    """py-spy (if asked) records the server's stacks, collapsed, for the whole closed loop."""
    if path is None:
        yield
        return
    seconds = str(math.ceil(plan.warmup + plan.duration))
    spy_bin = shutil.which("py-spy", path=os.path.dirname(sys.executable)) or "py-spy"
    command = [spy_bin, "record", "-p", str(pid), "-o", path, "-f", "raw", "-d", seconds]
    spy = subprocess.Popen(
        [*command, "-r", "100"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        yield
    finally:
        spy.wait(timeout=60)


def run_paced(
    kind: str, plan: Plan, redis: Server, scripts: list[Script], rate: float, n: int
) -> Load:
    with _server(kind, plan, redis) as server:
        count = max(_games_for(plan, rate, scripts), 200)
        plays = asyncio.run(_make(kind, server.port, scripts, count, n))
        meter = CpuMeter({"server": server.pid, "redis": redis.pid})
        load = asyncio.run(paced(server.port, plays, rate, plan.warmup, plan.duration))
        load.cpu = meter.shares()
    return load


def profile_summary(path: str, top: int = 16) -> str:
    """Inclusive shares of the server's samples: project functions, and libraries as a whole."""
    shares: Counter[str] = Counter()
    total = 0
    with open(path) as lines:
        for line in lines:
            stack, _, count = line.rstrip().rpartition(" ")
            if "Thread._bootstrap" in stack:
                continue  # an idle helper thread (logging), not the event loop
            total += int(count)
            labels = set()
            for frame in stack.split(";"):
                function, _, where = frame.partition(" (")
                package = where.split("/", 1)[0]
                if package in ("app", "domain", "workers"):
                    labels.add(f"{where.split(':', 1)[0]}: {function}")
                elif "/" in where and package != "click":
                    labels.add(f"{package} (package, all of it)")
            shares.update(dict.fromkeys(labels, int(count)))
    rows = [[label, f"{n / total * 100:.0f}%"] for label, n in shares.most_common(top)]
    return table(["where (inclusive)", "share of samples"], rows)


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _cpu(loads: list[Load]) -> str:
    return " / ".join(
        f"{statistics.median(x.cpu[k] for x in loads) * 100:.0f}%"
        for k in ("server", "redis", "client", "others")
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short repeat of each")
    parser.add_argument("--connections", type=int, help="closed-loop connections (32)")
    parser.add_argument(
        "--service",
        metavar="MODULE:FACTORY",
        help=f"the service's app factory, for trying a variant ({SERVICE})",
    )
    parser.add_argument(
        "--py-spy",
        metavar="FILE",
        help="record the service's stacks (py-spy, collapsed) during its first sustained run;"
        " py-spy pauses the server at each sample, so that repeat's rate reads low",
    )
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    if args.connections:
        plan = replace(plan, connections=args.connections)
    if args.service:
        plan = replace(plan, service=args.service)
    scripts = [script(seed) for seed in range(1000, 1000 + plan.scripts)]
    sustained: dict[str, list[Load]] = {"ceiling": [], "service": []}
    latency: dict[str, list[Load]] = {"ceiling": [], "service": []}
    with redis_server() as redis:
        for n in range(plan.repeats):
            for kind in ("ceiling", "service"):
                profile = args.py_spy if kind == "service" and n == 0 else None
                sustained[kind].append(run_sustained(kind, plan, redis, scripts, n, profile))
        half = statistics.median(x.rate for x in sustained["service"]) / 2
        for n in range(plan.repeats):
            for kind in ("ceiling", "service"):
                latency[kind].append(run_paced(kind, plan, redis, scripts, half, n + 100))
    print(_report(plan, scripts, sustained, latency, half))
    if args.py_spy:
        print(f"\nWhere the service's time goes (py-spy, first sustained repeat, {args.py_spy}):\n")
        print(profile_summary(args.py_spy))


def _report(
    plan: Plan,
    scripts: list[Script],
    sustained: dict[str, list[Load]],
    latency: dict[str, list[Load]],
    half: float,
) -> str:
    ceiling = statistics.median(x.rate for x in sustained["ceiling"])
    service = statistics.median(x.rate for x in sustained["service"])
    rows = []
    for kind, loads in sustained.items():
        rates = [x.rate for x in loads]
        median = statistics.median(rates)
        rows.append(
            [
                kind,
                f"{median:,.0f}",
                ", ".join(f"{r:,.0f}" for r in rates),
                f"{median / ceiling * 100:.0f}%",
                _ms(statistics.median(percentile(x.latencies, 50) for x in loads)),
                _ms(statistics.median(percentile(x.latencies, 99) for x in loads)),
                _cpu(loads),
                str(sum(x.errors for x in loads))
                + (" (ran out of games)" * any(x.exhausted for x in loads)),
            ]
        )
    paced_rows = []
    for kind, loads in latency.items():
        p99s = [percentile(x.latencies, 99) for x in loads]
        paced_rows.append(
            [
                kind,
                f"{statistics.median(x.rate for x in loads):,.0f}",
                _ms(statistics.median(percentile(x.latencies, 50) for x in loads)),
                _ms(statistics.median(percentile(x.latencies, 90) for x in loads)),
                _ms(statistics.median(p99s)),
                ", ".join(_ms(p) for p in p99s),
                _ms(statistics.median(max(x.latencies, default=0.0) for x in loads)),
                _cpu(loads),
                f"{sum(x.errors for x in loads)} / {sum(x.skipped for x in loads)}",
            ]
        )
    moves = statistics.mean(len(s.moves) for s in scripts)
    verdict_rate = "holds" if service >= 0.4 * ceiling else "MISSED"
    service_p99 = statistics.median(percentile(x.latencies, 99) for x in latency["service"])
    verdict_p99 = "holds" if service_p99 <= 0.050 else "MISSED"
    return "\n".join(
        [
            report_header("Commands over HTTP"),
            f"{plan.repeats} repeat(s), alternating ceiling and service, each on a fresh uvicorn "
            f"process; windows of {plan.duration:g} s after {plan.warmup:g} s of warm-up; "
            f"{plan.connections} keep-alive connections in the closed loop; 2-human Crazymino "
            f"games of {moves:.0f} commands on average ({plan.scripts} seeds)."
            + (f" Service: `{plan.service}`." if plan.service != SERVICE else ""),
            "",
            "Sustained (closed loop):",
            "",
            table(
                [
                    "server",
                    "commands/s (median)",
                    "each repeat",
                    "of ceiling",
                    "p50 ms",
                    "p99 ms",
                    "CPU server / redis / client / others",
                    "errors",
                ],
                rows,
            ),
            "",
            f"Latency at half the service's sustained rate ({half:,.0f} commands/s, open loop, "
            "from the scheduled send time):",
            "",
            table(
                [
                    "server",
                    "commands/s",
                    "p50 ms",
                    "p90 ms",
                    "p99 ms (median)",
                    "p99 of each repeat",
                    "max ms",
                    "CPU server / redis / client / others",
                    "errors / skipped",
                ],
                paced_rows,
            ),
            "",
            f"Target ≥ 40% of the ceiling: {service / ceiling * 100:.0f}%, {verdict_rate}. "
            f"Target p99 ≤ 50 ms at half rate: {_ms(service_p99)} ms, {verdict_p99}.",
        ]
    )


if __name__ == "__main__":
    main()
