"""Everyone can use the client: with the keyboard alone and at a phone's width (axe-core on every
screen at both sizes is `test_every_screen.py`; `no_serious_violation` is kept here for all)."""

from __future__ import annotations

import httpx
import pytest
from axe_playwright_python.async_playwright import Axe
from conftest import Console, create_game, open_page
from crazymino_page import log_size, my_turn, wait_log_grows
from playwright.async_api import Browser, Page, expect
from test_crazymino_table import lay_by_keys

from tests.waiting import until_now


async def no_serious_violation(page: Page) -> None:
    results = await Axe().run(page)
    serious = [
        (v["id"], v["impact"], [n["target"] for n in v["nodes"]][:3])
        for v in results.response["violations"]
        if v["impact"] in ("serious", "critical")
    ]
    assert not serious, serious


def finished_game(base: str, seed: int) -> str:
    created = create_game(base, [{"type": "ai"}, {"type": "ai", "level": "easy"}], seed)
    until_now(lambda: httpx.get(f"{base}/api/games/{created['id']}").json()["status"] == "over")
    return str(created["id"])


async def test_the_keyboard_alone_creates_a_game_and_plays_it(
    browser: Browser, console: Console, web: str
) -> None:
    page = await open_page(browser, console, web)
    await expect(page.get_by_role("button", name="Create the game")).to_be_visible()
    # Tab from the top of the page to the first name field, and on to the button.
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.placeholder === 'Player 1'"):
            break
    await page.keyboard.type("Kim")
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.textContent === 'Create the game'"):
            break
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("heading", name="Game created")).to_be_visible()
    for _ in range(40):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.textContent === 'Play as seat 1'"):
            break
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("heading", name="Crazymino as Kim")).to_be_visible()
    await my_turn(page, "Kim")
    for _ in range(60):
        await page.keyboard.press("Tab")
        if await page.evaluate("document.activeElement.classList.contains('board')"):
            break
    outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused board shows its focus"
    before = await log_size(page)
    await lay_by_keys(page)
    await wait_log_grows(page, before, "Kim lays")


@pytest.mark.parametrize(("width", "height"), [(1280, 800), (390, 844)])
async def test_nothing_needed_is_off_screen(
    browser: Browser, console: Console, web: str, width: int, height: int
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 53)
    url = f"{web}/play/{created['id']}#t={created['seats'][0]['token']}"
    page = await open_page(browser, console, url, width, height)
    await my_turn(page, "Ann")
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    # The board is on screen: whole, or (on a phone, cells of 32 px) in its own scroller.
    board = await page.locator(".board-scroller").bounding_box()
    assert board is not None and board["x"] >= 0 and board["x"] + board["width"] <= width
    needed_cells = (
        'rect.hit[data-row="0"][data-col="13"]',
        'rect.hit[data-row="13"][data-col="0"]',
    )
    for needed in (
        *needed_cells,
        ".hand-tile >> nth=-1",
        "text=Draw a tile & pass",
        "text=Rotate tile",
        ".log",
    ):
        target = page.locator(needed)
        await target.scroll_into_view_if_needed()
        box = await target.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width, needed
    for path in ("/", f"/replay/{created['id']}", "/rules/crazymino"):
        await page.goto(f"{web}{path}")
        await page.wait_for_load_state("networkidle")
        assert await page.evaluate("document.documentElement.scrollWidth") <= width, path
