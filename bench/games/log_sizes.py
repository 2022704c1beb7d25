"""The largest log the service exports: how big an import body must be allowed to be.

Run from the project root:

    .venv/bin/python -m bench.games.log_sizes                # 1,000 games of each title
    .venv/bin/python -m bench.games.log_sizes --games 50     # a quick look

Each title is played at its largest table (Crazymino 4 seats, Bazaar 6, Mondo 4), as the
service hosts it (`domain.registry.TABLES`, the table around the game included). A seat's
command is `policies[level](view of its own seat, entropy, now)`, as the worker asks it; the
levels are drawn per seat from every level the game has (mixed tables). Time is simulated: a
turn-based AI moves `THINK_MS` after the last event; a Mondo AI seat acts at its level's pace
(`ai_delay`) counted from its own last action, and a timer fires when it is due. What makes a
log longer in bytes is taken at its worst: every name of `NAME_LENGTH` characters of four bytes
each in UTF-8, the seed of 19 digits, Mondo's options drawn from all of them (the longest rounds
included).

Two tables per turn-based title: all AI seats, and people at a turn clock (`turn_seconds`, the
most `timeouts_to_ai`), played by the same policies, who let their clock run out at random
(then the `normal` AI moves for them): each command there ends with a `clock_set` event, and a
timeout adds a `timed_out` one. The export is the bytes `app.api.logfile.export` answers
(format `boardgames-log/2`).

What no table here measures: a person may leave and rejoin the table without end, each time
adding events; such a log has no bound but the rate limits.
"""

from __future__ import annotations

import argparse
import contextlib
import multiprocessing
import random
import statistics
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, BinaryIO

import msgspec

from app.api.projection import LOG_FORMAT, api_types
from app.commands.seats import NAME_LENGTH, PublicSeat
from bench.common import command_line, machine, table
from bench.games.selfplay import play_out
from domain.chance import Dice
from domain.game import AnyGame, Setup
from domain.registry import TABLES

NAME = "\U0001d510" * NAME_LENGTH  # 40 characters of 4 bytes each: the longest name in bytes
SEATS = {"crazymino": 4, "bazaar": 6, "mondo": 4}


@dataclass(frozen=True)
class Played:
    title: str
    table: str
    seed: int
    events: int
    size: int  # bytes of the export


def mondo_options(rng: random.Random) -> dict[str, Any]:
    options: dict[str, Any] = {
        "advanced": rng.random() < 0.5,
        "expert": rng.random() < 0.5,
        "backside": rng.random() < 0.5,
    }
    if rng.random() < 0.5:
        options["time"] = rng.choice([7, 10, 15])
    return options


def play(name: str, seed: int, people: bool) -> tuple[int, bytes]:
    """One game to its end: its number of events and its export."""
    game: AnyGame = TABLES[name]
    rng = random.Random(seed)
    seats = SEATS[name]
    levels = [rng.choice(sorted(game.policies)) for _ in range(seats)]
    asked: dict[str, Any] = mondo_options(rng) if name == "mondo" else {}
    if people:
        asked |= {"turn_seconds": 86_400, "timeouts_to_ai": 20}
    big_seed = 2**63 - 1 - seed
    players = tuple(NAME for _ in range(seats))
    ai_seats = () if people else tuple(range(seats))
    options = msgspec.to_builtins(game.options(Setup(big_seed, players, asked)))
    setup = Setup(seed=big_seed, players=players, options=options, ai_seats=ai_seats)
    dice = Dice(seed ^ 0x51DE)  # the policies' entropy (the worker draws it at random)
    timeout_share = rng.random() * 0.9 if people else 0.0
    records, _ = play_out(
        game, setup, levels, dice, people=people, rng=rng, timeout_share=timeout_share
    )
    public = [
        PublicSeat(n, "human" if people else "ai", NAME, None if people else levels[n])
        for n in range(seats)
    ]
    types = api_types(game)
    log = types.log(LOG_FORMAT, setup, public, [types.record(r.at, r.by, r.event) for r in records])
    return len(records), msgspec.json.encode(log)


def _one(job: tuple[str, int, bool]) -> Played:
    name, seed, people = job
    count, data = play(name, seed, people)
    return Played(name, "people, turn clock" if people else "AI", seed, count, len(data))


def measure(
    games: int, names: Sequence[str], processes: int, progress: BinaryIO | None = None
) -> list[Played]:
    tables = [(name, people) for name in names for people in (False, True)]
    tables = [(name, people) for name, people in tables if not (name == "mondo" and people)]
    # seed by seed, so that a run cut short has played every table as often
    jobs = [(name, seed, people) for seed in range(games) for name, people in tables]
    played = []
    with multiprocessing.Pool(processes) as pool:
        for done in pool.imap_unordered(_one, jobs, chunksize=4):
            played.append(done)
            if progress is not None:  # each game as it ends, so that a cut run still tells
                progress.write(msgspec.json.encode(done) + b"\n")
                progress.flush()
    return played


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=1000, help="games per title and table")
    parser.add_argument("--titles", default=",".join(SEATS), help="comma separated")
    parser.add_argument("--processes", type=int, default=multiprocessing.cpu_count())
    parser.add_argument("--progress", help="a file that gets each game's size as it ends")
    args = parser.parse_args()
    started = time.monotonic()
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(open(args.progress, "wb")) if args.progress else None
        played = measure(args.games, args.titles.split(","), args.processes, out)
    rows = []
    for key in sorted({(p.title, p.table) for p in played}):
        group = [p for p in played if (p.title, p.table) == key]
        largest = max(group, key=lambda p: p.size)
        rows.append(
            [
                key[0],
                f"{SEATS[key[0]]} seats, {key[1]}",
                str(len(group)),
                f"{statistics.median(p.events for p in group):.0f}",
                f"{max(p.events for p in group):,}",
                f"{statistics.median(p.size for p in group):,.0f}",
                f"{largest.size:,} (seed {largest.seed})",
            ]
        )
    header = ["title", "table", "games", "median events", "most events", "median bytes"]
    print(table([*header, "largest export, bytes"], rows))
    print(f"\nlargest of all: {max(p.size for p in played):,} bytes")
    print(f"`{command_line()}`; {machine()}; {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
