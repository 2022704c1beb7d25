"""Hidden information where players meet, for every game: the lobby of games and of open
tables, a table's page, a player's games (`/api/me/games`) and the chat carry who sits where
and what was said, never a game's state (a hand, the pile, a stall's hidden wares, the bag),
the seed the service drew, a session id or a token, whoever asks, while the game runs."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import redis
from people import closing, name, ok, program_of, signed_up

from tests.processes import database

#: Every key a table, a player's games or a chat message may hold (and the tables' options).
MEETING_KEYS = {
    *("tables", "games", "messages", "id", "game", "title", "status", "creator", "seats"),
    *("seat", "type", "name", "level", "player", "reserved", "declined", "options", "casual"),
    *("rated", "start_when_full", "created", "closes_at", "game_id", "rematch_of", "seed"),
    *("your_turn", "at", "text", "total", "offset", "limit"),
    *("rating", "provisional", "rating_min", "rating_max"),  # a player's rating is public
    *("finished", "ended", "score", "place", "before", "after", "change"),  # results: public
}
#: What a game's state holds in any title: never in those answers.
STATE_KEYS = {"state", "legal", "hints", "hand", "hands", "pile", "bag", "stalls", "events"}
OPTIONS = {"crazymino": {}, "bazaar": {}, "mondo": {"round_seconds": 600}}


def keys_of(value: Any) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys_of(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys_of(v)}
    return set()


def drawn_seed(redis_url: str, game_id: str) -> str:
    with redis.Redis.from_url(database(redis_url, 1, flush=False)) as client:
        setup = client.hget(f"game:{{{game_id}}}:meta", "setup")
    assert setup is not None
    return str(json.loads(setup)["seed"])


@pytest.mark.parametrize("game", sorted(OPTIONS))
async def test_where_players_meet_no_answer_shows_a_game_or_a_secret(
    server: str, redis_url: str, game: str
) -> None:
    ann_name, bob_name, cy_name = name("ann"), name("bob"), name("cy")
    ann, bob_browser, cy = [await signed_up(server, n) for n in (ann_name, bob_name, cy_name)]
    bob = await program_of(server, bob_browser)
    spectator = httpx.AsyncClient(base_url=server, timeout=10)
    async with closing(ann, bob_browser, bob, cy, spectator):
        seats = [{"type": "open"}, {"type": "open"}, {"type": "ai", "level": "hard"}]
        table = await ok(
            ann.post("/api/tables", json={"game": game, "seats": seats, "options": OPTIONS[game]}),
            201,
        )
        await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
        forming = await ok(cy.post("/api/tables", json={"game": game, "seats": seats[1:]}), 201)
        game_id = (await ok(ann.post(f"/api/tables/{table['id']}/start")))["game_id"]
        for who, client in (("Ann", ann), ("Bob", bob)):
            text = f"{who}: my hand is good"
            await ok(client.post(f"/api/games/{game_id}/chat", json={"text": text}), 201)
        view = await ok(ann.get(f"/api/games/{game_id}"))
        assert view["status"] == "active" and view["seed"] is None

        types = await ok(spectator.get("/api/games/types"))
        options = {o["name"] for kind in types for o in kind["options"]}  # other tables' too
        secrets = [drawn_seed(redis_url, game_id), *(c.cookies.get("session") for c in (ann, cy))]
        secrets += [bob.headers["Authorization"].removeprefix("Bearer ")]
        routes = [
            "/api/games?limit=100",
            "/api/tables",
            f"/api/tables/{table['id']}",
            f"/api/tables/{forming['id']}",
            f"/api/games/{game_id}/chat",
            f"/api/games/{game_id}/rematch",
        ]
        for who, client in (("Ann", ann), ("Bob", bob), ("Cy", cy), ("a spectator", spectator)):
            answers = [await client.get(route) for route in routes]
            if who != "a spectator":
                answers.append(await client.get("/api/me/games"))
            for route, answer in zip([*routes, "/api/me/games"], answers, strict=False):
                if route.endswith("/rematch"):  # none while the game runs
                    assert answer.status_code == 404, answer.text
                    continue
                assert answer.status_code == 200, (who, route, answer.text)
                for secret in secrets:
                    assert secret is not None and secret not in answer.text, (who, route)
                shown = keys_of(answer.json())
                if route.startswith("/api/games?"):  # the lobby of games: its options too
                    assert not shown & STATE_KEYS, (who, route, shown & STATE_KEYS)
                    continue
                assert shown <= MEETING_KEYS | options, (who, route, shown - MEETING_KEYS)
                assert not shown & STATE_KEYS, (who, route)
        mine = await ok(bob.get("/api/me/games"))
        assert [g["id"] for g in mine["games"]] == [game_id]
        assert mine["games"][0]["seat"] == 1
        chat = await ok(spectator.get(f"/api/games/{game_id}/chat"))
        assert [m["name"] for m in chat["messages"]] == [ann_name, bob_name]
