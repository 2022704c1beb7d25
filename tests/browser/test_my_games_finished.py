"""The lobby's "My games" lists a player's finished games below the running ones: each with
its title (a link to its replay), the opponents, the place and score, and the rating change of
a rated game (in words and signs, never colour alone); at a laptop's size and a phone's."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from conftest import Console, no_sideways_scroll, screenshot_path
from players_page import PASSWORD, new_name, session_of, sign_up
from playwright.async_api import Browser, expect
from test_access import no_serious_violation
from test_players_meet import person, play_to_the_end
from test_players_records import RATED, change_words, opened, ordinal, recorded

SIZES = [(1366, 768), (390, 844)]


async def new_player(base: str, name: str) -> httpx.AsyncClient:
    """A second player, signed up over HTTP: a session that sends its CSRF header."""
    client = httpx.AsyncClient(base_url=base, timeout=10)
    await client.get("/api/games/types")
    client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
    answer = await client.post("/api/accounts", json={"name": name, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return client


async def casual(host: httpx.AsyncClient, guest: httpx.AsyncClient) -> str:
    table = await host.post("/api/tables", json={**RATED, "rated": False})
    assert table.status_code == 201, table.text
    table_id = table.json()["id"]
    assert (await guest.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    started = await host.post(f"/api/tables/{table_id}/start")
    assert started.status_code == 200, started.text
    return str(started.json()["game_id"])


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_my_games_lists_three_finished_games_with_result_rating_change_and_replay(
    browser: Browser, console: Console, web: str, width: int, height: int, tmp_path: Path
) -> None:
    page = await person(browser, console, width, height)
    a_name, b_name = new_name("Ann"), new_name("Bob")
    await sign_up(page, web, a_name)
    ann = await session_of(page.context, web)
    bob = await new_player(web, b_name)
    try:
        games = []
        for n, open_one in enumerate([opened, opened, casual]):
            game_id = await open_one(ann, bob)
            await play_to_the_end([ann, bob], game_id, seed=n)
            games.append((game_id, await recorded(ann, game_id)))
    finally:
        await bob.aclose()
        await ann.aclose()

    await page.goto(web)
    finished = page.get_by_role("list", name="Finished games")
    rows = finished.locator("li")
    await expect(rows).to_have_count(3)
    await expect(page.get_by_text("No game yet")).to_have_count(0)
    for row, (game_id, result) in zip(await rows.all(), reversed(games), strict=True):
        mine = next(s for s in result["seats"] if s["name"] == a_name)
        await expect(row.get_by_role("link", name="Replay of Crazymino")).to_have_attribute(
            "href", f"/replay/{game_id}"
        )
        await expect(row).to_contain_text(f"{ordinal(mine['place'])} of 2")
        await expect(row).to_contain_text(f"{mine['score']} point")
        await expect(row.get_by_role("link", name=b_name)).to_be_visible()
        if result["rated"]:
            await expect(row).to_contain_text(change_words(mine["change"]))
        else:
            await expect(row).to_contain_text("casual")
    await page.screenshot(path=screenshot_path(f"my-games-finished-{width}.png", tmp_path))
    await no_serious_violation(page)
    await no_sideways_scroll(page, width)

    await rows.first.get_by_role("link", name="Replay of Crazymino").click()
    await page.wait_for_url(f"**/replay/{games[-1][0]}")
