"""The table in the browser, with the keyboard alone: the turn clock counts down, a person
leaves the table (the AI plays their seat, the others read it in the log) and takes it back."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from conftest import Console, open_page, screenshot_path
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation


async def press(page: Page, name: str) -> None:
    """Reach the button with the keyboard's focus and press Enter, as a keyboard user does."""
    button = page.get_by_role("button", name=name)
    await button.focus()
    await expect(button).to_be_focused()
    await page.keyboard.press("Enter")


async def test_clock_leave_and_take_the_seat_back(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    body = {
        "game": "crazymino",
        "seats": [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}],
        "seed": 71,
        "options": {"turn_seconds": 300, "takeover_level": "easy"},
    }
    answer = httpx.post(f"{web}/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created = answer.json()
    token = created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{created['id']}#t={token}")
    await expect(page.locator(".connection")).to_have_text("Live")

    clock = page.get_by_role("timer")
    await expect(clock).to_contain_text(re.compile(r"turn: \d+:\d\d left"))
    first = await clock.get_attribute("aria-label")
    await expect(clock).not_to_have_attribute("aria-label", first or "")  # it counts down

    await press(page, "Leave or resign")
    await expect(page.get_by_role("group", name="Leave or resign?")).to_contain_text("easy AI")
    await press(page, "Leave table")
    await expect(page.locator(".away-note")).to_contain_text("the easy AI plays your seat")
    await expect(page.locator(".log li", has_text="Ann left the table")).to_have_count(1)
    await expect(page.locator(".players")).to_contain_text("left")
    await no_serious_violation(page)
    await page.screenshot(path=screenshot_path("table-left.png", tmp_path), full_page=True)

    await press(page, "Take my seat back")
    await expect(page.locator(".log li", has_text="Ann took their seat back")).to_have_count(1)
    await expect(page.get_by_role("button", name="Leave or resign")).to_be_visible()
    await expect(page.locator(".away-note")).to_have_count(0)
