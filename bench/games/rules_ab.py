"""A/B benchmark of the Crazymino rules engine: a base commit's `domain` against this tree's, in
the same run, alternating.

Run from the project root:

    .venv/bin/python -m bench.games.rules_ab                 # base: merge-base with `main`
    .venv/bin/python -m bench.games.rules_ab --base 5075578  # any commit
    .venv/bin/python -m bench.games.rules_ab --quick         # a short run

The base's `domain` package is extracted with `git archive <base> domain | tar -x` into a
temporary directory. Each side runs in its own worker process whose `sys.path` starts with its
tree, so the two never share a module; both build the same inputs with the same code
(`bench.games.rules`: seeded play, the same positions and games) and the parent checks that the
inputs are equal on both sides before timing. Then, round after round, the parent asks each
worker in turn (the order alternating between rounds) for a block of samples of one benchmark,
so machine noise falls on both sides alike. A sample is the mean per-call time of enough calls
to last ≥ 200 µs, GC disabled, round-robin over the inputs (`bench.common.sample`).

The workloads are those of `bench.games.rules`: `legal` with a 20-tile hand and 60 tiles on
the board, and `decide` for the placement the `normal` AI picks (20-tile hand, and mid-game).
The plain `decide` rows decide on boards that `legal` has just listed (primed before each block
of samples), as in the service, whose projection lists the placements of the seat to play
before that seat's command. The "cold board" rows time the same calls on copies of each
position whose board tuples are new objects, more of them than the rules keep in their bounded
per-board memo, so nothing about the board is remembered: the cost of a first query on a board.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from bench.games.ab import alternate, fmt, revisions

ROOT = Path(__file__).resolve().parents[2]
COLD_COPIES = 24  # copies of each position: far more boards than the rules remember (64)
NAMES = [
    "legal: 20-tile hand, 60 on board",
    "legal (cold board): 20-tile hand, 60 on board",
    "decide (placement): 20-tile hand, 60 on board",
    "decide (placement, cold board): 20-tile hand, 60 on board",
    "decide (placement): mid-game",
    "decide (placement, cold board): mid-game",
    "replay: complete 4-player game",
]


# -- the worker (one per side) ---------------------------------------------------------------


def worker(tree: str) -> None:
    """Serve timing requests on stdin/stdout with the `domain` package of `tree`."""
    sys.path.insert(0, tree)
    import domain  # the side's package, before anything imports another

    where = Path(domain.__file__).resolve().parent.parent
    assert where == Path(tree).resolve(), f"imported {where}, not {tree}"

    from msgspec.structs import replace

    from bench.common import calibrate, sample
    from bench.games import rules as bd
    from domain.crazymino.game import CRAZYMINO
    from domain.crazymino.model import State

    fx = bd.fixtures()

    def fresh(state: State) -> State:
        """The position with a board made of new tuple objects (the same values)."""
        return replace(state, cells=tuple(list(state.cells)), points=tuple(list(state.points)))

    def copies(states: list[State]) -> list[State]:
        return [fresh(s) for _ in range(COLD_COPIES) for s in states]

    cases = [
        [*map(bd._legal, fx.full)],
        [*map(bd._legal, copies(fx.full))],
        [*map(bd._decide, fx.full)],
        [*map(bd._decide, copies(fx.full))],
        [*map(bd._decide, fx.mid)],
        [*map(bd._decide, copies(fx.mid))],
        [*map(bd._replay, fx.games)],
    ]
    # The warm `decide` rows decide on boards that `legal` has just listed, as in the service
    # (its projection lists the placements of the seat to play before that seat's command).
    primes = {2: fx.full, 4: fx.mid}

    def prime(index: int) -> None:
        for state in primes.get(index, ()):
            seat = state.seat_to_play
            assert seat is not None
            CRAZYMINO.legal(state, seat)

    # What both sides must agree on: the inputs, and what the rules answer for them.
    digest = repr(
        (
            [(s.cells, s.points, s.hands) for s in fx.full + fx.mid],
            [case() for case in cases[0] + cases[2] + cases[4] + cases[5]],
            [CRAZYMINO.replay(g) for g in fx.games],
        )
    )
    numbers = []
    for index, bench in enumerate(cases):
        prime(index)
        sample(bench, samples=0, number=1)  # warm-up
        numbers.append(calibrate(bench, bd.MIN_SAMPLE_NS))
    print(json.dumps({"digest": digest, "numbers": numbers}), flush=True)
    for line in sys.stdin:
        index, samples = json.loads(line)
        number = numbers[index]
        prime(index)
        print(json.dumps(sample(cases[index], samples=samples, number=number)), flush=True)


# -- the parent ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.rules_ab", description=__doc__)
    parser.add_argument("--base", help="the base commit (default: merge-base of HEAD and main)")
    parser.add_argument("--rounds", type=int, help="alternating rounds (default 9)")
    parser.add_argument("--samples", type=int, help="samples per side, benchmark and round (60)")
    parser.add_argument("--quick", action="store_true", help="3 rounds × 20 samples")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return
    rounds = args.rounds or (3 if args.quick else 9)
    samples = args.samples or (20 if args.quick else 60)
    base, head, dirty = revisions(args.base)
    medians, _ = alternate(
        "bench.games.rules_ab",
        base,
        len(NAMES),
        rounds,
        samples,
        lambda old, new: old["digest"] == new["digest"],
    )

    print(f"Command: `{' '.join(getattr(sys, 'orig_argv', sys.argv))}`\n")
    print(
        f"Base: `{base}` (its `domain/`); new: `{head}`{dirty} (this tree's `domain/`). "
        f"{rounds} alternating rounds × {samples} samples per side and benchmark; each number is "
        "the median over rounds of a round's median, and the ratio is the median over rounds "
        "of (base round median / new round median).\n"
    )
    print("| Benchmark | Base | New | Faster (median of rounds) | Round ratios (min – max) |")
    print("|---|---|---|---|---|")
    for index, name in enumerate(NAMES):
        old, new = medians[0][index], medians[1][index]
        ratios = [o / n for o, n in zip(old, new, strict=True)]
        print(
            f"| {name} | {fmt(statistics.median(old))} | {fmt(statistics.median(new))} "
            f"| **{statistics.median(ratios):.2f}×** | {min(ratios):.2f} – {max(ratios):.2f} |"
        )


if __name__ == "__main__":
    main()
