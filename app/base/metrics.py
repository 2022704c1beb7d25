"""What a process measures, for Prometheus: `GET /metrics` on an API process, and on a worker
process the port `METRICS_PORT` when it is set.

Names start with `boardgames_`. Counters count since the process started; the queue depth and
the subscribers are read when scraped.
"""

from __future__ import annotations

import functools
from typing import Any

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry()

COMMANDS = Counter(
    "boardgames_commands",
    "Commands handled, by game and outcome (applied, replayed, refused, unchanged, busy).",
    ["game", "outcome"],
    registry=REGISTRY,
)
COMMAND_SECONDS = Histogram(
    "boardgames_command_seconds",
    "Time to handle a command in the service (load, decide, append).",
    ["game"],
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
    registry=REGISTRY,
)


@functools.cache
def commands(game: str, outcome: str) -> Any:
    """The commands counter of a game and outcome (labels looked up once: games are few)."""
    return COMMANDS.labels(game, outcome)


@functools.cache
def command_seconds(game: str) -> Any:
    """The command latency histogram of a game."""
    return COMMAND_SECONDS.labels(game)


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
