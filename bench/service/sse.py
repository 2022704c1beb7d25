"""Server-sent events: delivery latency to 1,000 subscribers, service against a bare fan-out.

Run from the project root:

    .venv/bin/python -m bench.service.sse            # full run (about 6 minutes)
    .venv/bin/python -m bench.service.sse --quick    # a short run (about 25 s)

The service runs as one uvicorn process on a private redis-server; 1,000 subscribers (spectators)
follow 100 two-human Crazymino games, 10 per game, from two client processes, while one more
process (this one) posts the games' precomputed commands, paced, round-robin over the games. A
delivery's latency runs from the POST's send time to the moment its `id:` line reaches the
subscriber (clocks: CLOCK_MONOTONIC, shared by all processes of the machine).

The baseline, measured in the same run: a bare Litestar app whose POST hands its body, in
process, to a bounded queue per subscriber of one topic, each read by its own SSE response:
the same HTTP stack and the same shape of traffic, without Redis, the domain or redaction. It
also runs the issue's shape: one topic, every message to all 1,000 subscribers.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import multiprocessing
import multiprocessing.synchronize
import statistics
import time
from collections import defaultdict
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from typing import Any

import msgspec
from litestar import Litestar, Request, get, post
from litestar.response import ServerSentEvent, ServerSentEventMessage

from bench.common import HOST, cpu_seconds, percentile, table
from bench.servers import (
    Connection,
    Server,
    read_chunks,
    read_head,
    redis_server,
    report_header,
    uvicorn_server,
)
from bench.service.http_commands import Play, Script, script, service_games

SERVICE = "app.main:create_app"
FANOUT = "bench.service.sse:fanout_app"
CLIENT_PROCESSES = 2
Receipt = tuple[int, int, float]  # (game or topic number, event id, monotonic receipt time)

# -- the bare fan-out app -------------------------------------------------------------------------


def fanout_app() -> Litestar:
    """GET /sub/{topic}: SSE of what POST /pub/{topic} receives, via a bounded queue each."""
    topics: dict[str, set[asyncio.Queue[tuple[int, str]]]] = defaultdict(set)
    sequence: dict[str, int] = defaultdict(int)

    async def messages(
        topic: str, inbox: asyncio.Queue[tuple[int, str]]
    ) -> AsyncIterator[ServerSentEventMessage]:
        try:
            while True:
                number, data = await inbox.get()
                yield ServerSentEventMessage(data=data, id=number)
        finally:
            topics[topic].discard(inbox)

    @get("/sub/{topic:str}")
    async def subscribe(topic: str) -> ServerSentEvent:
        inbox: asyncio.Queue[tuple[int, str]] = asyncio.Queue(maxsize=512)
        topics[topic].add(inbox)
        return ServerSentEvent(messages(topic, inbox))

    @post("/pub/{topic:str}", status_code=200)
    async def publish(request: Request[Any, Any, Any], topic: str) -> dict[str, int]:
        data = (await request.body()).decode()
        sequence[topic] += 1
        for inbox in list(topics[topic]):
            with contextlib.suppress(asyncio.QueueFull):
                inbox.put_nowait((sequence[topic], data))
        return {"version": sequence[topic]}

    @get("/healthz")
    async def health() -> dict[str, str]:
        return {"status": "ok"}

    return Litestar(route_handlers=[subscribe, publish, health])


# -- subscriber processes -----------------------------------------------------------------------


async def _follow(
    port: int,
    number: int,
    path: str,
    gate: asyncio.Semaphore,
    connected: list[int],
    out: list[Receipt],
) -> None:
    async with gate:  # a bounded number of connections being opened at once
        reader, writer = await asyncio.open_connection(HOST, port)
    try:
        request = f"GET {path} HTTP/1.1\r\nHost: {HOST}\r\nAccept: text/event-stream\r\n\r\n"
        writer.write(request.encode())
        status, _ = await read_head(reader)
        if status != 200:
            raise RuntimeError(f"GET {path}: {status}")
        connected.append(number)
        pending = b""
        async for chunk in read_chunks(reader):
            now = time.monotonic()
            pending += chunk
            *messages, pending = pending.split(b"\r\n\r\n")
            for message in messages:
                for line in message.split(b"\r\n"):
                    if line.startswith(b"id: "):
                        out.append((number, int(line[4:]), now))
    finally:
        writer.close()


async def _subscribers(
    port: int,
    paths: list[tuple[int, str]],
    ready: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
    deadline: float,
) -> tuple[list[Receipt], int]:
    out: list[Receipt] = []
    connected: list[int] = []
    gate = asyncio.Semaphore(32)
    tasks = [asyncio.create_task(_follow(port, n, p, gate, connected, out)) for n, p in paths]
    while len(connected) < len(paths) and time.monotonic() < deadline:
        if any(t.done() for t in tasks):
            break  # a subscriber failed: report how many got through
        await asyncio.sleep(0.05)
    ready.set()
    while not stop.is_set() and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    count = sum(not t.done() for t in tasks)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    return out, count


def subscriber_process(
    port: int,
    paths: list[tuple[int, str]],
    ready: multiprocessing.synchronize.Event,
    stop: multiprocessing.synchronize.Event,
    results: multiprocessing.Queue[tuple[list[Receipt], int]],
    deadline: float,
) -> None:
    """Follow each path's stream until `stop`; put the receipts and the number connected."""
    results.put(asyncio.run(_subscribers(port, paths, ready, stop, deadline)))


