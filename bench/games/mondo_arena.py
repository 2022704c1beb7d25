"""Mondo AI arena: seeded games between AI levels on a simulated clock, each seed played in
every seat order, through the same interface the service uses.

Run from the project root:

    .venv/bin/python -m bench.games.mondo_arena                 # 200 games per pairing
    .venv/bin/python -m bench.games.mondo_arena --quick         # 40 games per pairing
    .venv/bin/python -m bench.games.mondo_arena --game expert   # the advanced or expert game

Two-seat pairings (`hard` vs `normal`, `normal` vs `easy`) play each seed twice, the seats
swapped; the four-seat table (`easy`, `normal`, `hard`, `normal`) plays each seed in its four
rotations. A game starts with `MONDO.start(Setup(seed, ...))`; the clock is virtual: each seat
acts at its level's pace (`MONDO.ai_delay`) from its own last command, the first at the round's
start plus one pace, and the timers (`MONDO.timers`: the round's end, the break's end) fire when
due, before a seat due at the same time. A seat's command is
`MONDO.policies[level](MONDO.view(state, seat), entropy, now)` (its own view only; the entropy
from a generator seeded by the game's seed, so a run is reproducible), decided by
`MONDO.decide`. A game is won by every seat of the top total: equal top totals are a shared win,
counted apart and never as a win. The time of a move is `perf_counter_ns` around `view` and the
policy, garbage collector on.
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from bench.common import command_line, machine, table
from bench.games import arena
from bench.games.arena import MEDIAN_TARGET_MS, P99_TARGET_MS
from domain.chance import Dice
from domain.errors import RuleError
from domain.game import Setup
from domain.mondo import ai, hard
from domain.mondo.game import MONDO
from domain.mondo.model import State

T0 = 1_800_000_000_000
PAIRINGS = (("hard", "normal"), ("normal", "easy"))
TABLE = ("easy", "normal", "hard", "normal")
TARGET = 0.75  # `hard` wins outright against `normal`
GAMES: dict[str, dict[str, object]] = {
    "standard": {},
    "advanced": {"advanced": True},
    "expert": {"expert": True},
}


@dataclass
class Game:
    """One game's outcome: each seat's level, total, round scores and chips; move times."""

    levels: tuple[str, ...]
    totals: tuple[int, ...]
    rounds: list[tuple[int, ...]]
    chips: list[tuple[int, ...]]
    tasks: list[tuple[int, ...]]  # each seat's task points per round
    refused: int
    move_ns: dict[str, list[int]] = field(default_factory=dict)


def play(seed: int, levels: tuple[str, ...], options: dict[str, object]) -> Game:
    """One game on the virtual clock."""
    dice = Dice(seed ^ 0x30DD0)
    players = tuple(f"P{s}" for s in range(len(levels)))
    state: State = MONDO.replay(MONDO.start(Setup(seed, players, options), T0))
    paces = [round((MONDO.ai_delay(state, s, lv) or 1.0) * 1000) for s, lv in enumerate(levels)]
    now = T0
    due = [now + p for p in paces]
    refused = 0
    moves: dict[str, list[int]] = {}
    while not MONDO.is_over(state):
        timer = min(MONDO.timers(state), key=lambda t: t.due)
        acting = sorted((due[s], s) for s in MONDO.to_act(state))
        if not acting or acting[0][0] > timer.due:
            now = max(now, timer.due)
            before = state.round
            state = MONDO.fold(state, MONDO.decide(state, None, timer.command, now))
            if state.round != before:  # a new round: every seat starts from its start
                due = [now + p for p in paces]
            continue
        now, seat = acting[0]
        entropy = dice.below(1 << 32)
        start = time.perf_counter_ns()
        command = MONDO.policies[levels[seat]](MONDO.view(state, seat), entropy, now)
        moves.setdefault(levels[seat], []).append(time.perf_counter_ns() - start)
        try:
            state = MONDO.fold(state, MONDO.decide(state, seat, command, now))
        except RuleError:
            refused += 1
        due[seat] = now + paces[seat]
    return Game(
        levels,
        MONDO.scores(state),
        [tuple(s.total for s in scores) for scores in state.results],
        [tuple(s.bonus for s in scores) for scores in state.results],
        [tuple(sum(t.points for t in s.tasks) for s in scores) for scores in state.results],
        refused,
        moves,
    )


def _play(job: tuple[int, tuple[str, ...], dict[str, object]]) -> Game:
    return play(*job)


def orders(levels: tuple[str, ...]) -> list[tuple[str, ...]]:
    """Every rotation of the seats (two seats: both orders)."""
    return [levels[i:] + levels[:i] for i in range(len(levels))]


def run(
    levels: tuple[str, ...], seeds: Sequence[int], options: dict[str, object], jobs: int
) -> list[Game]:
    work = [(seed, order, options) for seed in seeds for order in orders(levels)]
    if jobs <= 1:
        return [_play(w) for w in work]
    with ProcessPoolExecutor(jobs) as pool:
        return list(pool.map(_play, work, chunksize=4))


def ms(ns: float) -> str:
    return f"{ns / 1e6:.1f} ms"


def outcome(game: Game, level: str) -> str:
    """ "won", "shared" or "lost" for the (first) seat of `level`."""
    seat = game.levels.index(level)
    best = max(game.totals)
    if game.totals[seat] < best:
        return "lost"
    return "won" if game.totals.count(best) == 1 else "shared"


def per_level(games: Sequence[Game], level: str, what: str) -> list[int]:
    """Every round's score (or chip, or task points) of every seat of `level`."""
    out: list[int] = []
    for g in games:
        rows = {"score": g.rounds, "chip": g.chips, "tasks": g.tasks}[what]
        out += [row[s] for row in rows for s, lv in enumerate(g.levels) if lv == level]
    return out


