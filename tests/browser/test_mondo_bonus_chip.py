"""Mondo's bonus chip ends the player's round: while their board has empty spaces (as the
view scores them) the page asks first, says what taking it does, and takes it only on Yes;
No, Escape and Yes work with the keyboard alone, the focus back on the chip's button."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from conftest import Console, open_page, screenshot_path
from crazymino_page import log_size, wait_log_grows
from playwright.async_api import Browser, expect
from test_access import no_serious_violation
from test_mondo_keyboard import mondo_game

SIZES = [(1366, 768), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_bonus_chip_asks_first_while_the_board_has_empty_spaces(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    created = mondo_game(
        web, [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "easy"}], 4
    )
    token = created["seats"][0]["token"]
    url = f"{web}/play/{created['id']}"
    page = await open_page(browser, console, f"{url}#t={token}", width, height)
    chip = page.get_by_role("button", name=re.compile("^Take the bonus chip"))
    question = page.get_by_role("group", name=re.compile("^Take the bonus chip 4"))
    view = httpx.get(
        f"{web}/api/games/{created['id']}", headers={"Authorization": f"Bearer {token}"}
    )
    empty = -view.json()["state"]["seats"][0]["score_now"]["empty_spaces"]
    assert empty == 24

    # A click asks, in words: the round ends for Ann, her 24 empty spaces cost a point each.
    await chip.click()
    await expect(question).to_contain_text("stop building this round")
    await expect(question).to_contain_text(f"your board keeps its {empty} empty spaces")
    await expect(page.get_by_role("button", name="No, keep building")).to_be_focused()
    await no_serious_violation(page)
    await page.screenshot(path=screenshot_path(f"mondo-chip-asks-{width}.png", tmp_path))
    # No (Enter on the focused button) takes nothing: the chip is still hers to take.
    await page.keyboard.press("Enter")
    await expect(question).to_have_count(0)
    await expect(chip).to_be_focused()
    await expect(chip).not_to_have_attribute("aria-disabled", "true")
    # Escape says No as well.
    await page.keyboard.press("Enter")
    await expect(question).to_be_visible()
    await page.keyboard.press("Escape")
    await expect(question).to_have_count(0)
    await expect(chip).to_be_focused()

    # Yes, with the keyboard alone: the chip is taken and Ann's round is over.
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("button", name="No, keep building")).to_be_focused()
    await page.keyboard.press("Shift+Tab")
    await expect(page.get_by_role("button", name="Yes, take the chip")).to_be_focused()
    before = await log_size(page)
    await page.keyboard.press("Enter")
    await wait_log_grows(page, before, "Ann takes the bonus chip")
    await expect(page.locator(".held")).to_contain_text("You took the bonus chip 4")
    await expect(question).to_have_count(0)
