"""A player's view while logs of 1 MB are imported: is the event loop free meanwhile?

Run from the project root:

    .venv/bin/python -m bench.service.import_load              # 10 imports at once
    .venv/bin/python -m bench.service.import_load --imports 4   # fewer

One API process (uvicorn, a private redis-server, no worker) serves a running Crazymino game.
A client asks for its view (`GET /api/games/{id}`) one request after another: first `QUIET`
times alone, then while `--imports` imports of one log of just under 1 MB are sent at once (a
Bazaar game of six people who draw and end their turns without buying, ended as abandoned; of
version 1 of Bazaar's rules, before its last round: today's longest log is smaller). The ratio
is the views' median (and their largest) under imports over quiet.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import time
from typing import Any

import httpx
import msgspec
from msgspec.structs import replace

from app.api.projection import LOG_FORMAT, api_types
from app.commands.seats import PublicSeat
from bench.common import percentile
from bench.servers import redis_server, report_header, uvicorn_server
from domain.bazaar.model import ChooseColour, Draw, EndTurn
from domain.game import Abandon, Record, Setup
from domain.registry import TABLES

QUIET = 200
LIMIT = 1024 * 1024
JSON = {"content-type": "application/json"}


def long_log(most: int = LIMIT - 20_000) -> bytes:
    """A Bazaar log of six seats drawing and ending their turns, just under `most` bytes: of
    version 1 of the rules, which had no last round (such logs still import)."""
    game = TABLES["bazaar"]
    players = tuple(f"player {n}" for n in range(6))
    setup = Setup(seed=7, players=players)
    opening = [replace(e, rules=1) if hasattr(e, "rules") else e for e in game.start(setup, 0)]
    records = [Record(0, None, e) for e in opening]
    state = game.replay(r.event for r in records)
    types = api_types(game)
    size, now = 2_000, 0
    while size < most:
        (seat,) = game.to_act(state)
        turn: list[Any] = []
        for command in (Draw(), ChooseColour("red"), EndTurn()):
            if isinstance(command, ChooseColour) and not (turn and turn[-1].face == "joker"):
                continue
            events = game.decide(state, seat, command, now)
            state = game.fold(state, events)
            turn += events
        records += [Record(now, seat, e) for e in turn]
        size += sum(len(msgspec.json.encode(types.record(now, seat, e))) + 1 for e in turn)
        now += 1000
    records += [Record(now, None, e) for e in game.decide(state, None, Abandon(), now)]
    seats = [PublicSeat(n, "human", name, None) for n, name in enumerate(players)]
    log = types.log(LOG_FORMAT, setup, seats, [types.record(r.at, r.by, r.event) for r in records])
    data = msgspec.json.encode(log)
    assert len(data) < LIMIT, len(data)
    return data


async def views(client: httpx.AsyncClient, game_id: str, stop: asyncio.Event | None) -> list[float]:
    times: list[float] = []
    while (len(times) < QUIET) if stop is None else not stop.is_set():
        started = time.perf_counter()
        answer = await client.get(f"/api/games/{game_id}")
        times.append(time.perf_counter() - started)
        assert answer.status_code == 200, answer.text
    return times


async def run(base: str, log: bytes, imports: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=base, timeout=120) as client:
        made = await client.post(
            "/api/games",
            json={"game": "crazymino", "seats": [{"type": "human", "name": n} for n in "ab"]},
        )
        assert made.status_code == 201, made.text
        game_id = made.json()["id"]
        await client.post("/api/games/import", content=log, headers=JSON)  # the pool warmed
        quiet = await views(client, game_id, None)
        stop = asyncio.Event()
        watching = asyncio.create_task(views(client, game_id, stop))
        started = time.perf_counter()
        answers = await asyncio.gather(
            *(client.post("/api/games/import", content=log, headers=JSON) for _ in range(imports))
        )
        took = time.perf_counter() - started
        stop.set()
        loaded = await watching
        assert all(a.status_code == 201 for a in answers), [a.text for a in answers]
    return {"quiet": quiet, "loaded": loaded, "took": took}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--imports", type=int, default=10)
    args = parser.parse_args()
    log = long_log()
    env = {"RATE_CREATE_PER_MINUTE": "0", "RATE_VIEWS_PER_MINUTE": "0", "MAX_OPEN_GAMES": "0"}
    with redis_server() as redis:
        env["REDIS_URL"] = redis.url
        with uvicorn_server("app.main:create_app", env) as api:
            found = asyncio.run(run(api.url, log, args.imports))
    quiet, loaded = found["quiet"], found["loaded"]
    q, lo = statistics.median(quiet), statistics.median(loaded)
    print(report_header("A view while logs are imported"))
    print(f"log: {len(log):,} B; {args.imports} imports at once took {found['took']:.2f} s")
    print("| views | n | median | p90 | largest |\n|---|---|---|---|---|")
    for name, times in (("quiet", quiet), ("during imports", loaded)):
        cells = [statistics.median(times), percentile(times, 90), max(times)]
        print(
            f"| {name} | {len(times)} | " + " | ".join(f"{c * 1000:.1f} ms" for c in cells) + " |"
        )
    p90 = percentile(loaded, 90) / percentile(quiet, 90)
    print(f"\nratio of medians: {lo / q:.2f}; of p90: {p90:.2f}")


if __name__ == "__main__":
    main()
