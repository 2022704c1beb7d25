"""The fair deal on a real server, for every title: every seat and watcher is shown the
commitment to the seed the service drew from the first view; while the game runs neither the
seed nor its salt is in any answer (views with hints, event lists, replays, the timeline, the
lobby, the live stream, the seat's socket, refusals); at the end the view and the export reveal
both, they hash to the commitment, and `python -m app verify` checks the exported log with no
Redis and no server. An imported log keeps its commitment."""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import httpx
import pytest
import redis
from client import auth, sse
from test_socket import open_socket

from tests.processes import ROOT, database

TITLES = ["crazymino", "bazaar", "mondo"]
MOVES = 4
VIEWERS: tuple[int | None, ...] = (0, 1, None)


def kept_deal(redis_url: str, game_id: str) -> tuple[int, str]:
    """The seed the service drew and the salt of its commitment, as the `server` fixture's
    Redis (its database 1) keeps them in the game's meta."""
    with redis.Redis.from_url(database(redis_url, 1, flush=False)) as client:
        setup, salt = client.hmget(f"game:{{{game_id}}}:meta", ["setup", "salt"])
    assert setup is not None and salt is not None
    return int(json.loads(setup)["seed"]), str(json.loads(salt))


class Secret:
    """The seed and the salt: no answer may hold either while the game runs."""

    def __init__(self, seed: int, salt: str) -> None:
        self.strings = (str(seed), salt)

    def check(self, text: str, what: str) -> None:
        for value in self.strings:
            assert value not in text, f"{what} holds the seed or its salt: {text[:300]}"


async def read(client: httpx.AsyncClient, secret: Secret, path: str, **asked: Any) -> Any:
    answer = await client.get(path, **asked)
    secret.check(answer.text, f"GET {path}")
    return answer


async def every_channel(
    client: httpx.AsyncClient,
    server: str,
    game_id: str,
    tokens: list[str],
    secret: Secret,
    commitment: str,
) -> dict[str, Any]:
    """Every reading route for every viewer, the seat's socket and two refusals; the spectator's
    view."""
    shown: dict[str, Any] = {}
    for viewer in VIEWERS:
        token = None if viewer is None else tokens[viewer]
        headers = auth(token)
        path = f"/api/games/{game_id}"
        shown = (await read(client, secret, path, headers=headers, params={"hints": True})).json()
        assert shown["status"] == "active" and shown["seed"] is None, shown
        assert shown["fair_deal"] == {"commitment": commitment, "seed": None, "salt": None}
        version = shown["version"]
        for after in (0, version - 1):
            await read(client, secret, f"{path}/events", headers=headers, params={"after": after})
        for at in (1, version):
            await read(client, secret, f"{path}/replay", headers=headers, params={"at": at})
        await read(client, secret, f"{path}/timeline", headers=headers)
        refused = await read(client, secret, f"{path}/export", headers=headers)
        assert refused.status_code == 409 and refused.json()["code"] == "game_running"
        past = await read(client, secret, f"{path}/replay", headers=headers, params={"at": 10**6})
        assert past.status_code == 422 and past.json()["code"] == "bad_version"
        out: list[dict[str, Any]] = []
        await sse(client, game_id, token, None, out, version)
        secret.check(json.dumps(out), f"the stream of {viewer}")
        socket, welcome = await open_socket(server, game_id, token)
        try:
            await socket.until(version)
            await socket.send({"type": "view", "hints": True})
            while (await socket.receive())["type"] != "view":
                pass
            stale = await socket.command({"type": "resign", "expected_version": 0})
            assert stale["type"] == "refused", stale
        finally:
            await socket.connection.close()
        secret.check(json.dumps(welcome) + "".join(socket.texts), f"the socket of {viewer}")
    stale = await client.post(
        f"/api/games/{game_id}/commands",
        json={"type": "resign", "expected_version": 0},
        headers=auth(tokens[1]),
    )
    assert stale.status_code == 409 and stale.json()["code"] == "stale_version"
    secret.check(stale.text, "a refused command")
    await read(client, secret, "/api/games", params={"limit": 100})
    return shown


