"""Clients for the fault-injection tests: players that never give up on a command, and what
the server acknowledged to them, checked against the logs afterwards."""

from __future__ import annotations

import asyncio
import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

import httpx

HUMANS = [{"type": "human"}, {"type": "human"}]


async def player(base: str, name: str) -> httpx.AsyncClient:
    """A browser of a new account, its CSRF header on every request."""
    browser = httpx.AsyncClient(base_url=base, timeout=10)
    await browser.get("/api/games/types")
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    made = await browser.post("/api/accounts", json={"name": name, "password": "correct horse"})
    assert made.status_code == 201, made.text
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    return browser


async def ok(answer: Any, status: int = 200) -> Any:
    response = await answer
    assert response.status_code == status, response.text
    return response.json()


@dataclass
class Seen:
    """What the clients saw: each status, each error of transport, each acknowledgement."""

    statuses: Counter[int] = field(default_factory=Counter)
    transport_errors: int = 0
    acked: dict[str, tuple[int, list[dict[str, Any]]]] = field(default_factory=dict)  # key ->
    # the seat that sent it, and the entries it was answered
    slowest: float = 0.0


async def create(
    client: httpx.AsyncClient, seats: list[dict[str, Any]], seed: int
) -> dict[str, Any]:
    body = {"game": "crazymino", "seats": seats, "seed": seed}
    while True:
        try:
            answer = await client.post("/api/games", json=body)
        except httpx.TransportError:
            await asyncio.sleep(0.2)
            continue
        if answer.status_code == 201:
            created: dict[str, Any] = answer.json()
            return created
        assert answer.status_code == 503, answer.text
        await asyncio.sleep(0.2)


class Player:
    """Plays both seats of one game; every command carries an Idempotency-Key and is sent again,
    with the same key, until the server acknowledges it (after a 503 or a lost connection)."""

    def __init__(self, game: dict[str, Any], seen: Seen, seed: int) -> None:
        self.game_id = game["id"]
        self.tokens = {s["seat"]: s["token"] for s in game["seats"]}
        self.seen = seen
        self.rng = random.Random(seed)
        self.sent = 0
        self.over = False

    async def play(self, bases: list[str], until: asyncio.Event) -> None:
        while not until.is_set() and not self.over:
            shown = await self._view(bases)
            if shown["status"] == "over":
                self.over = True
                return
            (seat,) = shown["to_act"]
            if seat != shown["seat"]:
                shown = await self._view(bases, self.tokens[seat])
            command = self.rng.choice(shown["legal"])
            key = f"{self.game_id}-{self.sent}"
            self.sent += 1
            await self._send(bases, seat, command, key)

    async def _view(self, bases: list[str], token: str | None = None) -> dict[str, Any]:
        token = token or self.tokens[0]
        while True:
            try:
                async with httpx.AsyncClient(base_url=bases[0], timeout=10) as client:
                    answer = await client.get(
                        f"/api/games/{self.game_id}", headers={"Authorization": f"Bearer {token}"}
                    )
            except httpx.TransportError:
                self.seen.transport_errors += 1
                bases.append(bases.pop(0))  # another API process
                await asyncio.sleep(0.1)
                continue
            self.seen.statuses[answer.status_code] += 1
            if answer.status_code == 200:
                shown: dict[str, Any] = answer.json()
                return shown
            assert answer.status_code == 503, answer.text
            await asyncio.sleep(0.2)

    async def _send(self, bases: list[str], seat: int, command: dict[str, Any], key: str) -> None:
        headers = {"Authorization": f"Bearer {self.tokens[seat]}", "Idempotency-Key": key}
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            try:
                async with httpx.AsyncClient(base_url=bases[0], timeout=10) as client:
                    answer = await client.post(
                        f"/api/games/{self.game_id}/commands", json=command, headers=headers
                    )
            except httpx.TransportError:
                self.seen.transport_errors += 1
                bases.append(bases.pop(0))
                await asyncio.sleep(0.1)
                continue
            self.seen.slowest = max(self.seen.slowest, loop.time() - started)
            self.seen.statuses[answer.status_code] += 1
            if answer.status_code == 200:
                self.seen.acked[key] = (seat, answer.json()["events"])
                return
            assert answer.status_code == 503, answer.text
            await asyncio.sleep(0.2)


async def log_of(base: str, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    """The game's log as a seat (or a spectator) sees it."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    async with httpx.AsyncClient(base_url=base, timeout=10) as client:
        answer = await client.get(f"/api/games/{game_id}/events", headers=headers)
    assert answer.status_code == 200, answer.text
    events: list[dict[str, Any]] = answer.json()["events"]
    return events


async def check_acknowledged(base: str, players: list[Player], seen: Seen) -> None:
    """Every acknowledged command is in its log exactly as it was acknowledged to its seat;
    every command is in once; versions run from 1 with no gap."""
    for player in players:
        logs = {seat: await log_of(base, player.game_id, t) for seat, t in player.tokens.items()}
        events = logs[0]
        assert [e["version"] for e in events] == list(range(1, len(events) + 1)), "a gap"
        mine = {k: v for k, v in seen.acked.items() if k.startswith(player.game_id)}
        assert len(mine) == player.sent, "a command was never acknowledged"
        for key, (seat, acked) in mine.items():
            for entry in acked:
                stored = logs[seat][entry["version"] - 1]
                assert stored == entry, f"{key} is not in the log as acknowledged"
        commands = [e for e in events if e["event"]["type"] in ("tile_placed", "turn_passed")]
        assert len(commands) == player.sent, (len(commands), player.sent)  # none twice
