"""What the cluster load test reads from the service's processes: Redis's command counts, the
commands applied and the AI turns' lateness (from the processes' Prometheus measures), and the
CPU time of each process."""

from __future__ import annotations

import subprocess
from collections import Counter
from typing import Any

import httpx
import redis

from bench.common import cpu_seconds


def redis_commands(ports: list[int]) -> Counter[str]:
    """Calls by Redis command, summed over the nodes (the counting's own INFO left out)."""
    calls: Counter[str] = Counter()
    for port in ports:
        with redis.Redis(port=port) as node:
            stats: dict[str, Any] = node.info("commandstats")
            for name, fields in stats.items():
                calls[name.removeprefix("cmdstat_")] += int(fields["calls"])
    for own in ("info", "config|resetstat"):
        calls.pop(own, None)
    return calls


def cpu_of(procs: list[subprocess.Popen[bytes]]) -> float:
    """User and system CPU time of running processes, summed (`bench.common.cpu_seconds`)."""
    return sum(cpu_seconds(proc.pid) for proc in procs)


def applied(urls: list[str]) -> int:
    """Commands applied (not replayed, not refused) by the processes whose /metrics are given."""
    samples = _samples(urls, "boardgames_commands_total")
    return int(sum(value for labels, value in samples if 'outcome="applied"' in labels))


def _samples(urls: list[str], name: str) -> list[tuple[str, float]]:
    """(labels, value) of every sample of the measure `name` of the processes at `urls`."""
    found = []
    for url in urls:
        for line in httpx.get(f"{url}/metrics", timeout=10).text.splitlines():
            if line.startswith(name + "{"):
                labels, value = line[len(name) + 1 :].rsplit("} ", 1)
                found.append((labels, float(value)))
    return found


def lateness(urls: list[str]) -> dict[str, Counter[float]]:
    """How late machine work started after it was due, by job and kind of table
    (``ai_turn:people``: an AI turn taken from the queue at a table with a person;
    ``ai_turn_driven:ais``: played on in process in a game of AIs alone; ``fire_timer:people``:
    a timer): counts by histogram bucket (upper bound in seconds, cumulative), summed over the
    processes."""
    buckets: dict[str, Counter[float]] = {}
    for labels, value in _samples(urls, "boardgames_job_lateness_seconds_bucket"):
        fields = dict(part.split("=", 1) for part in labels.split(","))
        job, bound = fields["job"].strip('"'), fields["le"].strip('"')
        table = fields.get("table", '""').strip('"')
        upper = float("inf") if bound == "+Inf" else float(bound)
        buckets.setdefault(f"{job}:{table}", Counter())[upper] += int(value)
    return buckets


def bucket_percentile(buckets: Counter[float], q: float) -> str:
    """Where the `q` percentile falls: "<= X s", X the upper bound of its histogram bucket
    (cumulative counts), or "> X s" past the last finite bound."""
    total = buckets.get(float("inf"), 0)
    if not total:
        return "none"
    upper = min(bound for bound, n in buckets.items() if n >= q / 100 * total)
    if upper == float("inf"):
        return f"> {max(b for b in buckets if b != upper)} s"
    return f"<= {upper} s"
