"""Bazaar's AI arena and the speed of one AI move.

Run from the project root:

    .venv/bin/python -m bench.games.bazaar            # 200 games per pairing (several minutes)
    .venv/bin/python -m bench.games.bazaar --quick    # 40 games per pairing
    .venv/bin/python -m bench.games.bazaar --games 100 --first-seed 1000

Arena: every game is seeded (game `i` of a pairing uses seed `first_seed + i`, for its deal,
its seating order and its bag; the policies' entropy comes from a generator seeded apart from
it). In a 2-player pairing the levels swap seats every other game. A win is strictly more
points than the opponent; a tie is counted apart. Solo games report each level's scores. The
baseline is `normal` against `easy`, played in the same run. (`bench_bazaar_arena` plays each
seed twice with the seats swapped and counts trades and move times per level.)

Speed: every position where the `hard` seat is to play in seeded `hard`-against-`normal`
games; one move is `view` + policy, timed once per call (`perf_counter_ns`, garbage collector
on, as in a worker) in interleaved rounds over the positions, after a warm-up. Cold: the same
positions with the planner's outlook tables cleared before each call (a fresh worker). The
baseline is the `normal` move over the same positions, in the same rounds.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from bench.common import command_line, machine, percentile, table
from domain.bazaar import outlook
from domain.bazaar.game import BAZAAR
from domain.bazaar.model import State
from domain.chance import Dice
from domain.game import Setup

PAIRINGS = (("hard", "easy"), ("hard", "normal"), ("normal", "easy"))
SOLO_LEVELS = ("hard", "normal", "easy")
#: Targets: the least share of 2-player wins, by pairing.
WIN_TARGETS = {("hard", "easy"): 0.95, ("hard", "normal"): 0.75}
MOVE_TARGET_MS = 20.0
SPEED_GAMES = range(6)  # seeds of the hard-against-normal games the positions come from
ENTROPY = 0xE17


@dataclass
class Record:
    """The results of one pairing (or one solo level)."""

    wins: int = 0
    ties: int = 0
    games: int = 0
    mine: list[int] = field(default_factory=list)  # the first level's scores
    theirs: list[int] = field(default_factory=list)


def play(
    seed: int, levels: Sequence[str], watch: Callable[[State, int], None] | None = None
) -> State:
    """A whole game of the given levels (seat by seat) from the seed."""
    dice = Dice(seed ^ ENTROPY)
    players = tuple(f"{level}-{n}" for n, level in enumerate(levels))
    state = BAZAAR.replay(BAZAAR.start(Setup(seed=seed, players=players)))
    while not BAZAAR.is_over(state):
        (seat,) = BAZAAR.to_act(state)
        if watch is not None:
            watch(state, seat)
        policy = BAZAAR.policies[levels[seat]]
        command = policy(BAZAAR.view(state, seat), dice.below(1 << 30), 0)
        state = BAZAAR.fold(state, BAZAAR.decide(state, seat, command))
    return state


def duel(first: str, second: str, games: int, first_seed: int) -> Record:
    record = Record()
    for n in range(games):
        swapped = n % 2 == 1
        state = play(first_seed + n, (second, first) if swapped else (first, second))
        mine, theirs = reversed(state.scores) if swapped else state.scores
        record.games += 1
        record.wins += mine > theirs
        record.ties += mine == theirs
        record.mine.append(mine)
        record.theirs.append(theirs)
    return record


def solo(level: str, games: int, first_seed: int) -> Record:
    record = Record()
    for n in range(games):
        state = play(first_seed + n, (level,))
        record.games += 1
        record.mine.append(state.scores[0])
    return record


# -- speed -----------------------------------------------------------------------------------


def positions() -> list[tuple[State, int]]:
    """Every position where the hard seat is to play, in seeded hard-against-normal games."""
    found: list[tuple[State, int]] = []

    def watch(state: State, seat: int) -> None:
        if state.players[seat].startswith("hard"):
            found.append((state, seat))

    for seed in SPEED_GAMES:
        play(seed, ("hard", "normal") if seed % 2 == 0 else ("normal", "hard"), watch)
    return found


def time_moves(
    level: str, cases: list[tuple[State, int]], rounds: int, cold: bool = False
) -> list[float]:
    """Per-call ms of `view` + policy, each position once per round."""
    policy = BAZAAR.policies[level]
    samples = []
    for _ in range(rounds):
        for state, seat in cases:
            if cold:
                outlook.outlook.cache_clear()
            start = time.perf_counter_ns()
            policy(BAZAAR.view(state, seat), 0, 0)
            samples.append((time.perf_counter_ns() - start) / 1e6)
    return samples


def speed(rounds: int) -> tuple[list[tuple[State, int]], dict[str, list[float]]]:
    cases = positions()
    for level in ("normal", "hard"):
        time_moves(level, cases, 1)  # warm-up (and the outlook tables)
    runs: dict[str, list[float]] = {"normal": [], "hard": [], "hard, cold": []}
    for _ in range(rounds):  # interleaved, so that drift hits every level alike
        runs["normal"] += time_moves("normal", cases, 1)
        runs["hard"] += time_moves("hard", cases, 1)
        runs["hard, cold"] += time_moves("hard", cases, 1, cold=True)
    return cases, runs


# -- report ----------------------------------------------------------------------------------


def arena_report(duels: dict[tuple[str, str], Record], solos: dict[str, Record]) -> str:
    rows = []
    for (first, second), r in duels.items():
        target = WIN_TARGETS.get((first, second))
        share = r.wins / r.games
        rows.append(
            [
                f"`{first}` vs `{second}`",
                str(r.games),
                f"{share:.1%}",
                f"{r.ties / r.games:.1%}",
                f"{statistics.mean(r.mine):.1f} / {statistics.mean(r.theirs):.1f}",
                f"{statistics.median(r.mine):g} / {statistics.median(r.theirs):g}",
                "— (baseline)" if target is None else f"≥ {target:.0%}",
                "" if target is None else "yes" if share >= target else "NO",
            ]
        )
    header = ["2 players", "Games", "Wins", "Ties", "Mean score", "Median score", "Target", "Holds"]
    solo_rows = [
        [
            f"`{level}`",
            str(r.games),
            f"{statistics.mean(r.mine):.1f}",
            f"{statistics.median(r.mine):g}",
            f"{min(r.mine)} – {max(r.mine)}",
        ]
        for level, r in solos.items()
    ]
    hard, normal = statistics.mean(solos["hard"].mine), statistics.mean(solos["normal"].mine)
    verdict = "holds" if hard > normal else "DOES NOT HOLD"
    return "\n".join(
        [
            table(header, rows),
            "",
            table(["Solo", "Games", "Mean score", "Median score", "Range"], solo_rows),
            "",
            f"Solo target: `hard`'s mean above `normal`'s: {hard:.1f} > {normal:.1f}, {verdict}.",
        ]
    )


def speed_report(cases: list[tuple[State, int]], runs: dict[str, list[float]]) -> str:
    base = statistics.median(runs["normal"])
    rows = []
    for name, samples in runs.items():
        median = statistics.median(samples)
        target = f"≤ {MOVE_TARGET_MS:g} ms" if name == "hard" else "—"
        holds = ("yes" if median <= MOVE_TARGET_MS else "NO") if name == "hard" else ""
        rows.append(
            [
                f"`{name}` move" + (" (baseline)" if name == "normal" else ""),
                f"{median:.3f}",
                f"{percentile(samples, 90):.3f}",
                f"{max(samples):.3f}",
                str(len(samples)),
                f"{median / base:.0f}×",
                target,
                holds,
            ]
        )
    header = ["One move (`view` + policy)", "Median ms", "p90 ms", "Max ms", "Samples"]
    return "\n".join(
        [
            f"Positions: {len(cases)} (every turn step of the `hard` seat in "
            f"{len(SPEED_GAMES)} seeded `hard`-against-`normal` games).",
            "",
            table([*header, "× baseline", "Target", "Holds"], rows),
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.bazaar", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="40 games per pairing, 1 round")
    parser.add_argument("--games", type=int, help="games per pairing (200)")
    parser.add_argument("--first-seed", type=int, default=0, help="seed of each pairing's game 0")
    parser.add_argument("--rounds", type=int, help="timing rounds over the positions (3)")
    args = parser.parse_args(argv)
    games = args.games or (40 if args.quick else 200)
    rounds = args.rounds or (1 if args.quick else 3)

    started = time.perf_counter()
    duels = {pair: duel(*pair, games, args.first_seed) for pair in PAIRINGS}
    solos = {level: solo(level, games, args.first_seed) for level in SOLO_LEVELS}
    arena_s = time.perf_counter() - started
    cases, runs = speed(rounds)
    print(f"Command: `{command_line()}`\n\nMachine: {machine()}\n")
    print(
        f"Arena ({games} games per pairing, seeds {args.first_seed}–{args.first_seed + games - 1}, "
        f"{arena_s:.0f} s):\n"
    )
    print(arena_report(duels, solos))
    print(f"\nSpeed ({rounds} interleaved round(s) over the positions):\n")
    print(speed_report(cases, runs))


if __name__ == "__main__":
    main()
