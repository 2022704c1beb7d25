"""Crazymino AI arena: seeded 2-player games between AI levels, each seed played twice with
the seats swapped, through the same interface the service uses.

Run from the project root:

    .venv/bin/python -m bench.games.crazymino_arena           # 200 games per pairing
    .venv/bin/python -m bench.games.crazymino_arena --quick   # 40 games per pairing

Every game starts with `CRAZYMINO.start(Setup(seed, ...))`; a seat's command is
`CRAZYMINO.policies[level](CRAZYMINO.view(state, seat), entropy, now)`, as the worker asks it
(the entropy comes from a generator seeded by the game's seed, so a run is reproducible), and
goes through `CRAZYMINO.decide`. A game is won by every seat of rank 1, so equal top scores
are a shared win; the tables count shared wins apart and never as wins. The time of a move is
`perf_counter_ns` around `view` and the policy, one process, garbage collector left on.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

from bench.common import command_line, machine, table
from bench.games import arena
from bench.games.arena import MEDIAN_TARGET_MS, P99_TARGET_MS, Result
from domain.chance import Dice
from domain.crazymino import hard
from domain.crazymino.game import CRAZYMINO
from domain.game import Setup

PAIRINGS = (("hard", "normal"), ("hard", "easy"), ("normal", "easy"))
TARGETS = {("hard", "normal"): 0.75, ("hard", "easy"): 0.90}  # share of games won outright


def play(seed: int, levels: tuple[str, str], result: Result) -> tuple[tuple[int, ...], int]:
    """One game, seat 0 played by `levels[0]`: the final scores and the seat that moved first
    (the seed shuffles the order). Move times go to `result`."""
    dice = Dice(seed ^ 0xA7E4A)  # the policies' entropy, apart from the game's own chance
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed, ("P0", "P1"))))
    while not CRAZYMINO.is_over(state):
        (seat,) = CRAZYMINO.to_act(state)
        entropy = dice.below(1 << 32)
        start = time.perf_counter_ns()
        command = CRAZYMINO.policies[levels[seat]](CRAZYMINO.view(state, seat), entropy, 0)
        result.move_ns.setdefault(levels[seat], []).append(time.perf_counter_ns() - start)
        state = CRAZYMINO.fold(state, CRAZYMINO.decide(state, seat, command))
    return CRAZYMINO.scores(state), state.order[0]


def pairing(first: str, second: str, seeds: Sequence[int]) -> Result:
    """Each seed twice: `first` in seat 0, then in seat 1."""
    return arena.pairing(Result(first, second), seeds, play)


def ms(ns: float) -> str:
    return f"{ns / 1e6:.1f} ms"


def report(results: list[Result], seeds: Sequence[int], seconds: float) -> str:
    rows = []
    for r in results:
        target = arena.target_cell(r, TARGETS.get((r.first, r.second)))
        rows.append([*arena.pairing_row(r), target])
    header = [*arena.PAIRING_HEADER, "Target"]
    times = []
    for level in ("hard", "normal", "easy"):
        moves = [ns for r in results for ns in r.move_ns.get(level, [])]
        if moves:
            fast = arena.within_targets(moves)
            holds = f"≤ {MEDIAN_TARGET_MS:.0f} / {P99_TARGET_MS:.0f} ms: {'yes' if fast else 'NO'}"
            times.append(
                [f"`{level}`", *arena.spread(moves, ms), holds if level == "hard" else "—"]
            )
    budget = (
        f"`hard` budget: {hard.SAMPLES} deals per move, at most {hard.NODES} play-ons "
        f"(placements × deals), screening on {hard.SCREEN} deals; ply weights "
        f"{', '.join(f'{w:g}' for w in hard.PLY_WEIGHTS)}."
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
            "A shared win (equal top scores) is not counted as a win.",
            "",
            table(header, rows),
            "",
            "Time of one move (`view` + policy):",
            "",
            table(["Level", "Moves", "Median", "p90", "p99", "Max", "Target"], times),
            "",
            budget,
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = arena.options("python -m bench.games.crazymino_arena")
    args = parser.parse_args(argv)
    seeds = arena.seeds_of(args)
    start = time.perf_counter()
    results = [pairing(first, second, seeds) for first, second in PAIRINGS]
    print(report(results, seeds, time.perf_counter() - start))


if __name__ == "__main__":
    main()
