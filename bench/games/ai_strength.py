"""The public strength of each AI level: the levels rated against each other, on the players'
scale, from seeded games of AIs alone. Writes `app/people/ai_strength.json`, which the
leaderboards serve (`GET /api/leaderboards/{game}`, `ai_levels`).

Run from the project root (about 10 minutes with two processes):

    .venv/bin/python -m bench.games.ai_strength --jobs 2
    .venv/bin/python -m bench.games.ai_strength --games 12 --out -   # a quick look, no file

Each title plays `--games` games (seeds 0, 1, ...) at a table of AIs alone as the service hosts
it (`bench.games.selfplay`, the title's default options), with 2 seats to the title's most
(Bazaar 6, the others 4), drawn at random, and each seat's level drawn from `easy`, `normal`
and `hard`, with at least two levels at every table. Each level is one player: the games are
rated in the order of their seeds with the service's own model and number
(`app.people.results.fold`, `shown`), so a level's figure is what a player with its results
against the other levels would be shown. Where a level sits at several seats, it takes part once,
placed by the mean place of its seats (1 is first; equal means share a place). The figures are
relative: the levels met nobody but each other, so their mean stays near a new player's 1,000
less three of its uncertainties, and a player's rating is comparable with them only loosely.
"""

from __future__ import annotations

import argparse
import datetime
import json
import multiprocessing
import random
import shlex
import statistics
import sys
import time
from collections.abc import Sequence
from pathlib import Path

import msgspec

from app.people.results import GameResult, SeatResult, Skill, fold, places, shown
from bench.common import machine, table
from bench.games.selfplay import play_out
from domain.chance import Dice
from domain.game import Setup
from domain.registry import TABLES

LEVELS = ("easy", "normal", "hard")
MOST_SEATS = {"crazymino": 4, "bazaar": 6, "mondo": 4}
OUT = Path(__file__).resolve().parents[2] / "app" / "people" / "ai_strength.json"


class Played(msgspec.Struct, frozen=True):
    title: str
    seed: int
    levels: tuple[str, ...]
    scores: tuple[int, ...]
    places: tuple[int, ...]  # each seat's, as the service places a finished game's seats


def seating(title: str, seed: int) -> tuple[str, ...]:
    """The levels at game `seed`'s table: 2 seats to the most, at least two levels."""
    rng = random.Random(f"{title}:{seed}")
    seats = rng.randint(2, MOST_SEATS[title])
    while True:
        levels = tuple(rng.choice(LEVELS) for _ in range(seats))
        if len(set(levels)) > 1:
            return levels


def play_one(job: tuple[str, int]) -> Played:
    title, seed = job
    game = TABLES[title]
    levels = seating(title, seed)
    players = tuple(f"AI {n + 1}" for n in range(len(levels)))
    options = msgspec.to_builtins(game.options(Setup(seed, players)))
    setup = Setup(seed, players, options, ai_seats=tuple(range(len(levels))))
    _, state = play_out(game, setup, levels, Dice(seed ^ 0x5A1E))
    scores = tuple(game.scores(state))
    return Played(title, seed, levels, scores, tuple(places(game, state)))


def as_result(played: Played) -> GameResult:
    """The game as the levels' result: each level once, by the mean place of its seats."""
    present = sorted(set(played.levels), key=LEVELS.index)
    seated = list(zip(played.levels, played.places, played.scores, strict=True))
    mean = {level: statistics.mean(p for lv, p, _ in seated if lv == level) for level in present}
    score = {
        level: round(statistics.mean(s for lv, _, s in seated if lv == level)) for level in present
    }
    seats = [
        SeatResult(n, level, score[level], 1 + sum(mean[o] < mean[level] for o in present), level)
        for n, level in enumerate(present)
    ]
    return GameResult(f"{played.title}-{played.seed}", played.title, played.seed, True, seats)


def rated(games: Sequence[Played]) -> dict[str, tuple[Skill, int, float]]:
    """Each level's skill after every game, how many games it played and its mean place
    among the levels at the table."""
    skills: dict[str, Skill] = {}
    results = fold([as_result(g) for g in games], skills)
    found = {}
    for level in LEVELS:
        mine = [s.place for r in results for s in r.seats if s.player == level]
        if mine:
            found[level] = (skills[level], len(mine), statistics.mean(mine))
    return found


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.games.ai_strength")
    parser.add_argument("--games", type=int, default=200, help="games per title")
    parser.add_argument("--jobs", type=int, default=1, help="processes that play them")
    parser.add_argument("--titles", default=",".join(MOST_SEATS), help="comma separated")
    parser.add_argument("--out", default=str(OUT), help="the data file ('-': none)")
    args = parser.parse_args(argv)
    titles = args.titles.split(",")
    work = [(title, seed) for title in titles for seed in range(args.games)]
    started = time.perf_counter()
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            played = pool.map(play_one, work, chunksize=1)
    else:
        played = [play_one(job) for job in work]
    seconds = time.perf_counter() - started
    figures, rows = {}, []
    for title in titles:
        levels = rated([g for g in played if g.title == title])
        figures[title] = {lv: {"rating": shown(s), "games": n} for lv, (s, n, _) in levels.items()}
        for level, (skill, games, place) in levels.items():
            figure = [str(shown(skill)), f"{skill.mu:.2f}", f"{skill.sigma:.2f}", str(games)]
            rows.append([title, f"`{level}`", *figure, f"{place:.2f}"])
    asked = list(argv) if argv is not None else sys.argv[1:]
    command = shlex.join([".venv/bin/python", "-m", "bench.games.ai_strength", *asked])
    header = ["title", "level", "rating", "mu", "sigma", "games", "mean place among the levels"]
    print(f"Command: `{command}`\n\nMachine: {machine()}; {seconds:.0f} s\n")
    print(table(header, rows))
    if args.out != "-":
        data = {
            "command": command,
            "date": datetime.date.today().isoformat(),
            "games_per_title": args.games,
            "titles": figures,
        }
        Path(args.out).write_text(json.dumps(data, indent=2) + "\n")
        print(f"\nWritten to {args.out}")


if __name__ == "__main__":
    main()
