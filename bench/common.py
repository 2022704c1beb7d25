"""Shared timing helpers for the benchmarks: samples, medians, p90 and a Markdown table.

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
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import msgspec

Case = Callable[[], object]


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
    """The nearest-rank percentile `q` (0-100) of `values`."""
    ordered = sorted(values)
    rank = max(1, math.ceil(q / 100 * len(ordered)))
    return ordered[rank - 1]


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
    """One line on where the numbers come from."""
    return (
        f"{os.cpu_count()} CPUs, Python {platform.python_version()} "
        f"({platform.python_implementation()}), msgspec {msgspec.__version__}, "
        f"{platform.system()} {platform.machine()}"
    )


def table(header: Sequence[str], rows: Sequence[Sequence[str]]) -> str:
    """A Markdown table."""
    lines = ["| " + " | ".join(header) + " |", "|" + "|".join("---" for _ in header) + "|"]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return "\n".join(lines)
