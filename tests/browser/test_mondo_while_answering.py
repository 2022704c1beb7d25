"""Mondo in the browser while a command is on its way: what a person chooses before the answer to
their last command (here, turning the tile just placed) has come back is done once it has, not
dropped: a display tile is taken, another turn of the tile is made."""

from __future__ import annotations

import asyncio
import re

import pytest
from conftest import Console, open_page
from crazymino_page import wait_log_grows
from playwright.async_api import Browser, Route, expect
from test_mondo_keyboard import mondo_game


@pytest.mark.parametrize("then", ["take", "turn"])
async def test_a_choice_made_while_the_turn_is_answered_is_done(
    browser: Browser, console: Console, web: str, then: str
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
    turns = page.get_by_role("button", name=re.compile("Turn it to"))
    await expect(turns).to_have_count(3)
    second = await turns.nth(1).text_content() or ""

    # The page's view is held back: the turn's answer is not in until the gate opens.
    gate = asyncio.Event()

    async def hold(route: Route) -> None:
        await gate.wait()
        await route.continue_()

    await page.route(re.compile(rf"/api/games/{game}\?hints=true$"), hold)
    async with page.expect_response(re.compile(r"/commands$")) as answer:
        await turns.first.click()
    assert (await answer.value).ok
    before = await page.locator(".log li").count()
    if then == "take":
        tile = page.locator(".display-tile:not([aria-disabled])").first
        chosen = await tile.get_attribute("data-tile")
        await tile.click()
        await expect(page.locator(".held-tile")).to_have_count(0)  # not before the answer
        gate.set()
        await wait_log_grows(page, before, f"Ann takes tile {chosen}.")
        await expect(page.locator(".held-tile")).to_be_visible()
    else:
        await turns.nth(1).click()
        gate.set()
        degrees = second.removeprefix("Turn it to ")
        await wait_log_grows(page, before, f"to {degrees}.")
    await page.unroute_all()
