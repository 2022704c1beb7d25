"""What every benchmark shares: timing (samples, medians, percentiles), the report (the command,
the machine, a Markdown table) and the machine's measures (free ports, CPU time of a process and
of the whole machine). `bench/servers.py` starts the processes the service benchmarks need.

A *sample* is the wall time (`time.perf_counter_ns`) of `number` calls of one case, divided by
`number`; `number` is calibrated once per benchmark so that a sample lasts at least
`min_sample_ns` (timer overhead stays negligible). Samples go round-robin over the cases (the
positions or games), after a warm-up of every case. By default the garbage collector is disabled
for the duration of each sample (as `timeit` does) and runs between samples.
"""

from __future__ import annotations

import gc
import math
import os
import platform
import shlex
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import msgspec

Case = Callable[[], object]
HOST = "127.0.0.1"
_TICKS = os.sysconf("SC_CLK_TCK")


@dataclass
class Stats:
    """Per-call times (ns) of one benchmark, pooled over rounds, and each round's median."""

    samples: list[float] = field(default_factory=list)
    round_medians: list[float] = field(default_factory=list)

    def add_round(self, samples: Sequence[float]) -> None:
        self.samples.extend(samples)
        self.round_medians.append(statistics.median(samples))

    @property
    def n(self) -> int:
        return len(self.samples)

    @property
    def median(self) -> float:
        return statistics.median(self.samples)

    @property
    def p90(self) -> float:
        return percentile(self.samples, 90)


def percentile(values: Sequence[float], q: float) -> float:
    """The nearest-rank percentile `q` (0-100) of `values`; NaN when there are none."""
    if not values:
        return math.nan
    ordered = sorted(values)
    return ordered[max(1, math.ceil(q / 100 * len(ordered))) - 1]


def _time(case: Case, number: int, keep_gc: bool) -> float:
    """Per-call ns of one sample: `number` calls of `case`."""
    disable = not keep_gc and gc.isenabled()
    if disable:
        gc.disable()
    try:
        start = time.perf_counter_ns()
        for _ in range(number):
            case()
        stop = time.perf_counter_ns()
    finally:
        if disable:
            gc.enable()
    return (stop - start) / number


def calibrate(cases: Sequence[Case], min_sample_ns: int) -> int:
    """Calls per sample so that one sample of the slowest case lasts at least `min_sample_ns`."""
    slowest = max(_time(case, 1, keep_gc=False) for case in cases)
    return max(1, math.ceil(min_sample_ns / max(slowest, 1.0)))


def sample(
    cases: Sequence[Case], *, samples: int, number: int, warmup: int = 3, keep_gc: bool = False
) -> list[float]:
    """`samples` per-call times (ns), round-robin over `cases`, after `warmup` calls of each."""
    for case in cases:
        for _ in range(warmup):
            case()
    gc.collect()
    return [_time(cases[i % len(cases)], number, keep_gc) for i in range(samples)]


def fmt_ns(ns: float) -> str:
    """A duration for people: µs under a millisecond, else ms."""
    if ns < 1_000_000:
        return f"{ns / 1_000:.1f} µs"
    return f"{ns / 1_000_000:.3f} ms"


def command_line() -> str:
    """The command that started this process, as typed (interpreter included)."""
    return shlex.join(getattr(sys, "orig_argv", sys.argv))


def machine() -> str:
    """One line on where the numbers come from (with redis-server's version where it is)."""
    try:
        words = subprocess.run(
            ["redis-server", "--version"], capture_output=True, text=True, check=False
        ).stdout.split()
    except OSError:
        words = []
    redis = next((f", redis-server {w[2:]}" for w in words if w.startswith("v=")), "")
    return (
        f"{os.cpu_count()} CPUs shared by every process of the run, "
        f"Python {platform.python_version()} ({platform.python_implementation()}), "
        f"msgspec {msgspec.__version__}{redis}, {platform.system()} {platform.machine()}"
    )


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User plus system CPU time of a process so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / _TICKS


def machine_busy_seconds() -> float:
    """CPU time spent by every process of the machine so far, in core-seconds (/proc/stat)."""
    fields = [int(x) for x in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    idle = fields[3] + fields[4]  # idle, iowait
    return (sum(fields[:8]) - idle) / _TICKS


def process_times() -> dict[int, tuple[str, float]]:
    """Every process's name and CPU seconds so far (/proc), by pid; a Python process is named
    by the module it runs (`python -m app`)."""
    found = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:  # it ended meanwhile
            continue
        name = stat[stat.index("(") + 1 : stat.rindex(")")]
        if name.startswith("python") and b"-m" in argv[:-1]:
            name = f"python -m {argv[argv.index(b'-m') + 1].decode(errors='replace')}"
        fields = stat.rsplit(")", 1)[1].split()
        found[int(entry.name)] = (name, (int(fields[11]) + int(fields[12])) / _TICKS)
    return found


def busiest(
    before: dict[int, tuple[str, float]],
    after: dict[int, tuple[str, float]],
    ours: Collection[int],
    count: int = 4,
) -> list[tuple[str, float]]:
    """The CPU seconds that the processes not in `ours` used between two `process_times`,
    summed by name, most first (a process begun in between counts from nothing; one that
    ended in between is missed: `machine_busy_seconds` has the whole)."""
    used: dict[str, float] = {}
    for pid, (name, seconds) in after.items():
        if pid not in ours:
            spent = seconds - before.get(pid, (name, 0.0))[1]
            used[name] = used.get(name, 0.0) + spent
    return sorted(((n, s) for n, s in used.items() if s > 0), key=lambda i: -i[1])[:count]


def descendants(root: int) -> set[int]:
    """`root` and every process under it now (/proc: each process's parent). `bench/peer`'s
    `family` does the same for its scripts, which run alone outside the project."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = set(), [root]
    while todo:
        pid = todo.pop()
        if pid not in found:
            found.add(pid)
            todo.extend(children.get(pid, []))
    return found


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
