"""Open tables over HTTP, with a real server: players sign up, one opens a table, another
finds it in the lobby and sits, the creator starts, and each plays their own seat as
themselves (a browser's session, a program's personal token), with no seat token; a player's
games, their turn first; the lobby's live stream."""

from __future__ import annotations

import asyncio
import contextlib
import json
import sys
from typing import Any

import httpx
from accounts import personal_token
from conftest import ROOT
from people import closing, name, ok, program_of, signed_up

TWO_OPEN = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "open"}]}


async def opened_and_started(
    ann: httpx.AsyncClient, bob: httpx.AsyncClient, bob_name: str
) -> dict[str, Any]:
    """A table Ann opens, Bob joins from the lobby, Ann starts: its started view."""
    table = await ok(ann.post("/api/tables", json=TWO_OPEN), 201)
    lobby = await ok(bob.get("/api/tables"))
    assert table["id"] in [t["id"] for t in lobby["tables"]]
    joined = await ok(bob.post(f"/api/tables/{table['id']}/join", json={}))
    assert joined["seats"][1]["name"] == bob_name and joined["status"] == "forming"
    started = await ok(ann.post(f"/api/tables/{table['id']}/start"))
    assert started["status"] == "started" and started["game_id"]
    return started  # type: ignore[no-any-return]


