"""What the A/B benchmarks of the rules share (`bench_domain_ab`, `bench_command_domain`): a base
commit's `domain/` extracted into a temporary directory, one worker process per side (its
`sys.path` starts with its tree, so the two never share a module), and alternating rounds in
which the parent asks each side in turn for a block of samples of one benchmark."""

from __future__ import annotations

import json
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


class Side:
    """One side's worker: `python -m <module> --worker <tree>`, asked over its stdin."""

    def __init__(self, name: str, module: str, tree: str) -> None:
        self.name = name
        self.proc = subprocess.Popen(
            [sys.executable, "-m", module, "--worker", tree],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        self.hello: dict[str, Any] = json.loads(self.read())

    def read(self) -> str:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the {self.name} worker stopped")
        return line

    def ask(self, index: int, samples: int) -> list[float]:
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps([index, samples]) + "\n")
        self.proc.stdin.flush()
        result: list[float] = json.loads(self.read())
        return result

    def close(self) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=30)


def git(*args: str) -> str:
    return subprocess.run(
        ["git", *args], cwd=ROOT, check=True, capture_output=True, text=True
    ).stdout.strip()


def fmt(ns: float) -> str:
    return f"{ns / 1000:.1f} µs"


def revisions(base: str | None) -> tuple[str, str, str]:
    """The base commit (default: the merge-base of HEAD and main), HEAD, and a note when
    `domain/` has uncommitted changes."""
    base = git("rev-parse", "--short", base or git("merge-base", "HEAD", "main"))
    head = git("rev-parse", "--short", "HEAD")
    dirty = " (with uncommitted changes)" if git("status", "--porcelain", "domain") else ""
    return base, head, dirty


def alternate(
    module: str,
    base: str,
    benchmarks: int,
    rounds: int,
    samples: int,
    agree: Callable[[dict[str, Any], dict[str, Any]], bool],
) -> tuple[list[list[list[float]]], dict[str, Any]]:
    """Per side (base, new) and benchmark, the median of each round's samples; and the new
    side's hello. `agree` compares the two sides' hellos before anything is timed."""
    with tempfile.TemporaryDirectory(prefix="domain-base-") as tmp:
        archive = subprocess.run(
            ["git", "archive", base, "domain"], cwd=ROOT, check=True, capture_output=True
        ).stdout
        subprocess.run(["tar", "-x", "-C", tmp], input=archive, check=True)
        sides = [Side("base", module, tmp), Side("new", module, str(ROOT))]
        try:
            if not agree(sides[0].hello, sides[1].hello):
                raise SystemExit("base and new disagree on the inputs or the rules' answers")
            medians: list[list[list[float]]] = [[[] for _ in range(benchmarks)] for _ in sides]
            for r in range(rounds):
                for index in range(benchmarks):
                    order = (0, 1) if (r + index) % 2 == 0 else (1, 0)
                    for s in order:
                        medians[s][index].append(statistics.median(sides[s].ask(index, samples)))
        finally:
            for side in sides:
                side.close()
    return medians, sides[1].hello