def pairing_row(first: str, second: str, games: Sequence[Game]) -> list[str]:
    counts = [outcome(g, first) for g in games]
    won, shared, lost = (counts.count(k) for k in ("won", "shared", "lost"))
    rate = won / len(games)
    margin = statistics.mean(
        g.totals[g.levels.index(first)] - g.totals[g.levels.index(second)] for g in games
    )
    means = " / ".join(
        f"{statistics.mean(per_level(games, lv, 'score')):.1f}" for lv in (first, second)
    )
    target = f"≥ {TARGET:.0%}: {'yes' if rate >= TARGET else 'NO'}" if first == "hard" else "—"
    return [
        f"`{first}` vs `{second}`",
        str(len(games)),
        f"{won} / {shared} / {lost}",
        f"{rate:.1%}",
        f"{margin:+.1f}",
        means,
        target,
    ]


def table_rows(games: Sequence[Game]) -> list[list[str]]:
    rows = []
    for level in ("hard", "normal", "easy"):
        won = sum(1 for g in games if outcome(g, level) == "won")
        scores = per_level(games, level, "score")
        chips = per_level(games, level, "chip")
        tasks = per_level(games, level, "tasks")
        rows.append(
            [
                f"`{level}`",
                f"{statistics.mean(scores):.1f}",
                f"{statistics.mean(chips):.2f}",
                f"{statistics.mean(tasks):+.2f}",
                f"{won} / {len(games)}" if level != "normal" else f"{won} / {len(games)} (either)",
            ]
        )
    return rows


def time_rows(games: Sequence[Game]) -> list[list[str]]:
    rows = []
    for level in ("hard", "normal", "easy"):
        moves = [ns for g in games for ns in g.move_ns.get(level, [])]
        if not moves:
            continue
        holds = arena.within_targets(moves)
        target = f"≤ {MEDIAN_TARGET_MS:.0f} / {P99_TARGET_MS:.0f} ms: {'yes' if holds else 'NO'}"
        rows.append([f"`{level}`", *arena.spread(moves, ms), target if level == "hard" else "—"])
    return rows


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.mondo_arena")
    parser.add_argument("--quick", action="store_true", help="40 games per pairing, 40 tables")
    parser.add_argument("--games", type=int, help="two-seat games per pairing (default 200)")
    parser.add_argument("--tables", type=int, help="four-seat games (default 100)")
    parser.add_argument("--game", choices=sorted(GAMES), default="standard")
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1, help="processes (times: use 1)")
    parser.add_argument("--only", choices=["pairs", "table"], help="play only these")
    parser.add_argument("--hard-pace", type=float, help="seconds between `hard`'s commands")
    args = parser.parse_args(argv)
    if args.hard_pace:  # what the service would read through `ai_delay`
        ai.PACE["hard"] = args.hard_pace
    games = args.games or (40 if args.quick else 200)
    tables = args.tables or (40 if args.quick else 100)
    options = GAMES[args.game]
    first = args.first_seed
    start = time.perf_counter()
    played: list[Game] = []
    pair_rows = []
    if args.only != "table":
        seeds = range(first, first + max(1, games // 2))
        for a, b in PAIRINGS:
            result = run((a, b), seeds, options, args.jobs)
            played += result
            pair_rows.append(pairing_row(a, b, result))
    four: list[Game] = []
    if args.only != "pairs":
        four = run(TABLE, range(first, first + max(1, tables // 4)), options, args.jobs)
        played += four
    seconds = time.perf_counter() - start
    refused = sum(g.refused for g in played)
    lines = [
        f"Command: `{command_line()}`",
        "",
        f"Machine: {machine()}; {seconds:.0f} s in all, {args.jobs} process(es).",
        "",
        f"Game: {args.game} (options {options or '{}'}); seeds from {first}; "
        f"commands refused: {refused}.",
        "",
    ]
    if pair_rows:
        header = ["Pairing", "Games", "Won / shared / lost", "Win rate", "Mean margin",
                  "Mean round score", "Target"]  # fmt: skip
        lines += [table(header, pair_rows), ""]
    if four:
        header = ["Level (4 seats)", "Mean round score", "Mean chip", "Mean task points",
                  "Games won"]  # fmt: skip
        lines += [f"Four seats {', '.join(TABLE)}, in 4 rotations: {len(four)} games.", ""]
        lines += [table(header, table_rows(four)), ""]
    header = ["Level", "Moves", "Median", "p90", "p99", "Max", "Target (`hard`)"]
    lines += ["Time of one move (`view` + policy):", "", table(header, time_rows(played)), ""]
    lines.append(f"`hard`: pace {ai.PACE['hard']:g} s, {hard.SCREEN} placings looked ahead, "
                 f"outlook weights {hard.LOOK:g} / {hard.LOOK_GAIN:g}.")  # fmt: skip
    print("\n".join(lines))


if __name__ == "__main__":
    main()
