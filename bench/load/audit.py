"""The end of the cluster load test: every game's log read back over HTTP and held against what
its client's stream got.

A game passes when it is over, its log's versions are 1..N (no gap, no repeat) and its stream
got exactly those ids in that order (none lost, none twice). A game its client never created,
or that is not over, is stalled (its stream, left at the deadline, is not compared).
"""

from __future__ import annotations

import asyncio
from collections import Counter
from typing import Any

import httpx
import msgspec

from bench.load.players import Played


class Audit(msgspec.Struct):
    games: int = 0
    over: int = 0
    stalled: list[str] = msgspec.field(default_factory=list)
    bad_logs: list[str] = msgspec.field(default_factory=list)  # versions not 1..N
    lost: int = 0  # events of the log that the game's stream did not get
    repeated: int = 0  # ids the stream got more than once
    foreign: int = 0  # ids the stream got that the log does not have
    out_of_order: int = 0  # streams whose ids were all there, but not in order
    events: int = 0
    statuses: dict[int, int] = msgspec.field(default_factory=dict)  # the log reads' answers


def _check(audit: Audit, game: Played, log: dict[str, Any]) -> None:
    versions = [e["version"] for e in log["events"]]
    audit.events += len(versions)
    if versions != list(range(1, log["version"] + 1)):
        audit.bad_logs.append(f"{game.id}: versions are not 1..{log['version']}")
    if log["status"] != "over":  # its stream was left at the deadline: not compared
        audit.stalled.append(f"{game.id} (game {game.number}, {game.kind}): {log['status']}")
        return
    audit.over += 1
    seen = Counter(game.seen)
    logged = set(versions)
    audit.lost += sum(1 for v in versions if v not in seen)
    audit.repeated += sum(n - 1 for n in seen.values() if n > 1)
    audit.foreign += sum(n for v, n in seen.items() if v not in logged)
    if sorted(seen) == versions and game.seen != versions:
        audit.out_of_order += 1


async def audit(urls: list[str], games: list[Played], parallel: int = 32) -> Audit:
    result = Audit(games=len(games))
    limits = httpx.Limits(max_connections=parallel)
    clients = [httpx.AsyncClient(base_url=u, timeout=60, limits=limits) for u in urls]
    gate = asyncio.Semaphore(parallel)

    async def one(game: Played) -> None:
        if game.id is None:
            result.stalled.append(f"game {game.number} ({game.kind}): never created")
            return
        async with gate:
            answer = await clients[game.number % len(clients)].get(f"/api/games/{game.id}/events")
        result.statuses[answer.status_code] = result.statuses.get(answer.status_code, 0) + 1
        if answer.status_code != 200:
            result.stalled.append(f"{game.id}: its log answered {answer.status_code}")
            return
        _check(result, game, answer.json())

    try:
        await asyncio.gather(*(one(g) for g in games))
    finally:
        for client in clients:
            await client.aclose()
    return result
