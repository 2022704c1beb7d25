"""Mondo AI arena: how well the AI levels play, and how long one decision takes.

Run from the project root:

    .venv/bin/python -m bench.games.mondo            # 200 seeded solo rounds, full timing
    .venv/bin/python -m bench.games.mondo --quick    # 40 rounds, a short timing run

Arena: every seed is one solo round of the standard game (7 minutes), played by each agent on the
same seeded display, on a simulated clock: the agent acts every `pace` seconds (its level's pace;
the random baseline at the `normal` pace) and the round's timer fires at the deadline. The score
is the round's total. The baseline is *random legal placement*: take a random free tile, lay it
on a random open space with a random face and rotation, never take the chip by choice (a full
board takes it).

Decision time: the `normal` policy choosing which tile to take with the full display (nothing
held, every free tile weighed), from its own view, at positions of the arena's games with 0 to 20
tiles on the board. The baseline, timed in the same run, is one whole-board scoring of the same
position (survey and every line): the cost a decision would pay per placing tried if it rescored
the board each time.
"""

from __future__ import annotations

import argparse
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from bench.common import Stats, calibrate, command_line, fmt_ns, machine, sample, table
from domain.chance import Dice
from domain.game import Setup
from domain.mondo import ai
from domain.mondo.board import open_spaces
from domain.mondo.game import MONDO
from domain.mondo.model import Command, PlaceTile, State, TakeTile
from domain.mondo.scoring import Seat, round_scores
from domain.mondo.table import board_survey
from domain.mondo.views import MondoView

T0 = 1_800_000_000_000
STOPS = (0, 5, 10, 15, 20)  # tiles on the board at the timed positions
TIMED_SEEDS = 12  # arena rounds whose positions are timed
MIN_SAMPLE_NS = 2_000_000

Agent = Callable[[MondoView, int, int], Command]


def random_placement(view: MondoView, entropy: int, now: int) -> Command:
    """The baseline: a random free tile, laid on a random open space, face and rotation."""
    dice = Dice(entropy)
    me = view.seats[view.viewer or 0]
    if me.held is None:
        free = [d.shown.tile for d in view.display if d.holder is None]
        return TakeTile(free[dice.below(len(free))])
    space = view.spaces[dice.below(len(view.spaces))]
    face = ("plain", "variable")[dice.below(2)]
    return PlaceTile(me.held.tile, space, face, 90 * dice.below(4))  # type: ignore[arg-type]


AGENTS: dict[str, tuple[Agent, float]] = {
    "random legal placement (baseline)": (random_placement, ai.PACE["normal"]),
    "easy": (ai.POLICIES["easy"], ai.PACE["easy"]),
    "normal": (ai.POLICIES["normal"], ai.PACE["normal"]),
}


def solo_round(
    seed: int, agent: Agent, pace: float, stops: Sequence[int] = ()
) -> tuple[int, list[State]]:
    """Round 1 of a seeded solo game: its score, and the states (nothing held) where the board
    first holds each of `stops` tiles."""
    state = MONDO.replay(MONDO.start(Setup(seed=seed, players=("solo",)), T0))
    dice = Dice(seed ^ 0xA11CE)
    now, step = T0, round(pace * 1000)
    found: list[State] = []
    while state.round == 1 and state.running:
        now += step
        if now > state.deadline:
            (timer,) = MONDO.timers(state)
            state = MONDO.fold(state, MONDO.decide(state, None, timer.command, timer.due))
            break
        me = state.seats[0]
        if len(found) < len(stops) and me.held is None and me.placed == stops[len(found)]:
            found.append(state)
        command = agent(MONDO.view(state, 0), dice.below(1 << 30), now)
        state = MONDO.fold(state, MONDO.decide(state, 0, command, now))
    return state.results[0][0].total, found


@dataclass
class Arena:
    scores: dict[str, list[int]]
    positions: list[State]


def arena(rounds: int) -> Arena:
    scores: dict[str, list[int]] = {name: [] for name in AGENTS}
    positions: list[State] = []
    for seed in range(rounds):
        for name, (agent, pace) in AGENTS.items():
            stops = STOPS if name == "normal" and seed < TIMED_SEEDS else ()
            total, found = solo_round(seed, agent, pace, stops)
            scores[name].append(total)
            positions += found
    return Arena(scores, positions)


def _decide(state: State) -> Callable[[], object]:
    view = MONDO.view(state, 0)
    return lambda: ai.POLICIES["normal"](view, 0, T0)


def _view_and_decide(state: State) -> Callable[[], object]:
    return lambda: ai.POLICIES["normal"](MONDO.view(state, 0), 0, T0)