async def move(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    """The caller's seat sends its first legal command."""
    shown = await ok(client.get(f"/api/games/{game_id}"))
    assert shown["legal"], shown
    return await ok(client.post(f"/api/games/{game_id}/commands", json=shown["legal"][0]))  # type: ignore[no-any-return]


async def test_players_meet_at_a_table_and_each_plays_their_own_seat(server: str) -> None:
    ann_name, bob_name, cy_name = name("ann"), name("bob"), name("cy")
    ann = await signed_up(server, ann_name)
    bob_browser = await signed_up(server, bob_name)
    bob = await program_of(server, bob_browser)
    cy = await signed_up(server, cy_name)
    async with closing(ann, bob_browser, bob, cy):
        started = await opened_and_started(ann, bob, bob_name)
        game_id = started["game_id"]
        view = await ok(ann.get(f"/api/games/{game_id}"))
        assert view["seat"] == 0 and not any("token" in s for s in view["seats"])
        assert [s["player"] for s in view["seats"]] == [ann_name.lower(), bob_name.lower()]
        assert (await ok(bob.get(f"/api/games/{game_id}")))["seat"] == 1
        assert (await ok(cy.get(f"/api/games/{game_id}")))["seat"] is None

        for _ in range(4):  # each plays their own turn, as themselves
            to_act = (await ok(ann.get(f"/api/games/{game_id}")))["to_act"]
            player, other = (ann, bob) if to_act == [0] else (bob, ann)
            waiting = await other.post(
                f"/api/games/{game_id}/commands", json={"type": "draw_and_pass"}
            )
            assert waiting.status_code == 409 and waiting.json()["code"] == "not_your_turn"
            await move(player, game_id)
        outsider = await cy.post(f"/api/games/{game_id}/commands", json={"type": "draw_and_pass"})
        assert outsider.status_code == 403 and outsider.json()["code"] == "not_seated"
        cookie_only = httpx.AsyncClient(base_url=server, cookies=ann.cookies)
        async with cookie_only:  # a write with the session cookie but no CSRF header
            forged = await cookie_only.post(
                f"/api/games/{game_id}/commands", json={"type": "draw_and_pass"}
            )
        assert forged.status_code == 403 and forged.json()["code"] == "csrf_failed"


async def test_my_games_shows_the_games_where_it_is_my_turn_first(server: str) -> None:
    ann_name, bob_name = name("ann"), name("bob")
    ann, bob = await signed_up(server, ann_name), await signed_up(server, bob_name)
    async with closing(ann, bob):
        older = (await opened_and_started(ann, bob, bob_name))["game_id"]
        newer = (await opened_and_started(ann, bob, bob_name))["game_id"]
        for game_id, ann_to_act in ((older, True), (newer, False)):
            to_act = (await ok(ann.get(f"/api/games/{game_id}")))["to_act"]
            if (to_act == [0]) != ann_to_act:
                await move(ann if to_act == [0] else bob, game_id)
        forming = await ok(ann.post("/api/tables", json=TWO_OPEN), 201)

        mine = await ok(ann.get("/api/me/games"))
        assert [g["id"] for g in mine["games"]][:2] == [older, newer]
        first, second = mine["games"][:2]
        assert first["your_turn"] and not second["your_turn"]
        assert first["seat"] == 0 and first["title"] == "Crazymino" and first["status"] == "active"
        assert [t["id"] for t in mine["tables"]] == [forming["id"]]
        theirs = await ok(bob.get("/api/me/games"))
        assert [g["id"] for g in theirs["games"]][:2] == [newer, older]
        assert theirs["tables"] == []
        async with httpx.AsyncClient(base_url=server) as anyone:
            nobody = await anyone.get("/api/me/games")
        assert nobody.status_code == 401 and nobody.json()["code"] == "not_logged_in"


async def lobby_events(base: str, out: list[dict[str, Any]]) -> None:
    """Collect the lobby stream's `tables` events."""
    async with (
        httpx.AsyncClient(base_url=base, timeout=None) as client,
        client.stream("GET", "/api/tables/stream") as answer,
    ):
        assert answer.status_code == 200
        assert answer.headers["content-type"].startswith("text/event-stream")
        event = None
        async for line in answer.aiter_lines():
            if line.startswith("event: "):
                event = line[7:]
            elif line.startswith("data: ") and event == "tables":
                out.append(json.loads(line[6:]))


async def until(check: Any, seconds: float, what: str) -> None:
    while not check():
        await asyncio.sleep(0.05)


async def test_the_lobby_stream_tells_of_each_change_to_a_table(server: str) -> None:
    out: list[dict[str, Any]] = []
    listening = asyncio.create_task(lobby_events(server, out))
    try:
        await until(lambda: out, 5, "the lobby stream sent nothing at once")
        ann_name, bob_name = name("ann"), name("bob")
        ann, bob = await signed_up(server, ann_name), await signed_up(server, bob_name)
        async with closing(ann, bob):
            table = await ok(ann.post("/api/tables", json=TWO_OPEN), 201)

            def listed() -> list[dict[str, Any]]:
                return [t for t in out[-1]["tables"] if t["id"] == table["id"]]

            await until(listed, 5, "the new table never reached the lobby stream")
            await ok(bob.post(f"/api/tables/{table['id']}/join"))
            await until(
                lambda: listed() and listed()[0]["seats"][1].get("player") == bob_name.lower(),
                5,
                "the join never reached the lobby stream",
            )
            await ok(ann.post(f"/api/tables/{table['id']}/leave"))
            await until(lambda: not listed(), 5, "the closed table stayed in the lobby stream")
    finally:
        listening.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await listening


async def test_a_bot_with_a_personal_token_takes_a_seat_and_plays_the_game(server: str) -> None:
    ann, owner = await signed_up(server, name("ann")), await signed_up(server, name("bot"))
    async with closing(ann, owner):
        token = await personal_token(owner)
        body = {"game": "crazymino", "seats": [{"type": "open"}] * 2, "start_when_full": True}
        table = await ok(ann.post("/api/tables", json=body), 201)
        bot = await asyncio.create_subprocess_exec(
            sys.executable,
            "examples/bot.py",
            server,
            "--join",
            token,
            "--game",
            "crazymino",
            "--pace",
            "0",
            cwd=ROOT,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.STDOUT,
        )
        try:
            shown: dict[str, Any] = {}

            async def started() -> bool:
                shown.update(await ok(ann.get(f"/api/tables/{table['id']}")))
                return shown["status"] == "started"

            while not await started():
                await asyncio.sleep(0.1)
            game_id = shown["game_id"]
            await ok(ann.post(f"/api/games/{game_id}/commands", json={"type": "leave"}))
            output, _ = await asyncio.wait_for(bot.communicate(), 90)
            assert bot.returncode == 0, output.decode()[-2000:]
        finally:
            if bot.returncode is None:
                bot.kill()
                await bot.wait()
        assert (await ok(ann.get(f"/api/games/{game_id}")))["status"] == "over"
