"""Play again, over HTTP with a real server: at a game's end one player asks for a rematch,
another accepts, a third declines, and the new game starts with those who accepted, each
seat bound to its player again."""

from __future__ import annotations

import asyncio

import httpx
from people import closing, name, ok, signed_up


async def finished(client: httpx.AsyncClient, game_id: str, seconds: float = 60) -> None:
    while (await ok(client.get(f"/api/games/{game_id}")))["status"] != "over":
        await asyncio.sleep(0.1)


async def test_a_rematch_starts_with_the_players_who_accepted(server: str) -> None:
    names = [name("ann"), name("bob"), name("cy")]
    ann, bob, cy = [await signed_up(server, n) for n in names]
    async with closing(ann, bob, cy):
        body = {"game": "crazymino", "seats": [{"type": "open"}] * 3, "start_when_full": True}
        table = await ok(ann.post("/api/tables", json=body), 201)
        await ok(bob.post(f"/api/tables/{table['id']}/join"))
        started = await ok(cy.post(f"/api/tables/{table['id']}/join"))
        assert started["status"] == "started"  # full: it started in Cy's request
        game_id = started["game_id"]
        early = await ann.post(f"/api/games/{game_id}/rematch")
        assert early.status_code == 409 and early.json()["code"] == "game_running"
        for player in (ann, bob, cy):  # everyone leaves: the AI plays the game to its end
            await ok(player.post(f"/api/games/{game_id}/commands", json={"type": "leave"}))
        await finished(ann, game_id)

        rematch = await ok(ann.post(f"/api/games/{game_id}/rematch"), 201)
        assert rematch["rematch_of"] == game_id and rematch["status"] == "forming"
        assert [s.get("reserved") for s in rematch["seats"]] == names
        assert [s.get("player") for s in rematch["seats"]] == [names[0].lower(), None, None]
        assert (await ok(cy.get(f"/api/games/{game_id}/rematch")))["id"] == rematch["id"]
        mine = await ok(cy.get("/api/me/games"))
        assert rematch["id"] in [t["id"] for t in mine["tables"]]

        accepted = await ok(bob.post(f"/api/tables/{rematch['id']}/join"))
        assert accepted["seats"][1]["player"] == names[1].lower()
        declined = await ok(cy.post(f"/api/tables/{rematch['id']}/decline"))
        assert declined["status"] == "started" and declined["seats"][2]["declined"] is True
        again = await ok(cy.post(f"/api/games/{game_id}/rematch"))  # one rematch a game: 200
        assert again["id"] == rematch["id"]

        new_game = declined["game_id"]
        view = await ok(ann.get(f"/api/games/{new_game}"))
        assert [s["player"] for s in view["seats"]] == [n.lower() for n in names[:2]]
        assert (await ok(bob.get(f"/api/games/{new_game}")))["seat"] == 1
        assert (await ok(cy.get(f"/api/games/{new_game}")))["seat"] is None
        assert (await ok(cy.get("/api/me/games")))["tables"] == []
