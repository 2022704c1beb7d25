"""A seed the creator chose is public: every seat and spectator is told it from the first
view, in the event list and the lobby, and the game is casual. A seed the service drew is in
no answer while the game runs."""

from __future__ import annotations

import json

import httpx
import redis
from people import closing, name, ok, signed_up

from tests.processes import database

HUMANS = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]


async def test_a_chosen_seed_is_told_to_a_spectator_from_the_first_view(server: str) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as spectator:
        body = {"game": "crazymino", "seats": HUMANS, "seed": 4242}
        created = await ok(spectator.post("/api/games", json=body), 201)
        game_id = created["id"]
        view = await ok(spectator.get(f"/api/games/{game_id}"))
        assert view["seat"] is None and view["seed"] == 4242 and view["casual"] is True
        log = await ok(spectator.get(f"/api/games/{game_id}/events"))
        assert log["seed"] == 4242 and log["casual"] is True
        lobby = await ok(spectator.get("/api/games", params={"limit": 100}))
        (listed,) = [g for g in lobby["games"] if g["id"] == game_id]
        assert listed["seed"] == 4242 and listed["casual"] is True


async def test_a_table_opened_with_a_seed_says_so_and_is_casual(server: str) -> None:
    ann = await signed_up(server, name("ann"))
    async with closing(ann):
        body = {"game": "crazymino", "seats": [{"type": "open"}] * 2, "seed": 7, "rated": True}
        table = await ok(ann.post("/api/tables", json=body), 201)
        assert table["seed"] == 7 and table["casual"] is True and table["rated"] is False
        unseeded = {"game": "crazymino", "seats": [{"type": "open"}] * 2, "rated": True}
        table = await ok(ann.post("/api/tables", json=unseeded), 201)
        assert "seed" not in table and table["casual"] is False and table["rated"] is True


async def test_a_drawn_seed_is_in_no_view_event_list_or_lobby_page(
    server: str, redis_url: str
) -> None:
    async with httpx.AsyncClient(base_url=server, timeout=10) as spectator:
        created = await ok(
            spectator.post("/api/games", json={"game": "crazymino", "seats": HUMANS}), 201
        )
        game_id = created["id"]
        with redis.Redis.from_url(database(redis_url, 1, flush=False)) as client:
            setup = client.hget(f"game:{{{game_id}}}:meta", "setup")
        assert setup is not None
        seed = str(json.loads(setup)["seed"])
        token = created["seats"][0]["token"]
        for headers in ({}, {"Authorization": f"Bearer {token}"}):
            view = await spectator.get(f"/api/games/{game_id}", headers=headers)
            assert view.json()["seed"] is None and view.json()["casual"] is False
            log = await spectator.get(f"/api/games/{game_id}/events", headers=headers)
            assert log.json()["seed"] is None
            for answer in (created, view.text, log.text):
                assert seed not in json.dumps(answer) and seed not in str(answer)
        lobby = await spectator.get("/api/games", params={"limit": 100})
        (listed,) = [g for g in lobby.json()["games"] if g["id"] == game_id]
        assert listed["seed"] is None and seed not in lobby.text
