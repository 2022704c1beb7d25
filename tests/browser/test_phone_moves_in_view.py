"""On a phone the other players' last moves come into view as they are made, whatever part of
the page shows: in Crazymino the tile an AI has just laid shows above the docked hand (the page
and the board scroll to it); in Bazaar the AI's last draw, trade or purchase, marked on the
bag, the exchange table or the stalls, shows above the bar of the turn's actions. At a laptop's
size, where everything fits, the same holds. Each check starts with the page at its top."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Console, create_game, screenshot_path
from crazymino_page import SIZES, events_of, lay_over_http, my_turn, open_sized, placements
from playwright.async_api import Browser, Page, expect

#: Whether the element `selector` finds is wholly on the screen and nothing covers it: not the
#: docked hand or the bar of actions (`cover`), and its centre is itself (`hit`, else itself).
IN_VIEW = """([selector, cover, hit]) => {
    const shown = document.querySelector(selector);
    if (!shown) return false;
    const box = shown.getBoundingClientRect();
    const screen = document.documentElement;
    if (box.top < 0 || box.left < 0 || box.bottom > window.innerHeight
        || box.right > screen.clientWidth) return false;
    const over = cover && document.querySelector(cover);
    if (over && ["sticky", "fixed"].includes(getComputedStyle(over).position)) {
        const bar = over.getBoundingClientRect();
        if (bar.top < box.bottom && bar.bottom > box.top) return false;
    }
    const found = document.elementFromPoint(box.left + box.width / 2, box.top + box.height / 2);
    const target = hit ? document.querySelector(hit) : shown;
    return !!found && (found === target || target.contains(found));
}"""


async def in_view(page: Page, selector: str, cover: str, hit: str | None = None) -> None:
    """The element is shown, uncovered, on the screen (waited for: the page scrolls after it
    draws the move)."""
    try:
        await page.wait_for_function(IN_VIEW, arg=[selector, cover, hit], timeout=5_000)
    except Exception as error:
        box = await page.locator(selector).bounding_box()
        raise AssertionError(f"{selector} is not in view: {box}") from error


async def page_at_top(page: Page) -> None:
    await page.evaluate("window.scrollTo(0, 0)")
    await page.locator(".board-scroller, .bazaar").first.evaluate(
        "e => { if (e.classList.contains('board-scroller')) e.scrollLeft = 0; }"
    )


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_each_tile_an_ai_lays_is_in_view_above_the_docked_hand(
    browser: Browser, console: Console, web: str, width: int, height: int, tmp_path: Path
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 61)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", width, height)
    await my_turn(page, "Ann")
    seen, turns = 0, 0
    while seen < 8:
        turns += 1  # a count of turns, not a time: the AI draws now and then
        assert turns <= 40, f"the AI laid {seen} tiles in {turns - 1} turns"
        await page_at_top(page)
        lay_over_http(web, game, token)
        await my_turn(page, "Ann")
        laid = [p for p in placements(web, game, token) if p["seat"] == 1]
        if len(laid) <= seen:
            continue  # the AI drew
        seen = len(laid)
        row, col = laid[-1]["row"], laid[-1]["col"]
        mark = '.last-placed[data-seat="1"]'
        await expect(page.locator(mark)).to_have_attribute("data-row", str(row))
        await expect(page.locator(mark)).to_have_attribute("data-col", str(col))
        hit = f'rect.hit[data-row="{row}"][data-col="{col}"]'
        await in_view(page, f"{mark} .outline", ".crazymino .side", hit)
        if seen == 3:
            await page.screenshot(path=screenshot_path(f"phone-tile-in-view-{width}.png", tmp_path))


MARKED = {"drawn": "draw", "colour_chosen": "draw", "traded": "trade", "ware_bought": "sale"}


def bazaar_step(base: str, game_id: str, token: str) -> None:
    """The person's seat draws, else ends its turn, else does what it first may, over HTTP."""
    headers = {"Authorization": f"Bearer {token}"}
    view = httpx.get(f"{base}/api/games/{game_id}", headers=headers).json()
    legal: list[dict[str, Any]] = view["legal"]
    assert view["status"] == "active", "the game ended before the test had seen enough"
    if not legal:
        return  # the view was asked for as the AI ended its turn: none yet
    command = next((c for t in ("draw", "end_turn") for c in legal if c["type"] == t), legal[0])
    answer = httpx.post(f"{base}/api/games/{game_id}/commands", json=command, headers=headers)
    assert answer.status_code == 200, answer.text


def ai_newest_mark(base: str, game_id: str, token: str) -> tuple[int, str] | None:
    """The version and kind (draw, trade, sale) of the newest marked move, if the AI's."""
    marked = [e for e in events_of(base, game_id, token) if e["event"]["type"] in MARKED]
    if not marked or marked[-1]["event"]["seat"] != 1:
        return None
    return marked[-1]["version"], MARKED[marked[-1]["event"]["type"]]


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_each_move_an_ai_makes_at_bazaar_is_in_view_where_it_is_marked(
    browser: Browser, console: Console, web: str, width: int, height: int, tmp_path: Path
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 7, "bazaar")
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", width, height)
    await my_turn(page, "Ann")
    kinds: set[str] = set()
    checked, last, steps = 0, None, 0
    while checked < 6 or len(kinds) < 2:
        steps += 1  # a count of the person's steps, not a time
        assert steps <= 120, f"checked {checked} of the AI's moves: {kinds}"
        await page_at_top(page)
        bazaar_step(web, game, token)
        await my_turn(page, "Ann")
        newest = ai_newest_mark(web, game, token)
        if newest is None or newest == last:
            continue
        last, (_, kind) = newest, newest
        selector = {
            "draw": '.draws .draw.newest[data-seat="1"]',
            "trade": '.exchange li.traded[data-traded="1"]',
            "sale": ".stall.last-sale:has(.sold[data-seat='1'])",
        }[kind]
        await expect(page.locator(selector)).to_have_count(1)
        await in_view(page, selector, ".bazaar-actions")
        checked += 1
        kinds.add(kind)
        if kind != "draw":
            await page.screenshot(
                path=screenshot_path(f"phone-{kind}-in-view-{width}.png", tmp_path)
            )
