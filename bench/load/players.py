"""One client process of the cluster load test: it plays its share of the games with asyncio
and writes what it saw as one JSON object (`bench.load.cluster` starts several and checks them).

    python -m bench.load.players --urls URL... --first 0 --count 250 --until EPOCH_SECONDS \\
        --report client0.json

Game `n` (counted over the whole test) goes to API `n % len(urls)`. When `n` is odd it is two
AIs; when `n % 4 == 0` a person against the AI (Crazymino). When `n % 4 == 2` it runs a timer
for a person who never acts: a Mondo table of that person and an AI with 10-second rounds,
ended by the round timer, when `n % 8 == 2`; a Crazymino table with a
5-second turn clock, which runs out for that person until the AI takes the seat over, when
`n % 8 == 6`. So the workers time rounds and turn clocks of games with people while they play
the games of AIs. A person keeps its game's stream open (SSE) for
the whole game and reads its view only when it may have changed: at the start, then each time
its stream brings an event newer than the last version it knows (from its last view, or from
the answer to its own command). Two AIs are watched by a spectator's stream. Nothing polls:
a person waits for its stream, at most `--patience` seconds (then it reads its view anyway,
and that wait is counted as a late wake-up). At `--until` the games still running are left
as they are and reported unfinished.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import time
from pathlib import Path
from typing import Any

import httpx
import msgspec
import uvloop


class _Entry(msgspec.Struct):
    at: int  # when the event was decided, epoch milliseconds
    event: dict[str, Any]


_entry = msgspec.json.Decoder(_Entry)


class Tally(msgspec.Struct):
    """What one client process counted."""

    statuses: dict[int, int] = msgspec.field(default_factory=dict)  # answers by status
    posts: list[tuple[float, float]] = msgspec.field(default_factory=list)  # (sent at, ms)
    views: int = 0
    delivery_ms: list[float] = msgspec.field(default_factory=list)  # event's time to its arrival
    reconnects: int = 0
    late_wakeups: int = 0
    lag_ms: list[float] = msgspec.field(default_factory=list)  # the client's own event loop
    cpu_seconds: float = 0.0  # the client process's

    def count(self, status: int) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1


class Played(msgspec.Struct):
    """One game as its client saw it: the ids its stream got, in order."""

    number: int
    kind: str  # "person" (against the AI), "ais" (two AIs), "mondo" or "clock" (an idle person)
    id: str | None = None
    seen: list[int] = msgspec.field(default_factory=list)
    ended: bool = False  # its stream brought the game's end
    created_at: float | None = None  # epoch seconds
    seconds: float | None = None  # from its creation to its end, as the client saw it


class Api:
    """One API process, reached through two connection pools: one for the streams, each holding
    its connection for a game's life, and one for the requests (httpx looks over every
    connection of a pool for each request: hundreds of streams in it made each request slow)."""

    def __init__(self, url: str) -> None:
        limits = httpx.Limits(max_connections=None, max_keepalive_connections=None)
        self.calls = httpx.AsyncClient(base_url=url, timeout=60, limits=limits)
        self.streams = httpx.AsyncClient(base_url=url, timeout=60, limits=limits)

    async def aclose(self) -> None:
        await self.calls.aclose()
        await self.streams.aclose()


class Follower:
    """A game's stream, followed to the game's end (reconnecting with Last-Event-ID)."""

    def __init__(self, client: httpx.AsyncClient, game: Played, token: str | None, tally: Tally):
        self.client = client
        self.game = game
        self.token = token
        self.tally = tally
        self.news = asyncio.Event()

    @property
    def last(self) -> int:
        return self.game.seen[-1] if self.game.seen else 0

    async def follow(self) -> None:
        first = True
        while not self.game.ended:
            if not first:
                self.tally.reconnects += 1
                await asyncio.sleep(0.5)
            first = False
            headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
            if self.game.seen:
                headers["Last-Event-ID"] = str(self.last)
            url = f"/api/games/{self.game.id}/stream"
            try:
                async with self.client.stream("GET", url, headers=headers, timeout=None) as answer:
                    self.tally.count(answer.status_code)
                    if answer.status_code != 200:
                        continue
                    await self._read(answer)
            except httpx.TransportError:  # a dropped stream: resume after the last id
                continue
        self.news.set()

    async def _read(self, answer: httpx.Response) -> None:
        async for line in answer.aiter_lines():
            if line.startswith("id: "):
                self.game.seen.append(int(line[4:]))
            elif line.startswith("data: "):
                entry = _entry.decode(line[6:])
                self.tally.delivery_ms.append(time.time() * 1000 - entry.at)
                if entry.event["type"] == "game_ended":
                    self.game.ended = True
            elif line == "":
                self.news.set()
                if self.game.ended:
                    return

    async def beyond(self, version: int, patience: float) -> None:
        """Until the stream has an event after `version` (or the game ended), at most
        `patience` seconds."""
        while self.last <= version and not self.game.ended:
            self.news.clear()
            if self.last > version or self.game.ended:
                return
            try:
                await asyncio.wait_for(self.news.wait(), patience)
            except TimeoutError:
                self.tally.late_wakeups += 1
                return


async def call(
    client: httpx.AsyncClient, tally: Tally, method: str, url: str, **kwargs: Any
) -> httpx.Response:
    """A request, counted by status; sent again after a dropped connection (status 0; commands
    carry an Idempotency-Key, so a command sent again applies once) or a 503 (it says when)."""
    while True:
        try:
            answer = await client.request(method, url, **kwargs)
        except httpx.TransportError:
            tally.count(0)
            await asyncio.sleep(0.5)
            continue
        tally.count(answer.status_code)
        if answer.status_code == 503:
            await asyncio.sleep(float(answer.headers.get("retry-after", 1)))
            continue
        return answer


async def person(api: Api, tally: Tally, game: Played, token: str, patience: float) -> None:
    """The human seat: its view when its stream says something changed, its command when it is
    to act (a tile if it can place one, else draw and pass)."""
    follower = Follower(api.streams, game, token, tally)
    client = api.calls
    following = asyncio.create_task(follower.follow())
    auth = {"Authorization": f"Bearer {token}"}
    try:
        while not game.ended:
            shown = await call(client, tally, "GET", f"/api/games/{game.id}", headers=auth)
            tally.views += 1
            if shown.status_code != 200:
                await asyncio.sleep(1)
                continue
            view = shown.json()
            known = int(view["version"])
            if view["status"] == "over":
                break
            if view["seat"] in view["to_act"] and view["legal"]:
                command = max(view["legal"], key=lambda c: c["type"] == "place_tile")
                headers = {**auth, "Idempotency-Key": f"{game.id}-{known}"}
                sent, started = time.time(), time.perf_counter()
                answer = await call(
                    client,
                    tally,
                    "POST",
                    f"/api/games/{game.id}/commands",
                    json=command,
                    headers=headers,
                )
                tally.posts.append((sent, (time.perf_counter() - started) * 1000))
                if answer.status_code == 200:
                    known = int(answer.json()["version"])
            await follower.beyond(known, patience)
        await following  # to the game's end on the stream
    finally:
        following.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await following


async def spectator(api: Api, tally: Tally, game: Played, token: str | None = None) -> None:
    """Follows the game to its end; with the token of a person's seat, a person who never acts."""
    await Follower(api.streams, game, token, tally).follow()


