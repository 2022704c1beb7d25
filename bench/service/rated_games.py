"""Many finished, rated games, stored as the service stores them: what a ratings rebuild reads.

A few hundred real games are played first (`play`): each title at 2 seats to its most (Bazaar
6, the others 4), every seat a person's, played by the `easy` or `normal` policy
(`bench.games.selfplay`, pure and in process); half the Crazymino and Bazaar tables run a turn
clock that people let run out in one turn of twenty (the AI then moves for them, and takes the
seat after three in a row); Mondo's options are drawn as `bench.games.log_sizes` draws them.

Then each log is stored many times (`fill`), under new game ids, between other accounts drawn
from `players` (no seat is an AI's; the meta says `rated`, the seed was not chosen), one game
every `SPACING_MS` in time: its records keep their causes and the gaps between them, shifted to
the copy's start; the start event names the copy's players. The keys are the service's own:
`EventStore.create` (the meta hash from `GameMeta` by `to_fields`, the stream, the version, the
lobby), `Lifecycle.ended` with the time of the last event, and for a share of the games
(`archived`) `Lifecycle.archive`, as the retention job does a day after a game's end. Event
fields that hold a time of their own (a Mondo round's deadline, a turn clock's due) keep the
played game's: nothing a rebuild reads looks at them.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import random
from collections.abc import Sequence
from typing import Any

import msgspec
from redis.asyncio import Redis

from app.commands.catalogue import Catalogue
from app.commands.meta import GameMeta, to_fields
from app.commands.seats import Seat
from app.commands.service import encode_event
from app.people.names import key_of
from app.store.events import EventStore, StoredEvent
from app.store.lifecycle import Lifecycle
from bench.games.log_sizes import mondo_options
from bench.games.selfplay import T0, play_out
from domain.chance import Dice
from domain.game import Setup
from domain.registry import TABLES

#: The most seats of each title's tables here.
TITLES = {"crazymino": 4, "bazaar": 6, "mondo": 4}
LEVELS = ("easy", "normal")
SPACING_MS = 60_000  # one game ends about every minute
IN_FLIGHT = 32  # games stored at once
_CATALOGUE = Catalogue.with_extras()


class Log(msgspec.Struct, frozen=True):
    """A played game: its setup and its records (time, cause, encoded event)."""

    title: str
    setup: Setup
    records: list[tuple[int, int | None, bytes]]


def play_one(job: tuple[str, int]) -> Log:
    """One game of `title` to its end, everything drawn from `seed`."""
    title, seed = job
    game = TABLES[title]
    rng = random.Random(seed)
    seats = rng.randint(2, TITLES[title])
    levels = [rng.choice(LEVELS) for _ in range(seats)]
    clocked = title != "mondo" and rng.random() < 0.5
    asked: dict[str, Any] = mondo_options(rng) if title == "mondo" else {}
    if clocked:
        asked["turn_seconds"] = 60
    players = tuple(f"Seat{n + 1}" for n in range(seats))
    options = msgspec.to_builtins(game.options(Setup(seed, players, asked)))
    setup = Setup(seed, players, options)
    records, _ = play_out(
        game, setup, levels, Dice(seed ^ 0x2A7E), people=True, rng=rng,
        timeout_share=0.05 if clocked else 0.0,
    )  # fmt: skip
    return Log(title, setup, [(r.at, r.by, encode_event(r.event)) for r in records])


def play(per_title: int, jobs: int, first_seed: int = 0) -> list[Log]:
    """`per_title` games of each title, in `jobs` processes."""
    work = [(title, first_seed + n) for n in range(per_title) for title in TITLES]
    if jobs <= 1:
        return [play_one(job) for job in work]
    with multiprocessing.Pool(jobs) as pool:
        return pool.map(play_one, work, chunksize=2)


async def store_one(
    client: Redis, log: Log, game_id: str, names: Sequence[str], created: int, archive: bool
) -> None:
    """One copy of `log`, between the players `names`, begun at `created`."""
    shift = created - log.records[0][0]
    first = _CATALOGUE[log.title].decode_event(log.records[0][2])
    if hasattr(first, "players"):
        first = msgspec.structs.replace(first, players=tuple(names))
    data = [encode_event(first), *(d for _, _, d in log.records[1:])]
    stored = [
        StoredEvent(version, d, at + shift, by)
        for version, ((at, by, _), d) in enumerate(zip(log.records, data, strict=True), 1)
    ]
    setup = msgspec.structs.replace(log.setup, players=tuple(names))
    seats = [Seat(n, "human", name, player=key_of(name)) for n, name in enumerate(names)]
    meta = GameMeta(log.title, "over", created, setup, seats, rated=True)
    lifecycle = Lifecycle(client)
    await EventStore(client).create(game_id, to_fields(meta), stored, created)
    await lifecycle.ended(game_id, stored[-1].at)
    if archive:
        await lifecycle.archive(game_id, len(stored), stored)


async def fill(
    client: Redis,
    logs: Sequence[Log],
    games: int,
    players: int = 500,
    archived: float = 0.0,
    seed: int = 1,
) -> list[str]:
    """Store `games` copies of `logs` (the titles in turn, each title's logs in turn) between
    `players` accounts; a share `archived` of them archived. Their ids, in order."""
    rng = random.Random(seed)
    names = [f"Player{n:03d}" for n in range(players)]
    by_title = {t: [log for log in logs if log.title == t] for t in TITLES}
    titles = [t for t in TITLES if by_title[t]]
    start = T0 - games * SPACING_MS
    ids, pending = [], []
    for n in range(games):
        title = titles[n % len(titles)]
        mine = by_title[title]
        log = mine[(n // len(titles)) % len(mine)]
        sitting = rng.sample(names, len(log.setup.players))
        game_id = f"{rng.getrandbits(64):016x}"
        ids.append(game_id)
        created = start + n * SPACING_MS - (log.records[-1][0] - log.records[0][0])
        pending.append(store_one(client, log, game_id, sitting, created, rng.random() < archived))
        if len(pending) == IN_FLIGHT:
            await asyncio.gather(*pending)
            pending = []
    await asyncio.gather(*pending)
    return ids
