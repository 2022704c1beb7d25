"""`GET /api/me/games` lists a player's last finished games below the running ones, as their
record has them: title, every seat's place and score, the rating change of a rated game, newest
first; a running game stays among the running ones only."""

from __future__ import annotations

import httpx
from people import closing, name, ok, signed_up
from test_ratings_http import RATED, play_to_the_end, rated_game, recorded


async def casual_game(ann: httpx.AsyncClient, bob: httpx.AsyncClient, *, finish: bool) -> str:
    table = await ok(ann.post("/api/tables", json={**RATED, "rated": False}), 201)
    await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
    game_id = str((await ok(ann.post(f"/api/tables/{table['id']}/start")))["game_id"])
    if finish:
        await play_to_the_end([ann, bob], game_id)
    return game_id


async def test_my_games_lists_finished_games_with_places_scores_and_rating_changes(
    server: str,
) -> None:
    ann_name, bob_name = name("ann"), name("bob")
    ann, bob = await signed_up(server, ann_name), await signed_up(server, bob_name)
    async with closing(ann, bob):
        rated = await rated_game(ann, bob)
        casual = await casual_game(ann, bob, finish=True)
        running = await casual_game(ann, bob, finish=False)
        rated_result, casual_result = await recorded(ann, rated), await recorded(ann, casual)

        mine = await ok(ann.get("/api/me/games"))
        assert [g["id"] for g in mine["games"]] == [running]
        assert [g["id"] for g in mine["finished"]] == [casual, rated]
        newest, older = mine["finished"]
        assert newest["title"] == older["title"] == "Crazymino"
        assert (newest["rated"], older["rated"]) == (False, True)
        assert newest["seats"] == casual_result["seats"]
        assert older["seats"] == rated_result["seats"]
        ann_seat = older["seats"][older["seat"]]
        assert ann_seat["name"] == ann_name and ann_seat["change"] is not None
        assert ann_seat["after"] - ann_seat["before"] == ann_seat["change"]
        assert "change" not in newest["seats"][newest["seat"]]

        theirs = await ok(bob.get("/api/me/games"))
        assert [g["id"] for g in theirs["finished"]] == [casual, rated]
        assert theirs["finished"][0]["seats"][theirs["finished"][0]["seat"]]["name"] == bob_name
