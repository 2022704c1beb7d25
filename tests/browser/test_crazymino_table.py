"""A person plays Crazymino in the browser: from the lobby against the AI, by mouse and by
keyboard alone; and two people at one table, each seeing only their own hand."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from conftest import Console, create_game, open_page, screenshot_path
from crazymino_page import (
    cell,
    cell_name,
    cursor,
    fit_cell,
    gone_from_hand,
    hand,
    log_size,
    my_turn,
    pick_fitting,
    wait_log_grows,
)
from playwright.async_api import Browser, Page, expect


async def create_from_lobby(page: Page) -> None:
    """Create Ann against a `normal` AI from the lobby, and sit at Ann's seat."""
    await page.get_by_label("Name").first.fill("Ann")
    await page.get_by_role("button", name="Create the game").click()
    await expect(page.get_by_role("heading", name="Game created")).to_be_visible()
    await page.get_by_role("link", name="Play as seat 1").click()
    await expect(page.get_by_role("heading", name="Crazymino as Ann")).to_be_visible()
    await expect(page.locator(".connection")).to_have_text("Live")


async def lay_by_drag(page: Page) -> None:
    before = await log_size(page)
    tile = await pick_fitting(page)
    row, col = await fit_cell(page)
    await page.drag_and_drop(f'.hand-tile[data-tile="{tile}"]', cell(page, row, col))
    await wait_log_grows(page, before, "Ann lays")
    await gone_from_hand(page, tile)


async def lay_by_clicks(page: Page) -> None:
    before = await log_size(page)
    tile = await pick_fitting(page)
    row, col = await fit_cell(page)
    await page.locator(cell(page, row, col)).click()
    await wait_log_grows(page, before, f"on {cell_name(row, col)}")
    await gone_from_hand(page, tile)


async def lay_by_keys(page: Page) -> None:
    """Only keys: N picks the next tile, R turns it, arrows move, Enter lays."""
    before = await log_size(page)
    board = page.locator(".board")
    await board.focus()
    for _ in range(30):
        await page.keyboard.press("n")
        for _ in range(4):
            if await page.locator("rect.fit").count():
                break
            await page.keyboard.press("r")
        if await page.locator("rect.fit").count():
            break
    row, col = await fit_cell(page)
    at_row, at_col = await cursor(page)
    for key, steps in (
        ("ArrowDown", row - at_row),
        ("ArrowUp", at_row - row),
        ("ArrowRight", col - at_col),
        ("ArrowLeft", at_col - col),
    ):
        for _ in range(max(0, steps)):
            await page.keyboard.press(key)
    assert await cursor(page) == (row, col)
    await expect(page.locator("#cell-status")).to_contain_text("fits here for")
    await page.keyboard.press("Enter")
    await wait_log_grows(page, before, f"on {cell_name(row, col)}")


@pytest.mark.parametrize("where", ["web", "embedded"])
async def test_a_person_plays_against_the_ai_with_mouse_and_keyboard(
    browser: Browser, console: Console, where: str, request: pytest.FixtureRequest, tmp_path: Path
) -> None:
    base = request.getfixturevalue(where)
    page = await open_page(browser, console, base)
    if where == "web":
        await page.screenshot(path=screenshot_path("lobby.png", tmp_path))
    await create_from_lobby(page)

    await my_turn(page, "Ann")
    await lay_by_drag(page)
    # The AI answers; its move arrives through the stream.
    await wait_log_grows(page, await log_size(page) - 1, "AI 2 ")
    await my_turn(page, "Ann")
    await lay_by_clicks(page)
    await my_turn(page, "Ann")
    await lay_by_keys(page)
    await my_turn(page, "Ann")
    if where == "web":  # the README's picture: a tile picked, pointed where it would go
        await pick_fitting(page)
        row, col = await fit_cell(page)
        await page.locator(cell(page, row, col)).hover()
        await expect(page.locator("#cell-status")).to_contain_text("fits here for")
        await page.screenshot(path=screenshot_path("crazymino.png", tmp_path), full_page=True)

    # A move the rules refuse: the server's own sentence.
    # (The browser itself reports the refusal's status in the console: that one is expected.)
    console.allow(r"status of 422 \(Unprocessable Entity\)")
    await page.locator(".hand-tile").first.click()
    await page.locator(cell(page, 0, 0)).click()
    await expect(page.get_by_role("alert")).to_have_text(
        "The tile must share an edge with a placed tile, or touch two of them at corners."
    )
    # Turning the selected tile is said to a screen reader too.
    chosen = page.locator(".hand-tile.chosen")
    label = await chosen.get_attribute("aria-label") or ""
    turn = int(re.search(r"turned (\d+)°", label).group(1))  # type: ignore[union-attr]
    await page.get_by_role("button", name="Rotate tile").click()
    await expect(chosen).to_have_attribute("aria-label", re.compile(f"turned {(turn + 90) % 360}°"))

    before = await log_size(page)
    await page.get_by_role("button", name="Draw a tile & pass").click()
    await wait_log_grows(page, before, "Ann draws")


async def test_two_people_each_see_only_their_own_hand(
    browser: Browser, console: Console, web: str
) -> None:
    created = create_game(
        web, [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}], 31
    )
    game, tokens = created["id"], [s["token"] for s in created["seats"]]
    pages = [await open_page(browser, console, f"{web}/play/{game}#t={t}") for t in tokens]
    names = ["Ann", "Bob"]
    for _ in range(4):
        shown = httpx.get(f"{web}/api/games/{game}").json()
        (seat,) = shown["to_act"]
        for n, page in enumerate(pages):
            truth = httpx.get(
                f"{web}/api/games/{game}", headers={"Authorization": f"Bearer {tokens[n]}"}
            ).json()
            own = [t["tile"] for t in truth["state"]["seats"][n]["hand"]]
            await expect(page.locator(".hand-tile")).to_have_count(len(own))
            assert sorted(await hand(page)) == sorted(own)
            other = truth["state"]["seats"][1 - n]
            assert other["hand"] is None and other["hand_size"] > 0
        page = pages[seat]
        await my_turn(page, names[seat])
        size = await log_size(pages[1 - seat])
        await lay_by_clicks(page)
        # the other person sees it live
        await wait_log_grows(pages[1 - seat], size, f"{names[seat]} lays")