def _score_board(state: State) -> Callable[[], object]:
    board = state.seats[0].board
    return lambda: round_scores([Seat(board_survey(state, board), 0)])


def timing(positions: list[State], rounds: int, samples: int) -> list[tuple[str, Stats, float]]:
    benches = [
        ("baseline: one whole-board scoring (survey + lines)", [*map(_score_board, positions)]),
        ("`normal` chooses a tile, full display (policy on its view)", [*map(_decide, positions)]),
        ("the same with `MONDO.view` built first", [*map(_view_and_decide, positions)]),
    ]
    numbers = [calibrate(cases, MIN_SAMPLE_NS) for _, cases in benches]
    stats = [Stats() for _ in benches]
    ratios: list[list[float]] = [[] for _ in benches]
    for _ in range(rounds):
        for (_, cases), number, stat in zip(benches, numbers, stats, strict=True):
            stat.add_round(sample(cases, samples=samples, number=number))
        for stat, ratio in zip(stats, ratios, strict=True):
            ratio.append(stat.round_medians[-1] / stats[0].round_medians[-1])
    return [
        (name, stat, statistics.median(ratio))
        for (name, _), stat, ratio in zip(benches, stats, ratios, strict=True)
    ]


def placings(state: State) -> int:
    """How many placings a `normal` decision weighs: each free tile's shown face in each of its
    distinct turns, on each open space."""
    view = MONDO.view(state, 0)
    spaces = len(open_spaces([p is not None for p in state.seats[0].board]))
    turns = sum(4 if len(d.shown.regions) > 1 else 1 for d in view.display if d.holder is None)
    return turns * spaces


def report(result: Arena, timed: list[tuple[str, Stats, float]], args: argparse.Namespace) -> str:
    base = statistics.mean(result.scores["random legal placement (baseline)"])
    rows = []
    for name, scores in result.scores.items():
        mean = statistics.mean(scores)
        rows.append(
            [
                name,
                f"{mean:.1f}",
                f"{statistics.median(scores):g}",
                f"{statistics.stdev(scores):.1f}",
                f"{min(scores)} – {max(scores)}",
                "—" if mean == base else f"{mean - base:+.1f}",
            ]
        )
    normal = statistics.mean(result.scores["normal"])
    timed_rows = [
        [name, fmt_ns(stat.median), fmt_ns(stat.p90), str(stat.n), f"{ratio:.0f}×"]
        for name, stat, ratio in timed
    ]
    decide = timed[1][1].median
    weighed = statistics.median(map(placings, result.positions))
    naive = weighed * timed[0][1].median
    return "\n".join(
        [
            f"Command: `{command_line()}`",
            "",
            f"Machine: {machine()}",
            "",
            f"Arena: {args.rounds} seeded solo rounds (standard game, 7 minutes) per agent.",
            "",
            table(["agent", "mean", "median", "stdev", "range", "vs baseline"], rows),
            "",
            f"Target: `normal` beats random legal placement by ≥ 10 points: "
            f"{normal - base:+.1f}, {'holds' if normal - base >= 10 else 'DOES NOT HOLD'}.",
            "",
            f"Decision time: {len(result.positions)} positions ({', '.join(map(str, STOPS))} "
            f"tiles on the board, {TIMED_SEEDS} rounds), {args.timing_rounds} interleaved rounds"
            f" × {args.samples} samples; a sample is the mean of enough calls to last ≥ "
            f"{MIN_SAMPLE_NS // 1_000_000} ms; GC disabled during each sample.",
            "",
            table(["case", "median", "p90", "samples", "× baseline"], timed_rows),
            "",
            f"A decision weighs {weighed:g} placings (median over the positions); rescoring the "
            f"board for each would take about {fmt_ns(naive)}.",
            "",
            f"Target: one decision ≤ 50 ms median: {fmt_ns(decide)}, "
            f"{'holds' if decide <= 50_000_000 else 'DOES NOT HOLD'}.",
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.mondo", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="40 rounds, a short timing run")
    parser.add_argument("--rounds", type=int, help="arena rounds per agent (default 200)")
    parser.add_argument("--samples", type=int, help="timing samples per round (default 60)")
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (40 if args.quick else 200)
    args.samples = args.samples or (10 if args.quick else 60)
    args.timing_rounds = 2 if args.quick else 5
    result = arena(args.rounds)
    timed = timing(result.positions, args.timing_rounds, args.samples)
    print(report(result, timed, args))


if __name__ == "__main__":
    main()
