"""The cluster load test's report: what the clients counted, what the audit found and what the
service's processes measured, summed into one JSON object, and whether the test passed."""

from __future__ import annotations

from collections import Counter
from typing import Any

import msgspec

from bench.common import percentile
from bench.load.audit import Audit
from bench.load.measures import bucket_percentile
from bench.load.players import Played, Tally


class ClientReport(msgspec.Struct):
    """What one client process printed."""

    began: float
    ended: float
    tally: Tally
    games: list[Played]
    failures: list[str]
    failure_count: int


class Service(msgspec.Struct):
    """What the service's side measured over the games."""

    redis_calls: dict[str, int]  # by Redis command, over the nodes
    people: int  # commands applied in the API processes
    ais: int  # commands applied in the workers: AI turns
    cpu_seconds: dict[str, float]  # by role (api, workers, redis), over the games
    #: Machine work after it was due, by job and kind of table (``ai_turn:people``): buckets
    lateness: dict[str, Counter[float]]


def _ms(values: list[float], q: float) -> float | None:
    return round(percentile(values, q), 1) if values else None


def _by_minute(posts: list[tuple[float, float]], start: float) -> list[str]:
    """The POSTs of each minute since the games began: how many, their p50 and p99."""
    minutes: dict[int, list[float]] = {}
    for sent, ms in posts:
        minutes.setdefault(int((sent - start) // 60), []).append(ms)
    return [
        f"minute {m}: {len(v)} POSTs, p50 {_ms(v, 50)} ms, p99 {_ms(v, 99)} ms"
        for m, v in sorted(minutes.items())
    ]


def _within(buckets: Counter[float], q: float, seconds: float) -> bool:
    """Whether the `q` percentile of a lateness histogram is at most `seconds` (a bucket's
    upper bound: `bucket_percentile`)."""
    total = buckets.get(float("inf"), 0)
    return not total or buckets.get(seconds, 0) >= q / 100 * total


def summary(
    reports: list[ClientReport], checked: Audit, service: Service, problems: list[str], wanted: int
) -> dict[str, Any]:
    tally = Tally()
    statuses: Counter[int] = Counter(checked.statuses)
    for report in reports:
        statuses.update(report.tally.statuses)
        tally.posts += report.tally.posts
        tally.delivery_ms += report.tally.delivery_ms
        tally.lag_ms += report.tally.lag_ms
        tally.views += report.tally.views
        tally.reconnects += report.tally.reconnects
        tally.late_wakeups += report.tally.late_wakeups
        tally.cpu_seconds += report.tally.cpu_seconds
        problems = problems + [f"client: {f}" for f in report.failures]
    games = [g for r in reports for g in r.games]
    start = min((r.began for r in reports), default=0.0)
    seconds = max((r.ended for r in reports), default=0.0) - start
    ramp = max((g.created_at for g in games if g.created_at is not None), default=start)
    post_ms = [ms for _, ms in tally.posts]
    steady = [ms for sent, ms in tally.posts if sent > ramp]
    commands = service.people + service.ais
    calls = Counter(service.redis_calls)
    redis_total = sum(calls.values())
    cpu = {**service.cpu_seconds, "clients": round(tally.cpu_seconds, 1)}
    return {
        "games": len(games),
        "kinds": dict(Counter(g.kind for g in games)),
        "seconds": round(seconds, 1),
        "all_created_after_s": round(ramp - start, 1),
        "game_seconds": {  # from its creation to its end, as its client saw it
            kind: f"p50 {_ms(durations, 50)}, max {_ms(durations, 100)}"
            for kind in ("person", "ais", "mondo", "clock")
            if (durations := [g.seconds for g in games if g.kind == kind and g.seconds])
        },
        "events": checked.events,
        "people_commands": service.people,
        "ai_turns": service.ais,
        "commands_per_s": round(commands / seconds, 1) if seconds else None,
        "ai_turns_per_s": round(service.ais / seconds, 1) if seconds else None,
        "posts": len(post_ms),
        "post_p50_ms": _ms(post_ms, 50),
        "post_p99_ms": _ms(post_ms, 99),
        "post_after_ramp_p50_ms": _ms(steady, 50),
        "post_after_ramp_p99_ms": _ms(steady, 99),
        "post_by_minute": _by_minute(tally.posts, start),
        "views": tally.views,
        "stream_deliveries": len(tally.delivery_ms),
        "delivery_p50_ms": _ms(tally.delivery_ms, 50),
        "delivery_p99_ms": _ms(tally.delivery_ms, 99),
        "late_s": {
            job: f"{b[float('inf')]} times, p50 {bucket_percentile(b, 50)}, "
            f"p99 {bucket_percentile(b, 99)}"
            for job, b in sorted(service.lateness.items())
        },
        "people_late_p99_within_1s": all(
            _within(b, 99, 1.0)
            for job, b in service.lateness.items()
            if job.endswith((":people", ":"))  # ":": a service that does not tell (all counted)
        ),
        "stream_reconnects": tally.reconnects,
        "late_wakeups": tally.late_wakeups,
        "client_lag_p50_ms": _ms(tally.lag_ms, 50),
        "client_lag_p99_ms": _ms(tally.lag_ms, 99),
        "cpu_seconds": cpu,
        "cpu_cores": {k: round(v / seconds, 2) for k, v in cpu.items()} if seconds else None,
        "redis_commands": redis_total,
        "redis_commands_per_command": round(redis_total / max(1, commands), 2),
        "redis_most_per_command": {
            k: round(v / max(1, commands), 2) for k, v in calls.most_common(10)
        },
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "5xx": sum(n for status, n in statuses.items() if status >= 500),
        "over": checked.over,
        "stalled": len(checked.stalled) + wanted - len(games),  # a client's lost report too
        "stalled_games": checked.stalled[:10],
        "bad_logs": len(checked.bad_logs),
        "lost": checked.lost,
        "repeated": checked.repeated,
        "foreign": checked.foreign,
        "out_of_order": checked.out_of_order,
        "problems": problems[:20],
    }


def passed(result: dict[str, Any], wanted: int) -> bool:
    """Every game over, none stalled, no 5xx, every log 1..N, every stream exactly its log, and
    the machine work of games with people (AI replies, turn clocks, round timers) at most a
    second late at p99."""
    return (
        result["people_late_p99_within_1s"]
        and result["games"] == wanted
        and result["over"] == wanted
        and result["stalled"] == 0
        and result["5xx"] == 0
        and result["bad_logs"] == 0
        and result["lost"] == result["repeated"] == result["foreign"] == 0
        and result["out_of_order"] == 0
        and not result["problems"]
    )
