"""Benchmark of the Crazymino rules engine: legal placements, a placement decided, replay, and
one AI move.

Run from the project root:

    .venv/bin/python -m bench.games.rules            # full run (a few seconds)
    .venv/bin/python -m bench.games.rules --quick    # a short run
    .venv/bin/python -m bench.games.rules --profile  # also cProfile each targeted benchmark

Every position and game comes from seeded play, so every run measures the same inputs. The
baseline is `Game.fold` over the same complete games with an `evolve` that returns the state
unchanged: it prices the interpreter's per-event loop on this machine, at this moment, so the
ratio of a result to it moves less with machine noise than the result itself.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import pstats
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

import msgspec
from msgspec.structs import replace

from bench.common import (
    Case,
    Stats,
    calibrate,
    command_line,
    fmt_ns,
    machine,
    sample,
    table,
)
from domain.chance import Dice
from domain.crazymino.board import placings
from domain.crazymino.game import CRAZYMINO, Crazymino
from domain.crazymino.model import Event, PlaceTile, State
from domain.crazymino.tables import TILES
from domain.game import Setup

SEATS = 4
BOARD_TILES = 60  # tiles on the board (start tile included) in the legal-move positions
HAND = 20  # tiles in the hand of the seat to play there
MID_GAME = (20, 30, 40, 50)  # tiles on the board in the mid-game AI positions
POSITION_SEEDS = range(12)  # games played with the `easy` (random legal) policy
REPLAY_SEEDS = range(8)  # complete games played by the `normal` AI
MIN_SAMPLE_NS = 200_000  # a sample lasts at least 0.2 ms (fast cases repeat within it)

DECODER = msgspec.json.Decoder(CRAZYMINO.event_type)
BEST = CRAZYMINO.policies["normal"]


class _Still(Crazymino):
    """Crazymino whose `evolve` does nothing: `fold` with it is the baseline loop."""

    def evolve(self, state: State, event: Event) -> State:
        return state


STILL = _Still()


# -- fixtures --------------------------------------------------------------------------------


def play(seed: int, policy: str, stops: Sequence[int] = ()) -> tuple[list[Event], list[State]]:
    """A seeded 4-player game played by `policy`: its events and the states where the board
    first holds each of `stops` tiles (play ends at the last stop; without stops, at the end).
    """
    dice = Dice(seed ^ 0x5EED)  # the policy's entropy, apart from the game's own chance
    events = CRAZYMINO.start(Setup(seed, tuple(f"P{s}" for s in range(SEATS))))
    state = CRAZYMINO.replay(events)
    found: list[State] = []
    while not CRAZYMINO.is_over(state):
        if stops and len(state.placements) == stops[len(found)]:
            found.append(state)
            if len(found) == len(stops):
                break
            continue
        seat = state.seat_to_play
        assert seat is not None
        command = CRAZYMINO.policies[policy](CRAZYMINO.view(state, seat), dice.below(1 << 30), 0)
        new = CRAZYMINO.decide(state, seat, command)
        events.extend(new)
        state = CRAZYMINO.fold(state, new)
    if len(found) < len(stops):
        raise RuntimeError(f"seed {seed}: the game ended before the board held {stops[-1]} tiles")
    return events, found


def with_full_hand(state: State, seed: int) -> State:
    """The position with the seat to play holding HAND tiles that are not on the board.

    Only for read-only queries: the new hand may repeat tiles of other hands or of the pile.
    """
    seat = state.seat_to_play
    assert seat is not None
    on_board = {p.tile for p in state.placements}
    hand = tuple(Dice(seed).shuffled([t for t in range(len(TILES)) if t not in on_board])[:HAND])
    hands = tuple(hand if s == seat else h for s, h in enumerate(state.hands))
    return replace(state, hands=hands)


@dataclass
class Fixtures:
    full: list[State]  # BOARD_TILES on the board, HAND tiles in the hand of the seat to play
    mid: list[State]  # mid-game positions as played
    games: list[list[Event]]  # complete games
    raw: list[list[bytes]]  # the same games, one JSON document per event as stored


def fixtures() -> Fixtures:
    full: list[State] = []
    mid: list[State] = []
    for seed in POSITION_SEEDS:
        _, states = play(seed, "easy", (*MID_GAME, BOARD_TILES))
        mid.extend(states[:-1])
        full.append(with_full_hand(states[-1], seed))
    games = [play(seed, "normal")[0] for seed in REPLAY_SEEDS]
    raw = [[msgspec.json.encode(e) for e in events] for events in games]
    for state in full:
        seat = state.seat_to_play
        assert seat is not None and len(state.hands[seat]) == HAND
        assert len(state.placements) == BOARD_TILES
    for events, docs in zip(games, raw, strict=True):
        replayed = CRAZYMINO.replay(events)
        assert CRAZYMINO.is_over(replayed)
        assert CRAZYMINO.replay(DECODER.decode(d) for d in docs) == replayed
    return Fixtures(full, mid, games, raw)


# -- benchmarks ------------------------------------------------------------------------------


@dataclass
class Bench:
    name: str
    cases: list[Case]
    target_ns: float | None = None
    number: int = 1  # calls per sample, calibrated before the first round


def _legal(state: State) -> Case:
    seat = state.seat_to_play
    assert seat is not None
    return lambda: CRAZYMINO.legal(state, seat)


def _placings(state: State) -> Case:
    seat = state.seat_to_play
    assert seat is not None
    cells, points, hand = state.cells, state.points, state.hands[seat]
    return lambda: placings(cells, points, hand)


def _decide(state: State) -> Case:
    """`decide` for the placement the `normal` AI picks (the events of a whole turn: the tile
    laid and scored, then the next seat's turn begun, with any automatic draws)."""
    seat = state.seat_to_play
    assert seat is not None
    command = BEST(CRAZYMINO.view(state, seat), 0, 0)
    assert isinstance(command, PlaceTile)
    return lambda: CRAZYMINO.decide(state, seat, command)


def _ai_move(state: State) -> Case:
    seat = state.seat_to_play
    assert seat is not None
    return lambda: BEST(CRAZYMINO.view(state, seat), 0, 0)


def _replay(events: list[Event]) -> Case:
    return lambda: CRAZYMINO.replay(events)


def _baseline(events: list[Event]) -> Case:
    return lambda: STILL.replay(events)


def _decode(docs: list[bytes]) -> Case:
    return lambda: [DECODER.decode(d) for d in docs]


def _decode_replay(docs: list[bytes]) -> Case:
    return lambda: CRAZYMINO.replay(DECODER.decode(d) for d in docs)


def benches(fx: Fixtures) -> list[Bench]:
    """The benchmarks, the baseline first."""
    return [
        Bench("baseline: `fold` with a no-op `evolve`, complete game", [*map(_baseline, fx.games)]),
        Bench(
            f"`legal`: {HAND}-tile hand, {BOARD_TILES} tiles on board",
            [*map(_legal, fx.full)],
            1_000_000,
        ),
        Bench(f"`board.placings`: same {len(fx.full)} positions", [*map(_placings, fx.full)]),
        Bench(
            f"`decide` (placement): {HAND}-tile hand, {BOARD_TILES} on board",
            [*map(_decide, fx.full)],
        ),
        Bench("`decide` (placement): mid-game", [*map(_decide, fx.mid)]),
        Bench("`replay`: complete 4-player game", [*map(_replay, fx.games)], 2_000_000),
        Bench("JSON decode of its events (one document each)", [*map(_decode, fx.raw)]),
        Bench("JSON decode + `replay`", [*map(_decode_replay, fx.raw)]),
        Bench("AI `best` (`view` + policy): mid-game", [*map(_ai_move, fx.mid)], 5_000_000),
        Bench(
            f"AI `best` (`view` + policy): {HAND}-tile hand, {BOARD_TILES} on board",
            [*map(_ai_move, fx.full)],
            5_000_000,
        ),
    ]


def run(
    all_benches: list[Bench], rounds: int, samples: int, keep_gc: bool
) -> tuple[list[Stats], list[float]]:
    """Interleaved rounds (every benchmark once per round, so drift hits them all alike).

    Returns each benchmark's pooled stats and its median ratio to the baseline over rounds.
    """
    for bench in all_benches:
        sample(bench.cases, samples=0, number=1)  # warm-up
        bench.number = calibrate(bench.cases, MIN_SAMPLE_NS)
    stats = [Stats() for _ in all_benches]
    ratios: list[list[float]] = [[] for _ in all_benches]
    for _ in range(rounds):
        for bench, stat in zip(all_benches, stats, strict=True):
            stat.add_round(
                sample(bench.cases, samples=samples, number=bench.number, keep_gc=keep_gc)
            )
        base = stats[0].round_medians[-1]
        for stat, ratio in zip(stats, ratios, strict=True):
            ratio.append(stat.round_medians[-1] / base)
    return stats, [statistics.median(r) for r in ratios]


def profile(bench: Bench, calls: int) -> str:
    """The top of a cProfile of `calls` calls round-robin over the benchmark's cases."""
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(calls):
        bench.cases[i % len(bench.cases)]()
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(12)
    return out.getvalue()


def report(
    fx: Fixtures,
    all_benches: list[Bench],
    stats: list[Stats],
    ratios: list[float],
    args: argparse.Namespace,
) -> str:
    rows = []
    for bench, stat, ratio in zip(all_benches, stats, ratios, strict=True):
        target = "—" if bench.target_ns is None else f"≤ {fmt_ns(bench.target_ns)}"
        holds = "" if bench.target_ns is None else "yes" if stat.median <= bench.target_ns else "NO"
        low, high = min(stat.round_medians), max(stat.round_medians)
        rows.append(
            [
                bench.name,
                fmt_ns(stat.median),
                fmt_ns(stat.p90),
                str(stat.n),
                f"{ratio:.1f}×",
                f"{fmt_ns(low)} – {fmt_ns(high)}",
                target,
                holds,
            ]
        )
    header = ["Benchmark", "Median", "p90", "Samples", "× baseline", "Round medians"]
    events = [len(g) for g in fx.games]
    hands = [len(s.hands[s.seat_to_play or 0]) for s in fx.mid]
    gc_note = "GC left on" if args.keep_gc else "GC disabled during each sample"
    return "\n".join(
        [
            f"Command: `{command_line()}`",
            "",
            f"Machine: {machine()}",
            "",
            f"Method: {args.rounds} interleaved rounds × {args.samples} samples per benchmark; "
            f"a sample is the mean of enough calls to last ≥ {MIN_SAMPLE_NS // 1000} µs "
            f"(`perf_counter_ns`), round-robin over the inputs, after a warm-up; {gc_note}. "
            "Median and p90 are over all samples; × baseline is the median over rounds of "
            "(round median / baseline round median).",
            "",
            table([*header, "Target", "Holds"], rows),
            "",
            f"Inputs: {len(fx.full)} positions with {BOARD_TILES} tiles on the board and a "
            f"{HAND}-tile hand, from seeded random-legal 4-player games; {len(fx.mid)} mid-game "
            f"positions ({', '.join(map(str, MID_GAME))} tiles on the board, hands of "
            f"{min(hands)}–{max(hands)} tiles) from the same games; {len(fx.games)} complete "
            f"4-player games played by the `normal` AI ({min(events)}–{max(events)} events, "
            f"median {statistics.median(events):g}).",
        ]
    )


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.rules", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="a short run (2 rounds × 40)")
    parser.add_argument("--rounds", type=int, help="interleaved rounds (default 5)")
    parser.add_argument("--samples", type=int, help="samples per benchmark per round (400)")
    parser.add_argument("--keep-gc", action="store_true", help="leave the GC on while timing")
    parser.add_argument("--profile", action="store_true", help="cProfile targeted benchmarks")
    args = parser.parse_args(argv)
    args.rounds = args.rounds or (2 if args.quick else 5)
    args.samples = args.samples or (40 if args.quick else 400)

    fx = fixtures()
    all_benches = benches(fx)
    stats, ratios = run(all_benches, args.rounds, args.samples, args.keep_gc)
    print(report(fx, all_benches, stats, ratios, args))
    if args.profile:
        for bench, stat in zip(all_benches, stats, strict=True):
            if bench.target_ns is not None:
                calls = max(len(bench.cases), int(5e8 // max(stat.median, 1.0)))  # 0.5 s unprofiled
                print(f"\n### Profile: {bench.name}\n\n```\n{profile(bench, calls)}```")


if __name__ == "__main__":
    main()
