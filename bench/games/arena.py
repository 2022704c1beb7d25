"""What the AI arenas share: the tally of a pairing played seed by seed with the seats swapped,
and the spread of the move times."""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from bench.common import percentile

#: Targets of any level's move: at most this at the median and at p99 (ms).
MEDIAN_TARGET_MS, P99_TARGET_MS = 50.0, 250.0


@dataclass
class Result:
    """One pairing's two-seat games, from the first level's side."""

    first: str
    second: str
    wins: int = 0
    shared: int = 0
    losses: int = 0
    wins_by_turn: list[int] = field(default_factory=lambda: [0, 0])  # moving first, second
    margins: list[int] = field(default_factory=list)
    move_ns: dict[str, list[int]] = field(default_factory=dict)

    @property
    def games(self) -> int:
        return self.wins + self.shared + self.losses


#: One game: (seed, the level of each seat, the tally) -> (the final scores, the seat that
#: moved first); the game's move times go into the tally.
Play = Callable[[int, tuple[str, str], Result], tuple[tuple[int, ...], int]]


R = TypeVar("R", bound=Result)


def pairing(result: R, seeds: Sequence[int], play: Play) -> R:
    """Each seed twice into `result`: its first level in seat 0, then in seat 1."""
    first, second = result.first, result.second
    for seed in seeds:
        for seat in (0, 1):
            levels = (first, second) if seat == 0 else (second, first)
            scores, opener = play(seed, levels, result)
            mine, theirs = scores[seat], scores[1 - seat]
            result.margins.append(mine - theirs)
            if mine > theirs:
                result.wins += 1
                result.wins_by_turn[0 if opener == seat else 1] += 1
            elif mine == theirs:
                result.shared += 1
            else:
                result.losses += 1
    return result


#: The columns of `pairing_row`; a table adds its own and the target after them.
PAIRING_HEADER = [
    "Pairing",
    "Games",
    "Won / shared / lost",
    "Win rate",
    "Shared as ½",
    "Wins moving first / second",
    "Mean margin",
]


def pairing_row(result: Result) -> list[str]:
    """A pairing's tally, in the columns of `PAIRING_HEADER`."""
    r = result
    return [
        f"`{r.first}` vs `{r.second}`",
        str(r.games),
        f"{r.wins} / {r.shared} / {r.losses}",
        f"{r.wins / r.games:.1%}",
        f"{(r.wins + r.shared / 2) / r.games:.1%}",
        f"{r.wins_by_turn[0]} / {r.wins_by_turn[1]}",
        f"{statistics.mean(r.margins):+.1f}",
    ]


def target_cell(result: Result, target: float | None) -> str:
    """Whether the first level won the share of games `target` asks (— without one)."""
    if target is None:
        return "—"
    return f"≥ {target:.0%}: {'yes' if result.wins / result.games >= target else 'NO'}"


def spread(moves: Sequence[int], ms: Callable[[float], str]) -> list[str]:
    """How many moves, and their median, p90, p99 and longest time, each as `ms` writes it."""
    return [
        str(len(moves)),
        ms(statistics.median(moves)),
        ms(percentile(moves, 90)),
        ms(percentile(moves, 99)),
        ms(max(moves)),
    ]


def within_targets(moves: Sequence[int]) -> bool:
    """Whether the moves meet the targets (median and p99)."""
    median, p99 = statistics.median(moves), percentile(moves, 99)
    return median / 1e6 <= MEDIAN_TARGET_MS and p99 / 1e6 <= P99_TARGET_MS


def options(prog: str) -> argparse.ArgumentParser:
    """The command line every two-seat arena takes: how many games, from which seed."""
    parser = argparse.ArgumentParser(prog=prog)
    parser.add_argument("--quick", action="store_true", help="40 games per pairing")
    parser.add_argument("--games", type=int, help="games per pairing (even; default 200)")
    parser.add_argument("--first-seed", type=int, default=0, help="the first game seed")
    return parser


def seeds_of(args: argparse.Namespace) -> range:
    """The seeds the options ask for: each is played twice, the seats swapped."""
    games = args.games or (40 if args.quick else 200)
    return range(args.first_seed, args.first_seed + max(1, games // 2))
