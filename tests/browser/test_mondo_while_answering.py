"""Mondo in the browser while a command is on its way: a display tile chosen before the answer to
the last command (here, turning the tile just placed) has come back is taken once it has, not
dropped; the person sees their choice in their hand without choosing twice."""

from __future__ import annotations

import asyncio
import re

from conftest import Console, open_page
from crazymino_page import wait_log_grows
from playwright.async_api import Browser, Route, expect
from test_mondo_keyboard import mondo_game


async def test_a_tile_chosen_while_the_turn_is_answered_is_taken(
    browser: Browser, console: Console, web: str
) -> None:
    created = mondo_game(web, [{"type": "human", "name": "Ann"}], seed=5, round_seconds=120)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={token}", 1280, 900)
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    await page.locator(".display-tile:not([aria-disabled])").first.click()
    await expect(page.locator(".held-tile")).to_be_visible()
    before = await page.locator(".log li").count()
    await page.locator(".space.open").first.click()
    await wait_log_grows(page, before, "Ann lays")
    turn_it = page.get_by_role("button", name=re.compile("Turn it to"))
    await expect(turn_it.first).to_be_visible()

    # The page's view is held back: the turn's answer is not in until the gate opens.
    gate = asyncio.Event()

    async def hold(route: Route) -> None:
        await gate.wait()
        await route.continue_()

    await page.route(re.compile(rf"/api/games/{game}\?hints=true$"), hold)
    async with page.expect_response(re.compile(r"/commands$")) as answer:
        await turn_it.first.click()
    assert (await answer.value).ok
    tile = page.locator(".display-tile:not([aria-disabled])").first
    chosen = await tile.get_attribute("data-tile")
    before = await page.locator(".log li").count()
    await tile.click()
    await expect(page.locator(".held-tile")).to_have_count(0)  # nothing taken before the answer
    gate.set()
    await wait_log_grows(page, before, f"Ann takes tile {chosen}.")
    await expect(page.locator(".held-tile")).to_be_visible()
    await page.unroute_all()
