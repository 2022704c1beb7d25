"""The rules engine's share of one Crazymino command as the service pays it, A/B: a base commit's
`domain` against this tree's, in the same run, alternating.

Run from the project root:

    .venv/bin/python -m bench.games.command                 # base: merge-base with `main`
    .venv/bin/python -m bench.games.command --base cbc2e0c  # any commit
    .venv/bin/python -m bench.games.command --quick         # a short run (about 5 s)
    .venv/bin/python -m bench.games.command --profile       # cProfile this tree's side

The workload is that of the seat WebSocket under load: 2-human Crazymino games (the service's
`seated` game, as `domain.registry.TABLES` hosts it), every command a `place_tile` or a
`draw_and_pass` of the seat to play, chosen by a seeded picker from `legal` as
`bench.service.http_commands.script` chooses (worked out once, before timing). One command costs the
domain exactly what `app` asks of it (`step`, in this order):

- `GameService._execute`: `admit`, `decide`, and `fold` of the decided events into the state;
- `ArqScheduler.expect` and `.schedule`: `work_of` twice (`is_over`, `to_act`, `away` through
  `Table.ai_level` for each seat to act, `timers`);
- `Table.over` (`is_over`) for the stream's status field, in the hub's `_appended` and for the
  lifecycle, each once;
- the hub's deliveries: `evolve` and `is_over` per event only once the game is over (`_folded`);
- the mover's `applied` answer (`socket._acknowledge` → `projection.entries`): `is_over`, then
  `redact` and `describe` of each event for the mover;
- the other seat's `events` push (`socket._pass_on`): `entries` once per event with `over`
  given, so `redact` and `describe` for that seat.

A timed case plays one whole game's commands from the state its start events fold to, each on
the state the previous command's `fold` gave (as the service's cached table), so every board is
as new to the rules as in the service. A sample is the time of one game divided by its commands
(per command), GC disabled; samples go round-robin over the games, and both sides time the same
game in the same round (a paired comparison: the machine is shared and noisy). A second row is
the same games at a table with a 60 s turn clock (the table's `ClockSet` events, a timer).

The base's `domain` package is extracted with `git archive <base> domain | tar -x` into a
temporary directory; each side runs in its own worker process whose `sys.path` starts with its
tree (as `bench.games.rules_ab`). The parent checks that both sides give the same events,
states, words and machine work for every command, then asks them in turn for a block of samples
(one game by default), alternating which side goes first. Each number is the median over rounds
of a round's median; the ratio is the median over rounds of (base round median / new round
median), with the quartiles of the round ratios beside it.
"""

from __future__ import annotations

import argparse
import cProfile
import gc
import hashlib
import io
import json
import pstats
import random
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from bench.games.ab import alternate, fmt, revisions

ROOT = Path(__file__).resolve().parents[2]
SEEDS = range(8)  # games
PLAYERS = ("Ann", "Bob")
START = 1_700_000_000_000  # server time of the first command (ms)
NAMES = [
    "one command, 2 humans, no clock (per command)",
    "one command, 2 humans, 60 s turn clock (per command)",
]
OPTIONS: list[dict[str, Any]] = [{}, {"turn_seconds": 60}]

Move = tuple[int, Any, int]  # (seat, command, now)


def script(game: Any, seed: int, options: dict[str, Any]) -> tuple[Any, list[Move]]:
    """A seeded 2-human game: the state its start events fold to, and every command after it,
    chosen by a seeded picker from `legal` (as `bench.service.http_commands.script`)."""
    from domain.game import Setup

    asked = Setup(seed=seed, players=PLAYERS, options=options)
    setup = Setup(seed=seed, players=PLAYERS, options=msgspec.to_builtins(game.options(asked)))
    first = game.fold(game.initial(), game.start(setup, START))
    choose = random.Random(seed)
    state, moves, now = first, [], START
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        now += 1_000
        command = choose.choice(game.legal(state, seat, now))
        state = game.fold(state, game.decide(state, seat, command, now))
        moves.append((seat, command, now))
    return first, moves


def work_of(game: Any, state: Any) -> Any:
    """The domain calls of `app.machine.work.work_of` (every seat is a person's: `Table.ai_level`
    asks `away` for each seat to act, and a person's seat asks nothing more); the glue around
    them is left out."""
    if game.is_over(state):  # Table.over
        return None
    away = [game.away(state).get(seat) for seat in game.to_act(state)]
    return away, [(t.key, t.due) for t in game.timers(state)]


def step(game: Any, state: Any, version: int, move: Move) -> tuple[Any, ...]:
    """One command's domain calls as the service, the hub and the two seats' sockets make them."""
    seat, command, now = move
    other = 1 - seat
    # GameService._execute
    game.admit(state, seat, command)
    events = game.decide(state, seat, command, now)
    after = game.fold(state, events)
    version += len(events)
    work = work_of(game, after)  # scheduler.expect(after)
    game.is_over(after)  # status_field("over") if after.over
    # the hub's _appended: after.over, and _folded once the game is over
    if game.is_over(after):
        overs, folded = [], state
        for event in events:
            folded = game.evolve(folded, event)
            overs.append(bool(game.is_over(folded)))
    else:
        overs = [False] * len(events)
    game.is_over(after)  # if after.over and self.lifecycle
    again = work_of(game, after)  # scheduler.schedule(after)
    # the mover's `applied` answer: projection.entries(after, own, seat)
    names = list(PLAYERS)
    shown = game.is_over(after)
    mine = [game.describe(e if shown else game.redact(e, seat), names) for e in events]
    # the other seat's `events` push: projection.entries(table, [entry], other, over=...)
    theirs = []
    for event, over in zip(events, overs, strict=True):
        names = list(PLAYERS)
        theirs.append(game.describe(event if over else game.redact(event, other), names))
    return after, version, events, work, again, overs, mine, theirs