# -- one measurement -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Shape:
    """Who follows what, and how fast messages come."""

    name: str
    topics: int  # games (service) or topics (bare)
    subscribers: int  # in all
    rate: float  # posts per second, over all topics


@dataclass
class Run:
    latencies: list[float] = field(default_factory=list)
    expected: int = 0
    received: int = 0
    connected: int = 0
    posts: int = 0
    errors: int = 0
    server_cpu: float = 0.0


class Poster:
    """Paced POSTs, round-robin over topics; remembers each event id's send time."""

    def __init__(self, port: int, targets: list[Play]) -> None:
        self.port = port
        self.targets = targets
        self.sent: dict[tuple[int, int], float] = {}
        self.errors = 0
        self.posts = 0

    async def run(self, rate: float, seconds: float) -> None:
        free = [Connection(self.port) for _ in range(8)]
        every = [*free]
        pending: set[asyncio.Task[None]] = set()
        start = time.monotonic()
        for n in range(round(rate * seconds)):
            delay = start + n / rate - time.monotonic()
            if delay > 0:
                await asyncio.sleep(delay)
            number = n % len(self.targets)
            if self.targets[number].done >= len(self.targets[number].moves):
                continue
            if not free:
                every.append(Connection(self.port))
                free.append(every[-1])
            task = asyncio.create_task(self._post(number, free.pop(), free))
            pending.add(task)
            task.add_done_callback(pending.discard)
        if pending:
            await asyncio.wait(pending, timeout=10)
        for connection in every:
            connection.close()

    async def _post(self, number: int, connection: Connection, free: list[Connection]) -> None:
        play = self.targets[number]
        body, header = play.next()
        play.done += 1
        sent = time.monotonic()
        try:
            status, answer = await connection.request("POST", play.path, body, header)
        except (OSError, asyncio.IncompleteReadError):
            status, answer = 0, b""
        free.append(connection)
        if status != 200:
            self.errors += 1
            return
        self.posts += 1
        decoded = msgspec.json.decode(answer)
        versions = [e["version"] for e in decoded.get("events", [])] or [decoded["version"]]
        for version in versions:
            self.sent[(number, version)] = sent


def _measure(
    server: Server, shape: Shape, targets: list[Play], paths: list[str], seconds: float
) -> Run:
    context = multiprocessing.get_context("spawn")
    ready = [context.Event() for _ in range(CLIENT_PROCESSES)]
    stop = context.Event()
    results: multiprocessing.Queue[tuple[list[Receipt], int]] = context.Queue()
    per_topic = shape.subscribers // shape.topics
    follows = [(n % shape.topics, paths[n % shape.topics]) for n in range(shape.subscribers)]
    deadline = time.monotonic() + seconds + 90
    processes = [
        context.Process(
            target=subscriber_process,
            args=(server.port, follows[k::CLIENT_PROCESSES], ready[k], stop, results, deadline),
        )
        for k in range(CLIENT_PROCESSES)
    ]
    for process in processes:
        process.start()
    try:
        for event in ready:
            event.wait(timeout=60)
        time.sleep(1.0)  # let the subscriptions settle (backlogs sent, readers blocked)
        poster = Poster(server.port, targets)
        cpu = cpu_seconds(server.pid)
        began = time.monotonic()
        asyncio.run(poster.run(shape.rate, seconds))
        time.sleep(0.5)  # the last deliveries
        server_cpu = (cpu_seconds(server.pid) - cpu) / (time.monotonic() - began)
        stop.set()
        receipts: list[Receipt] = []
        connected = 0
        for _ in processes:
            part, count = results.get(timeout=60)
            receipts += part
            connected += count
    finally:
        stop.set()
        for process in processes:
            process.join(timeout=30)
            if process.is_alive():
                process.kill()
    run = Run(connected=connected, posts=poster.posts, errors=poster.errors, server_cpu=server_cpu)
    run.expected = len(poster.sent) * per_topic
    for number, version, at in receipts:
        sent = poster.sent.get((number, version))
        if sent is not None:
            run.latencies.append(at - sent)
    run.received = len(run.latencies)
    return run


def run_service(
    shape: Shape, redis: Server, scripts: list[Script], seconds: float, factory: str = SERVICE
) -> Run:
    env = {"REDIS_URL": redis.url, "WORKER_IN_PROCESS": "0"}
    with uvicorn_server(factory, env) as server:
        games = asyncio.run(service_games(server.port, scripts, shape.topics))
        paths = [g.path.removesuffix("/commands") + "/stream" for g in games]
        return _measure(server, shape, games, paths, seconds)


