"""A Crazymino turn on one screen. At 1366×768 the board, the hand, the score of the cell
pointed at, whose turn, the Draw button and the last moves are all in view without scrolling.
On a phone (390×844, touch) the board scrolls sideways in its own scroller under a finger's
swipe (cells of 32 px or more, the page itself never sideways), the hand and its buttons stick
to the bottom of the screen, and a tile is laid by a tap on it and a tap on a cell, which comes
into view by itself."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from conftest import Console, create_game, no_sideways_scroll, screenshot_path
from crazymino_page import (
    cell,
    cell_name,
    fit_cell,
    gone_from_hand,
    lay_over_http,
    log_size,
    my_turn,
    open_sized,
    swipe,
    wait_log_grows,
)
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation

FOUR = [
    {"type": "human", "name": "Ann"},
    {"type": "ai", "level": "easy"},
    {"type": "ai", "level": "normal"},
    {"type": "ai", "level": "hard"},
]


async def box(page: Page, selector: str) -> dict[str, float]:
    found = await page.locator(selector).first.bounding_box()
    assert found is not None, selector
    return found


def inside(found: dict[str, float], width: int, height: int) -> bool:
    return (
        found["x"] >= 0
        and found["y"] >= 0
        and found["x"] + found["width"] <= width
        and found["y"] + found["height"] <= height
    )


async def test_a_turn_fits_one_screen_of_1366_by_768(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    created = create_game(web, FOUR, 63)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", 1366, 768)
    await my_turn(page, "Ann", timeout=60_000)
    lay_over_http(web, game, token)  # the three AIs answer: their last moves are shown
    await my_turn(page, "Ann", timeout=60_000)
    await expect(page.locator(".players .last-move")).to_have_count(3)
    await page.locator(".hand-tile.fits").first.click()
    for _ in range(4):
        if await page.locator("rect.fit").count():
            break
        await page.get_by_role("button", name="Rotate tile").click()
    row, col = await fit_cell(page)
    await page.locator(cell(page, row, col)).hover()
    await expect(page.locator("#cell-status")).to_contain_text(f"Cell {cell_name(row, col)}, ")
    await expect(page.locator("#cell-status")).to_contain_text("fits here for")
    assert await page.evaluate("window.scrollY") == 0
    for part in (
        ".board",
        ".col-labels",
        ".row-labels",
        ".hand",
        "#cell-status",
        ".turn-line",
        ".players",
        ".players li.acting",
        ".players .last-move",
    ):
        assert inside(await box(page, part), 1366, 768), part
    draw = page.get_by_role("button", name="Draw a tile & pass")
    found: Any = await draw.bounding_box()
    assert inside(found, 1366, 768)
    await expect(page.locator(".turn-line")).to_contain_text("Your turn")
    # The board is square and as large as the screen leaves it; the hand is beside it.
    board, hand = await box(page, ".board"), await box(page, ".hand")
    assert abs(board["width"] - board["height"]) < 2 and board["width"] >= 480
    assert hand["x"] >= board["x"] + board["width"]
    await no_sideways_scroll(page, 1366)
    await page.screenshot(path=screenshot_path("crazymino-1366.png", tmp_path))
    await no_serious_violation(page)


async def test_on_a_phone_the_board_scrolls_the_hand_sticks_and_tap_tap_lays_a_tile(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    created = create_game(web, FOUR, 64)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", 390, 844)
    await my_turn(page, "Ann", timeout=60_000)
    await no_sideways_scroll(page, 390)
    board = page.locator(".board")
    assert await board.evaluate("e => getComputedStyle(e).touchAction") != "none"
    cell_box = await box(page, cell(page, 0, 0))
    assert cell_box["width"] >= 32
    scroller = page.locator(".board-scroller")
    assert await scroller.evaluate("e => e.scrollWidth > e.clientWidth")

    # A swipe over the board scrolls it sideways, in its own scroller; the bar stays in view.
    # (in the screen's middle: not under the bar at the bottom)
    await page.locator(cell(page, 7, 7)).evaluate("e => e.scrollIntoView({block: 'center'})")
    middle = await box(page, cell(page, 7, 7))
    await swipe(page, middle["x"], middle["y"], -150, 0)
    await page.wait_for_function("() => document.querySelector('.board-scroller').scrollLeft > 0")
    await no_sideways_scroll(page, 390)
    dock = await box(page, ".side.dock")
    assert inside(dock, 390, 844)
    assert dock["y"] + dock["height"] >= 844 - 2  # at the screen's bottom
    assert await page.locator(".side.dock").evaluate("e => getComputedStyle(e).position") == (
        "sticky"
    )
    # The page scrolled down to the board's last row: the bar is still in view, the row above it.
    await page.locator(cell(page, 13, 0)).evaluate("e => e.scrollIntoView({block: 'center'})")
    dock = await box(page, ".side.dock")
    last_row = await box(page, cell(page, 13, 0))
    assert inside(dock, 390, 844) and last_row["y"] + last_row["height"] <= dock["y"] + 1
    await page.screenshot(path=screenshot_path("crazymino-390.png", tmp_path))
    await no_serious_violation(page)

    # Tap a tile, tap again to turn it until it fits; the cell it fits comes into view; tap it.
    await page.evaluate("document.querySelector('.board-scroller').scrollLeft = 0")
    await page.evaluate("window.scrollTo(0, 0)")
    before = await log_size(page)
    tile = page.locator(".hand-tile.fits").first
    number = int(await tile.get_attribute("data-tile") or -1)
    await tile.tap()
    for _ in range(4):
        if await page.locator("rect.fit").count():
            break
        await tile.tap()
    row, col = await fit_cell(page)
    target = page.locator(cell(page, row, col))
    shown = await box(page, cell(page, row, col))
    dock = await box(page, ".side.dock")
    scroller_box = await box(page, ".board-scroller")
    fits_shown = await page.evaluate(
        """([dockTop, left, right]) => [...document.querySelectorAll('rect.fit')].some(r => {
            const b = r.getBoundingClientRect();
            return b.top >= 0 && b.bottom <= dockTop && b.left >= left && b.right <= right; })""",
        [dock["y"], scroller_box["x"], scroller_box["x"] + scroller_box["width"]],
    )
    assert fits_shown, (shown, dock)
    await target.tap()
    await wait_log_grows(page, before, "Ann lays a ")
    await gone_from_hand(page, number)
    await no_sideways_scroll(page, 390)
