"""What a process measures, for Prometheus: `GET /metrics` on an API process, and on a worker
process the port `METRICS_PORT` when it is set.

Names start with `boardgames_`. Counters count since the process started; the queue depth and
the subscribers are read when scraped.
"""

from __future__ import annotations

import bisect
from collections.abc import Iterator

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.metrics_core import CounterMetricFamily, HistogramMetricFamily, Metric
from prometheus_client.registry import Collector

REGISTRY = CollectorRegistry()

#: The bounds of `boardgames_command_seconds`'s buckets.
COMMAND_BUCKETS = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
#: Their `le` labels, as Prometheus writes them.
_LE = (*(str(bound) for bound in COMMAND_BUCKETS), "+Inf")


class CommandTally(Collector):
    """`boardgames_commands` and `boardgames_command_seconds`, counted in plain dicts.

    Every command counts here, so the counting is kept to a dict lookup and an addition or two:
    prometheus_client's own Counter and Histogram take a lock per count and per observation
    (about 2% of a socket command's CPU under load; `docs/benchmarks.md`). The service counts
    from its event loop's thread only; a scrape, from any thread, copies each dict's items at
    once (`sorted` of them runs no Python code in between)."""

    def __init__(self) -> None:
        self.counts: dict[tuple[str, str], int] = {}
        self.timings: dict[str, list[float]] = {}  # per game: each bucket's count, +Inf, sum

    def count(self, game: str, outcome: str) -> None:
        """One command of `game` with this outcome (applied, replayed, refused, unchanged, busy)."""
        key = (game, outcome)
        self.counts[key] = self.counts.get(key, 0) + 1

    def time(self, game: str, seconds: float) -> None:
        """How long a command of `game` took in the service."""
        timing = self.timings.get(game)
        if timing is None:
            timing = self.timings[game] = [0.0] * (len(COMMAND_BUCKETS) + 2)
        timing[bisect.bisect_left(COMMAND_BUCKETS, seconds)] += 1
        timing[-1] += seconds

    def collect(self) -> Iterator[Metric]:
        commands = CounterMetricFamily(
            "boardgames_commands",
            "Commands handled, by game and outcome (applied, replayed, refused, unchanged, busy).",
            labels=["game", "outcome"],
        )
        for (game, outcome), count in sorted(self.counts.items()):
            commands.add_metric([game, outcome], count)
        seconds = HistogramMetricFamily(
            "boardgames_command_seconds",
            "Time to handle a command in the service (load, decide, append).",
            labels=["game"],
        )
        for game, timing in sorted(self.timings.items()):
            cumulative, buckets = 0.0, []
            for bound, observed in zip(_LE, timing, strict=False):  # (the sum comes last)
                cumulative += observed
                buckets.append((bound, cumulative))
            seconds.add_metric([game], buckets, timing[-1])
        yield commands
        yield seconds


COMMANDS = CommandTally()
REGISTRY.register(COMMANDS)


CONFLICTS = Counter(
    "boardgames_append_conflicts",
    "Appends refused because the game had moved on; each is retried (decided again).",
    ["game"],
    registry=REGISTRY,
)
SUBSCRIBERS = Gauge(
    "boardgames_stream_subscribers", "Live stream subscribers in this process.", registry=REGISTRY
)
QUEUE_DEPTH = Gauge(
    "boardgames_queue_depth",
    "Jobs waiting in the work queue (when scraped).",
    ["queue"],
    registry=REGISTRY,
)
JOBS = Counter(
    "boardgames_jobs",
    "Jobs of machine work run, by job and result.",
    ["job", "result"],
    registry=REGISTRY,
)
JOB_SECONDS = Histogram(
    "boardgames_job_seconds",
    "Time a job of machine work ran.",
    ["job"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1.0, 5.0),
    registry=REGISTRY,
)
JOB_LATENESS = Histogram(
    "boardgames_job_lateness_seconds",
    "How long after it was due a job started: an AI turn after its think time, a timer after "
    "its deadline; by job and by table (`people`: a person sits at it, `ais`: AIs alone).",
    ["job", "table"],
    buckets=(0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0),
    registry=REGISTRY,
)
AI_THINK_SECONDS = Histogram(
    "boardgames_ai_think_seconds",
    "Time an AI policy took to choose a command, by game and level.",
    ["game", "level"],
    buckets=(0.0005, 0.001, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5),
    registry=REGISTRY,
)
RETRIES = Counter(
    "boardgames_work_retries",
    "Machine work asked for again: an AI turn that thought again after another seat moved "
    "(ai_turn), a game whose overdue work the sweep asked for again (sweep).",
    ["kind"],
    registry=REGISTRY,
)
JOB_WAIT_SECONDS = Histogram(
    "boardgames_job_wait_seconds",
    "How long a job waited in its queue after it was due, by queue.",
    ["queue"],
    buckets=(0.001, 0.005, 0.01, 0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0),
    registry=REGISTRY,
)
SPARE_WAITING = Gauge(
    "boardgames_spare_waiting",
    "AI turns of games of AIs alone waiting for a free slot of this process (`app.machine.lanes`).",
    registry=REGISTRY,
)
SPARE_HELD = Counter(
    "boardgames_spare_held",
    "Times a worker held AI turns of games of AIs alone back because people's work started "
    "late (`app.machine.lanes`).",
    registry=REGISTRY,
)
DRIVEN_GAMES = Gauge(
    "boardgames_driven_games",
    "Games whose AI turns this process plays in process (`app.machine.driver`).",
    registry=REGISTRY,
)