def kind_of(number: int) -> str:
    if number % 2:
        return "ais"
    if number % 4 == 0:
        return "person"
    return "mondo" if number % 8 == 2 else "clock"


def table_of(game: Played) -> dict[str, Any]:
    """The body that creates the game."""
    person, ai = {"type": "human"}, {"type": "ai", "level": "easy"}
    if game.kind == "mondo":
        options = {"round_seconds": 10, "break_seconds": 0}
        return {"game": "mondo", "seats": [person, ai], "options": options, "seed": game.number}
    body = {"game": "crazymino", "seed": game.number}
    if game.kind == "clock":
        return {**body, "seats": [person, ai], "options": {"turn_seconds": 5}}
    return {**body, "seats": [person if game.kind == "person" else {"type": "ai"}, ai]}


async def play(
    api: Api,
    tally: Tally,
    game: Played,
    starting: asyncio.Semaphore,
    patience: float,
) -> None:
    body = table_of(game)
    async with starting:  # games start a few at a time, then all run at once
        while (
            answer := await call(api.calls, tally, "POST", "/api/games", json=body)
        ).status_code != 201:
            await asyncio.sleep(1)
    began = time.monotonic()
    game.created_at = time.time()
    created = answer.json()
    game.id = created["id"]
    if game.kind == "person":
        await person(api, tally, game, created["seats"][0]["token"], patience)
    else:
        await spectator(api, tally, game, created["seats"][0].get("token"))
    game.seconds = round(time.monotonic() - began, 2)


async def lag(tally: Tally, every: float = 0.1) -> None:
    """How late the client's event loop wakes a sleeper: when it is, the client is busy (its
    latencies then include its own wait)."""
    loop = asyncio.get_running_loop()
    while True:
        planned = loop.time() + every
        await asyncio.sleep(every)
        tally.lag_ms.append((loop.time() - planned) * 1000)


async def run(urls: list[str], first: int, count: int, until: float, patience: float) -> Any:
    apis = [Api(u) for u in urls]
    tally = Tally()
    games = [Played(number=n, kind=kind_of(n)) for n in range(first, first + count)]
    starting = asyncio.Semaphore(8)
    tasks = [
        asyncio.create_task(play(apis[g.number % len(apis)], tally, g, starting, patience))
        for g in games
    ]
    began = time.time()
    lagging = asyncio.create_task(lag(tally))
    try:
        _, unfinished = await asyncio.wait(tasks, timeout=max(0.0, until - time.time()))
        for task in unfinished:
            task.cancel()
        await asyncio.gather(*unfinished, return_exceptions=True)
        failures = [repr(t.exception()) for t in tasks if not t.cancelled() and t.exception()]
    finally:
        lagging.cancel()
        for api in apis:
            await api.aclose()
    tally.cpu_seconds = round(time.process_time(), 2)
    return {
        "began": began,
        "ended": time.time(),
        "tally": tally,
        "games": games,
        "failures": failures[:20],
        "failure_count": len(failures),
    }


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--urls", nargs="+", required=True)
    parser.add_argument("--first", type=int, required=True)
    parser.add_argument("--count", type=int, required=True)
    parser.add_argument("--until", type=float, required=True, help="epoch seconds")
    parser.add_argument("--patience", type=float, default=10.0)
    parser.add_argument("--report", type=Path, required=True, help="where to write the JSON")
    args = parser.parse_args(argv)
    result = uvloop.run(run(args.urls, args.first, args.count, args.until, args.patience))
    args.report.write_bytes(msgspec.json.encode(result))


if __name__ == "__main__":
    main()