def play(game: Any, first: Any, moves: list[Move]) -> Any:
    """Every command of one game, each on the state the one before left."""
    state, version = first, 1
    for move in moves:
        state, version, *_ = step(game, state, version, move)
    return state


def digest(game: Any, games: list[tuple[Any, list[Move]]]) -> str:
    """What both sides must agree on: every command's events, states, words and machine work."""
    sha = hashlib.sha256()
    for first, moves in games:
        sha.update(repr(moves).encode())
        state, version = first, 1
        for move in moves:
            out = step(game, state, version, move)
            state, version = out[0], out[1]
            sha.update(repr(out).encode())
    return sha.hexdigest()


def samples_of(
    game: Any, games: list[tuple[Any, list[Move]]], samples: int, start: int = 0
) -> list[float]:
    """`samples` per-command times (ns), each of one whole game, round-robin over the games
    from game `start`, GC disabled while a game is timed."""
    gc.collect()
    out = []
    for i in range(start, start + samples):
        first, moves = games[i % len(games)]
        gc.disable()
        try:
            begin = time.perf_counter_ns()
            play(game, first, moves)
            stop = time.perf_counter_ns()
        finally:
            gc.enable()
        out.append((stop - begin) / len(moves))
    return out


# -- the worker (one per side) ---------------------------------------------------------------


def worker(tree: str) -> None:
    """Serve timing requests on stdin/stdout with the `domain` package of `tree`."""
    sys.path.insert(0, tree)
    import domain  # the side's package, before anything imports another

    where = Path(domain.__file__).resolve().parent.parent
    assert where == Path(tree).resolve(), f"imported {where}, not {tree}"

    from domain.crazymino.game import CRAZYMINO
    from domain.seating import seated

    game = seated(CRAZYMINO)
    cases = [[script(game, seed, options) for seed in SEEDS] for options in OPTIONS]
    hello = {
        "digest": [digest(game, games) for games in cases],
        "commands": [sum(len(moves) for _, moves in games) for games in cases],
    }
    for games in cases:  # warm-up
        for first, moves in games:
            play(game, first, moves)
    print(json.dumps(hello), flush=True)
    done = [0] * len(cases)  # both sides are asked alike: they time the same game in turn
    for line in sys.stdin:
        index, samples = json.loads(line)
        print(json.dumps(samples_of(game, cases[index], samples, done[index])), flush=True)
        done[index] += samples


def profile(calls: int = 200) -> str:
    """The top of a cProfile of this tree's side, no-clock games."""
    from domain.crazymino.game import CRAZYMINO
    from domain.seating import seated

    game = seated(CRAZYMINO)
    games = [script(game, seed, OPTIONS[0]) for seed in SEEDS]
    profiler = cProfile.Profile()
    profiler.enable()
    for i in range(calls):
        play(game, *games[i % len(games)])
    profiler.disable()
    out = io.StringIO()
    pstats.Stats(profiler, stream=out).sort_stats("tottime").print_stats(25)
    return out.getvalue()


# -- the parent ------------------------------------------------------------------------------


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bench.games.command",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--base", help="the base commit (default: merge-base of HEAD and main)")
    parser.add_argument("--rounds", type=int, help="alternating rounds (default 400)")
    parser.add_argument("--samples", type=int, help="games per side, row and round (1)")
    parser.add_argument("--quick", action="store_true", help="80 rounds")
    parser.add_argument("--profile", action="store_true", help="cProfile this tree's side only")
    parser.add_argument("--worker", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return
    if args.profile:
        print(profile())
        return
    rounds = args.rounds or (80 if args.quick else 400)
    samples = args.samples or 1
    base, head, dirty = revisions(args.base)
    medians, hello = alternate(
        "bench.games.command", base, len(NAMES), rounds, samples, lambda old, new: old == new
    )

    counts = hello["commands"]
    print(f"Command: `{' '.join(getattr(sys, 'orig_argv', sys.argv))}`\n")
    print(
        f"Base: `{base}` (its `domain/`); new: `{head}`{dirty} (this tree's `domain/`). "
        f"{len(SEEDS)} seeded 2-human games ({counts[0]} and {counts[1]} commands); "
        f"{rounds} alternating rounds × {samples} game(s) per side and row, both sides timing "
        "the same game in a round; each number is the median over rounds of a round's median "
        "time per command, and the ratio is the median over rounds of (base round median / "
        "new round median).\n"
    )
    print("| Benchmark | Base | New | Faster (median of rounds) | Round ratios (quartiles) |")
    print("|---|---|---|---|---|")
    for index, name in enumerate(NAMES):
        old, new = medians[0][index], medians[1][index]
        ratios = [o / n for o, n in zip(old, new, strict=True)]
        low, _, high = statistics.quantiles(ratios, n=4)
        print(
            f"| {name} | {fmt(statistics.median(old))} | {fmt(statistics.median(new))} "
            f"| **{statistics.median(ratios):.2f}×** | {low:.2f} – {high:.2f} |"
        )


if __name__ == "__main__":
    main()