async def play_one(client: httpx.AsyncClient, game_id: str, tokens: list[str]) -> None:
    """The first seat to act plays its first legal command (a round's timer may have moved the
    game on meanwhile: then it is refused, and the next step tries again)."""
    for seat, token in enumerate(tokens):
        shown = (await client.get(f"/api/games/{game_id}", headers=auth(token))).json()
        if shown["legal"]:
            command = {**shown["legal"][0], "expected_version": shown["version"]}
            sent = await client.post(
                f"/api/games/{game_id}/commands", json=command, headers=auth(tokens[seat])
            )
            assert sent.status_code in (200, 409), sent.text
            return


def verified(path: Path) -> subprocess.CompletedProcess[str]:
    """`python -m app verify FILE` run as a player would, with no Redis to reach."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("REDIS")}
    command = [sys.executable, "-m", "app", "verify", str(path)]
    return subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True)


@pytest.mark.parametrize("title", TITLES)
async def test_the_commitment_is_shown_from_the_start_and_opened_only_at_the_end(
    server: str, redis_url: str, tmp_path: Path, title: str
) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        answer = await client.post("/api/games", json={"game": title, "seats": seats})
        assert answer.status_code == 201, answer.text
        game_id, tokens = answer.json()["id"], [s["token"] for s in answer.json()["seats"]]
        seed, salt = kept_deal(redis_url, game_id)
        commitment = hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()
        secret = Secret(seed, salt)
        secret.check(answer.text, "the creation's answer")
        # a watcher's live stream, from before the first move to the end
        watched: list[dict[str, Any]] = []
        watcher = asyncio.create_task(sse(client, game_id, None, None, watched))
        try:
            first = await every_channel(client, server, game_id, tokens, secret, commitment)
            for _ in range(MOVES):
                await play_one(client, game_id, tokens)
                running = await every_channel(client, server, game_id, tokens, secret, commitment)
            assert running["version"] > first["version"], "no move was played"
            before_the_end = [m for m in watched if m["id"] <= running["version"]]
            assert [m["id"] for m in before_the_end] == list(range(1, running["version"] + 1))
            secret.check(json.dumps(before_the_end), "the watcher's live stream")

            resigned = await client.post(
                f"/api/games/{game_id}/commands", json={"type": "resign"}, headers=auth(tokens[0])
            )
            assert resigned.status_code == 200, resigned.text
            await watcher  # to the game's end
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher

        over = (await client.get(f"/api/games/{game_id}")).json()
        assert over["status"] == "over"
        assert over["fair_deal"] == {"commitment": commitment, "seed": str(seed), "salt": salt}
        exported = await client.get(f"/api/games/{game_id}/export")
        assert exported.status_code == 200, exported.text
        log = exported.json()
        assert (log["commitment"], log["salt"], log["setup"]["seed"]) == (commitment, salt, seed)

        path = tmp_path / f"{title}-{game_id}.json"
        path.write_bytes(exported.content)
        checked = verified(path)
        assert checked.returncode == 0, checked.stderr
        assert "fair deal verified" in checked.stdout and commitment in checked.stdout

        imported = await client.post("/api/games/import", content=exported.content)
        assert imported.status_code == 201, imported.text
        copy = (await client.get(f"/api/games/{imported.json()['id']}")).json()
        assert copy["fair_deal"] == over["fair_deal"]

        log["salt"] = "0" * 32
        broken = await client.post("/api/games/import", json=log)
        assert broken.status_code == 422 and broken.json()["code"] == "commitment_broken"


async def test_a_chosen_seed_stays_public_and_has_no_commitment(server: str) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    async with httpx.AsyncClient(base_url=server, timeout=10) as client:
        body = {"game": "bazaar", "seats": seats, "seed": 77}
        created = (await client.post("/api/games", json=body)).json()
        shown = (await client.get(f"/api/games/{created['id']}")).json()
        assert shown["seed"] == 77 and shown["fair_deal"] is None