def run_bare(shape: Shape, scripts: list[Script], seconds: float) -> Run:
    with uvicorn_server(FANOUT) as server:
        body = _sample_event(scripts[0])
        topics = [Play(f"/pub/t{n}", ("", ""), ((0, body),) * 100_000) for n in range(shape.topics)]
        paths = [f"/sub/t{n}" for n in range(shape.topics)]
        return _measure(server, shape, topics, paths, seconds)


def _sample_event(item: Script) -> bytes:
    """A message the size of a service's SSE data: one placed tile, as the service sends it."""
    from domain.crazymino.game import CRAZYMINO
    from domain.game import Setup

    setup = Setup(seed=item.seed, players=("Player 1", "Player 2"))
    state = CRAZYMINO.replay(CRAZYMINO.start(setup))
    (seat,) = CRAZYMINO.to_act(state)
    command = msgspec.json.decode(item.moves[0][1], type=CRAZYMINO.command_type)
    event = CRAZYMINO.decide(state, seat, command)[0]
    return msgspec.json.encode({"version": 2, "event": event})


# -- the report -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Plan:
    repeats: int
    seconds: float
    shapes: tuple[tuple[Shape, bool], ...]  # (shape, also on the service)


GAMES_10 = Shape("1,000 subscribers, 100 games, 10 commands/s", 100, 1000, 10)
GAMES_100 = Shape("1,000 subscribers, 100 games, 100 commands/s", 100, 1000, 100)
BROADCAST = Shape("1,000 subscribers, 1 topic, 10 messages/s (the issue's)", 1, 1000, 10)
FULL = Plan(3, 12.0, ((GAMES_10, True), (GAMES_100, True), (BROADCAST, False)))
SHAPES = {"games10": GAMES_10, "games100": GAMES_100, "broadcast": BROADCAST}
QUICK = Plan(1, 3.0, ((GAMES_10, True), (BROADCAST, False)))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f}"


def _row(server: str, shape: Shape, runs: list[Run]) -> list[str]:
    p99s = [percentile(r.latencies, 99) for r in runs]
    return [
        shape.name,
        server,
        f"{sum(r.received for r in runs):,} / {sum(r.expected for r in runs):,}",
        _ms(statistics.median(percentile(r.latencies, 50) for r in runs)),
        _ms(statistics.median(p99s)),
        ", ".join(_ms(p) for p in p99s),
        _ms(statistics.median(max(r.latencies, default=0.0) for r in runs)),
        f"{statistics.median(r.server_cpu for r in runs) * 100:.0f}%",
        f"{min(r.connected for r in runs)} / {sum(r.errors for r in runs)}",
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="one short repeat of two shapes")
    parser.add_argument("--shape", choices=sorted(SHAPES), action="append", help="only these")
    parser.add_argument(
        "--service",
        metavar="MODULE:FACTORY",
        default=SERVICE,
        help=f"the service's app factory, for trying a variant ({SERVICE})",
    )
    args = parser.parse_args()
    plan = QUICK if args.quick else FULL
    if args.shape:
        chosen = [SHAPES[name] for name in args.shape]
        plan = Plan(plan.repeats, plan.seconds, tuple(s for s in FULL.shapes if s[0] in chosen))
    scripts = [script(seed) for seed in range(2000, 2016)]
    rows = []
    verdict = []
    with redis_server() as redis:
        for shape, on_service in plan.shapes:
            runs: dict[str, list[Run]] = {"bare fan-out": [], "service": []}
            for _ in range(plan.repeats):
                runs["bare fan-out"].append(run_bare(shape, scripts, plan.seconds))
                if on_service:
                    run = run_service(shape, redis, scripts, plan.seconds, args.service)
                    runs["service"].append(run)
            for server, done in runs.items():
                if done:
                    rows.append(_row(server, shape, done))
            if on_service and shape is GAMES_10:
                p99 = statistics.median(percentile(r.latencies, 99) for r in runs["service"])
                holds = "holds" if p99 <= 0.150 else "MISSED"
                verdict.append(f"Target p99 ≤ 150 ms ({shape.name}): {_ms(p99)} ms, {holds}.")
    header = [
        "shape",
        "server",
        "deliveries received / expected",
        "p50 ms",
        "p99 ms (median)",
        "p99 of each repeat",
        "max ms",
        "server CPU",
        "connected / POST errors",
    ]
    print(
        "\n".join(
            [
                report_header("Server-sent events"),
                f"{plan.repeats} repeat(s) of {plan.seconds:g} s of posting per shape, each on a "
                f"fresh uvicorn process; subscribers in {CLIENT_PROCESSES} client processes; "
                "latency from the POST's send time to the subscriber's receipt."
                + (f" Service: `{args.service}`." if args.service != SERVICE else ""),
                "",
                table(header, rows),
                "",
                *verdict,
            ]
        )
    )


if __name__ == "__main__":
    main()
