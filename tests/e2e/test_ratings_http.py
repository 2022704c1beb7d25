"""Players are remembered, with a real server on a real Redis: two accounts play rated games at
an open table, each as themselves; at each game's end the worker records it, and the game's
result, both players' pages and their histories say so. A casual game is in the history and
moves no rating."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import msgspec
from people import closing, name, ok, signed_up

from app.people.records import ai_levels

RATED = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "open"}], "rated": True}


async def play_to_the_end(players: list[httpx.AsyncClient], game_id: str) -> None:
    """Each player sends their first legal command whenever it is their turn."""
    for _ in range(400):
        for player in players:
            shown = await ok(player.get(f"/api/games/{game_id}"))
            if shown["status"] == "over":
                return
            if shown["seat"] in shown["to_act"] and shown["legal"]:
                await ok(player.post(f"/api/games/{game_id}/commands", json=shown["legal"][0]))
    raise AssertionError("the game never ended")


async def rated_game(ann: httpx.AsyncClient, bob: httpx.AsyncClient) -> str:
    table = await ok(ann.post("/api/tables", json=RATED), 201)
    assert table["rated"] is True
    await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
    started = await ok(ann.post(f"/api/tables/{table['id']}/start"))
    await play_to_the_end([ann, bob], started["game_id"])
    return str(started["game_id"])


async def recorded(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    while True:
        result: dict[str, Any] = await ok(client.get(f"/api/games/{game_id}/result"))
        if result["recorded"]:
            return result
        await asyncio.sleep(0.1)


async def test_two_players_see_their_ratings_and_histories_move(server: str) -> None:
    ann_name, bob_name = name("ann"), name("bob")
    ann, bob = await signed_up(server, ann_name), await signed_up(server, bob_name)
    async with closing(ann, bob):
        first = await rated_game(ann, bob)
        result = await recorded(ann, first)
        assert result["rated"] is True
        seats = {s["player"]: s for s in result["seats"]}
        assert set(seats) == {ann_name.lower(), bob_name.lower()}
        for seat in seats.values():
            assert seat["before"] == 1000 and seat["after"] == 1000 + seat["change"]
        winner = min(seats.values(), key=lambda s: s["place"])
        loser = max(seats.values(), key=lambda s: s["place"])
        if winner["place"] < loser["place"]:
            assert winner["change"] > loser["change"]

        second = await rated_game(ann, bob)
        again = {s["player"]: s for s in (await recorded(bob, second))["seats"]}
        for player, seat in again.items():  # the second starts where the first ended
            assert seat["before"] == seats[player]["after"]

        page = await ok(ann.get(f"/api/players/{ann_name.upper()}"))
        assert page["name"] == ann_name
        (crazymino,) = page["titles"]
        mine = again[ann_name.lower()]
        assert crazymino["game"] == "crazymino" and crazymino["rating"] == mine["after"]
        assert crazymino["provisional"] is True and crazymino["place"] is None
        assert (crazymino["rated_games"], crazymino["games"]) == (2, 2)
        assert [p["game_id"] for p in crazymino["chart"]] == [first, second]
        assert [g["id"] for g in page["games"]] == [second, first]
        assert {s["name"] for s in page["games"][0]["seats"]} == {ann_name, bob_name}
        # Two games are not enough for the leaderboard: its players have 10 rated games.
        board = await ok(bob.get("/api/leaderboards/crazymino"))
        assert ann_name.lower() not in [p["player"] for p in board["players"]]


async def test_a_casual_game_is_in_the_history_and_moves_no_rating(server: str) -> None:
    ann_name = name("ann")
    ann = await signed_up(server, ann_name)
    async with closing(ann):
        body = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "ai"}], "rated": True}
        table = await ok(ann.post("/api/tables", json=body), 201)
        assert table["rated"] is False  # an AI seat makes it casual
        started = await ok(ann.post(f"/api/tables/{table['id']}/start"))
        game_id = started["game_id"]
        await play_to_the_end([ann], game_id)
        result = await recorded(ann, game_id)
        assert result["rated"] is False
        assert all("change" not in s for s in result["seats"])
        page = await ok(ann.get(f"/api/players/{ann_name}"))
        (crazymino,) = page["titles"]
        assert (crazymino["rating"], crazymino["rated_games"], crazymino["games"]) == (1000, 0, 1)
        assert [g["id"] for g in page["games"]] == [game_id]


async def test_a_running_game_has_no_result_and_an_unknown_player_no_page(server: str) -> None:
    ann, bob = await signed_up(server, name("ann")), await signed_up(server, name("bob"))
    async with closing(ann, bob):
        table = await ok(ann.post("/api/tables", json=RATED), 201)
        await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
        started = await ok(ann.post(f"/api/tables/{table['id']}/start"))
        running = await ann.get(f"/api/games/{started['game_id']}/result")
        assert running.status_code == 409 and running.json()["code"] == "game_running"
        unknown = await ann.get("/api/players/nobody_at_all")
        assert unknown.status_code == 404 and unknown.json()["code"] == "not_found"
        board = await ann.get("/api/leaderboards/chess")
        assert board.status_code == 404


async def test_the_leaderboard_shows_each_ai_levels_strength_apart(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as client:
        board = await ok(client.get("/api/leaderboards/bazaar"))
    levels = [msgspec.to_builtins(level) for level in ai_levels()["bazaar"]]
    assert board["ai_levels"] == levels
    assert [level["level"] for level in levels] == ["easy", "normal", "hard"]
