"""A process killed (kill -9) in the middle of a table's start, between the table's write
(`started`) and its players' games (other slots): the game is in no player's "My games" until
a worker runs; then the sweep writes what the process did not, and both players find it."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import httpx
from faults.conftest import settings
from faults.players import ok, player

from tests.processes import ROOT, RedisServer, start_server, start_worker, stop

#: Starts the table as its creator, in a process that kills itself once the table says
#: `started` and before its players' indexes are written (`Tables.settle`).
STARTER = """
import asyncio, os, signal, sys

from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.service import GameService
from app.people.accounts import Player
from app.people.players import People
from app.people.tables import Tables
from app.store.connections import data_client
from app.store.events import EventStore


async def killed(self, started):
    os.kill(os.getpid(), signal.SIGKILL)


async def main(table_id, key, name):
    settings = Settings.from_env()
    client = data_client(settings, 4)
    service = GameService(EventStore(client), Catalogue.with_extras(settings.extra_games))
    Tables.settle = killed
    await People.on(client, settings, service).tables.start(Player(key, name), table_id)


asyncio.run(main(*sys.argv[1:]))
"""


async def games_of(client: httpx.AsyncClient) -> list[str]:
    return [g["id"] for g in (await ok(client.get("/api/me/games")))["games"]]


async def test_a_start_killed_between_the_table_and_the_players_games_is_repaired(
    store: RedisServer, tmp_path: Path
) -> None:
    env = settings(store)
    api, base = start_server(env, tmp_path / "api.log")
    worker = None
    ann, bob = await player(base, "ann_start"), await player(base, "bob_start")
    try:
        body = {"game": "crazymino", "seats": [{"type": "open"}] * 2}
        table = await ok(ann.post("/api/tables", json=body), 201)
        await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
        starter = subprocess.run(
            [sys.executable, "-c", STARTER, table["id"], "ann_start", "ann_start"],
            env={**os.environ, **env}, cwd=ROOT, capture_output=True, text=True, timeout=60,
        )  # fmt: skip
        assert starter.returncode == -9, starter.stderr  # killed between the two writes
        shown = await ok(ann.get(f"/api/tables/{table['id']}"))
        assert shown["status"] == "started" and shown["game_id"] == table["id"]
        assert await games_of(bob) == [] and await games_of(ann) == []

        worker = start_worker(env, tmp_path / "worker.log")
        while await games_of(bob) != [table["id"]]:  # the sweep, once the start counts as left
            assert worker.poll() is None, "the worker stopped"
            await asyncio.sleep(0.5)
        assert await games_of(ann) == [table["id"]]
        game = await ok(bob.get(f"/api/games/{table['id']}"))
        assert [s["player"] for s in game["seats"]] == ["ann_start", "bob_start"]
    finally:
        await ann.aclose()
        await bob.aclose()
        for proc in (worker, api):
            if proc is not None:
                stop(proc)
