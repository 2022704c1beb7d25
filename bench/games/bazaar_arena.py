"""Bazaar AI arena: seeded 2-player games between AI levels, each seed played twice with the
seats swapped, through the same interface the service uses.

Run from the project root:

    .venv/bin/python -m bench.games.bazaar_arena           # 200 games per pairing
    .venv/bin/python -m bench.games.bazaar_arena --quick   # 40 games per pairing

Every game starts with `BAZAAR.start(Setup(seed, ...))` (the seed deals the stalls, picks the
exchange cards, the seating order and the bag); a seat's command is
`BAZAAR.policies[level](BAZAAR.view(state, seat), entropy, now)`, as the worker asks it (the
entropy comes from a generator seeded by the game's seed, so a run is reproducible), and goes
through `BAZAAR.decide`. A win is strictly more points than the other seat; equal scores are a
shared win, counted apart and never as a win. Trades are the `Trade` commands a level sent,
per game it played. The time of a move is `perf_counter_ns` around `view` and the policy, one
process, garbage collector left on. Solo scores and the planner's cold and warm move times are
in `bench_bazaar`.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

from bench.common import command_line, machine, table
from bench.games import arena
from bench.games.arena import MEDIAN_TARGET_MS, P99_TARGET_MS
from domain.bazaar import planner
from domain.bazaar.game import BAZAAR
from domain.bazaar.model import Trade
from domain.chance import Dice
from domain.game import Setup

PAIRINGS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
TARGETS = {("hard", "normal"): 0.75, ("hard", "easy"): 0.95}  # share of games won outright


@dataclass
class Result(arena.Result):
    """One pairing's games, from the first level's side, with the trades of each level."""

    trades: dict[str, int] = field(default_factory=dict)


def play(seed: int, levels: tuple[str, str], result: Result) -> tuple[tuple[int, ...], int]:
    """One game, seat 0 played by `levels[0]`: the final scores and the seat that moved first
    (the seed shuffles the order). Move times and trades go to `result`."""
    dice = Dice(seed ^ 0xBA2AA)  # the policies' entropy, apart from the game's own chance
    state = BAZAAR.replay(BAZAAR.start(Setup(seed, ("P0", "P1"))))
    while not BAZAAR.is_over(state):
        (seat,) = BAZAAR.to_act(state)
        level, entropy = levels[seat], dice.below(1 << 32)
        start = time.perf_counter_ns()
        command = BAZAAR.policies[level](BAZAAR.view(state, seat), entropy, 0)
        result.move_ns.setdefault(level, []).append(time.perf_counter_ns() - start)
        if isinstance(command, Trade):
            result.trades[level] = result.trades.get(level, 0) + 1
        state = BAZAAR.fold(state, BAZAAR.decide(state, seat, command))
    return BAZAAR.scores(state), state.order[0]


def pairing(first: str, second: str, seeds: Sequence[int]) -> Result:
    """Each seed twice: `first` in seat 0, then in seat 1."""
    return arena.pairing(Result(first, second), seeds, play)  # type: ignore[arg-type]


def ms(ns: float) -> str:
    return f"{ns / 1e6:.2f} ms"


def report(results: list[Result], seeds: Sequence[int], seconds: float) -> str:
    rows = []
    for r in results:
        target = arena.target_cell(r, TARGETS.get((r.first, r.second)))
        per_game = [r.trades.get(level, 0) / r.games for level in (r.first, r.second)]
        rows.append([*arena.pairing_row(r), f"{per_game[0]:.1f} / {per_game[1]:.1f}", target])
    header = [*arena.PAIRING_HEADER, "Trades per game", "Target"]
    times = []
    for level in ("hard", "normal", "easy"):
        moves = [ns for r in results for ns in r.move_ns.get(level, [])]
        trades = sum(r.trades.get(level, 0) for r in results)
        games = sum(r.games for r in results if level in (r.first, r.second))
        if moves:
            count, *spread = arena.spread(moves, ms)
            fast = arena.within_targets(moves)
            holds = f"≤ {MEDIAN_TARGET_MS:.0f} / {P99_TARGET_MS:.0f} ms: {'yes' if fast else 'NO'}"
            times.append([f"`{level}`", count, f"{trades / games:.1f}", *spread, holds])
    budget = (
        f"`hard` budget: at most {planner.NODES} positions per decision, "
        f"{planner.DEPTH} turns searched exactly."
    )
    return "\n".join(
        [
            f"Command: `{command_line()}`",
            "",
            f"Machine: {machine()}",
            "",
            f"Games: seeds {seeds[0]}–{seeds[-1]}, each played twice with the seats swapped "
            "(so each level moves first in one of the two); 2 players; "
            f"{seconds:.0f} s in all. Margin: the first level's score minus the other's. "
            "A shared win (equal scores) is not counted as a win. "
            "Trades per game: the first level's / the second's.",
            "",
            table(header, rows),
            "",
            "Time of one move (`view` + policy), over every move of the level in all pairings:",
            "",
            table(
                ["Level", "Moves", "Trades per game", "Median", "p90", "p99", "Max", "Target"],
                times,
            ),
            "",
            budget,
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = arena.options("python -m bench.games.bazaar_arena")
    parser.add_argument(
        "--pairing", action="append", help="only this pairing, as first:second (repeatable)"
    )
    args = parser.parse_args(argv)
    seeds = arena.seeds_of(args)
    pairs = [tuple(p.split(":")) for p in args.pairing] if args.pairing else PAIRINGS
    start = time.perf_counter()
    results = [pairing(first, second, seeds) for first, second in pairs]
    print(report(results, seeds, time.perf_counter() - start))


if __name__ == "__main__":
    main()
