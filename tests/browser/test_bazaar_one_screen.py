"""Bazaar at six seats holds a turn on one screen: at 1366×768 Draw, the exchange table, the
stalls and your carpet are in the viewport without scrolling; on a phone (390×844) your carpet
comes first, the others' carpets are folded, nothing scrolls sideways and the turn's actions
stay at the foot of the viewport however far the page is scrolled."""

from __future__ import annotations

from pathlib import Path

from bazaar_page import draw_and_end, six_seats, your_turn
from conftest import Console, screenshot_path
from playwright.async_api import Browser, Locator, expect
from test_access import no_serious_violation


async def inside(box_of: Locator, width: int, height: int) -> None:
    box = await box_of.bounding_box()
    assert box is not None
    assert box["x"] >= 0 and box["y"] >= 0, box
    assert box["x"] + box["width"] <= width and box["y"] + box["height"] <= height, box


async def test_one_screen_at_1366x768_holds_draw_the_exchange_the_stalls_and_your_carpet(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    page, _, _ = await six_seats(browser, console, web, 81, (1366, 768))
    await your_turn(page)
    await draw_and_end(page)
    await your_turn(page)  # with the AIs' last moves marked
    assert await page.evaluate("() => window.scrollY") == 0
    for part in (
        page.get_by_role("button", name="Draw a stone"),
        page.locator(".exchange"),
        page.locator(".stalls"),
        page.locator(".bazaar-mine"),
    ):
        await inside(part, 1366, 768)
    await expect(page.locator(".bazaar-others")).to_have_attribute("open", "")
    await page.screenshot(path=screenshot_path("bazaar-1366x768.png", tmp_path))
    await no_serious_violation(page)


async def test_on_a_phone_the_actions_stay_at_the_foot_and_your_carpet_comes_first(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    page, _, _ = await six_seats(browser, console, web, 82, (390, 844))
    await your_turn(page)
    await draw_and_end(page)
    await your_turn(page)
    mine = await page.locator(".bazaar-mine").bounding_box()
    bag = await page.locator(".bag").bounding_box()
    assert mine is not None and bag is not None and mine["y"] < bag["y"] and mine["y"] < 844
    others = page.locator(".bazaar-others")
    assert await others.get_attribute("open") is None  # folded
    await expect(others.locator(".carpet-card").first).to_be_hidden()
    assert await page.evaluate("() => document.documentElement.scrollWidth") <= 390
    bar = page.locator(".bazaar-actions")
    for y in ("document.body.scrollHeight / 2", "document.body.scrollHeight"):
        await page.evaluate(f"() => window.scrollTo(0, {y})")
        await page.wait_for_function(
            f"() => Math.abs(window.scrollY - Math.min({y}, "
            "document.documentElement.scrollHeight - innerHeight)) < 2"
        )
        await inside(bar, 390, 844)
        await expect(page.get_by_role("button", name="Draw a stone")).to_be_in_viewport()
        await expect(bar.locator(".summary")).to_be_visible()
    box = await bar.bounding_box()
    assert box is not None and abs(box["y"] + box["height"] - 844) < 1
    # The end of the page is not under the bar: the chat's Send button can be seen whole.
    await expect(page.get_by_role("button", name="Send")).to_be_in_viewport(ratio=1)
    send = await page.get_by_role("button", name="Send").bounding_box()
    assert send is not None and send["y"] + send["height"] <= box["y"]
    await page.screenshot(path=screenshot_path("bazaar-390x844.png", tmp_path))
    await page.evaluate("() => window.scrollTo(0, 0)")
    await page.screenshot(path=screenshot_path("bazaar-390x844-full.png", tmp_path), full_page=True)
    await no_serious_violation(page)
