"""The lobby's form is built from what `GET /api/games/types` says of each option: its label,
its help sentence and its bounds, tied to the field for a screen reader; a value the server
refuses is answered in the same words; the games are listed by their titles."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from conftest import Console, create_game, open_page, screenshot_path
from playwright.async_api import Browser, expect

SIZES = [(1366, 768), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_options_are_in_a_players_words(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    types = {t["name"]: t for t in httpx.get(f"{web}/api/games/types").json()}
    create_game(web, [{"type": "ai"}, {"type": "ai"}], 5, "crazymino")
    page = await open_page(browser, console, web, width, height)

    clock = page.get_by_label("Turn clock (seconds)")
    await expect(clock).to_have_attribute("min", "5")
    await expect(clock).to_have_accessible_description(
        "How long each player has for a turn; when it runs out, the AI moves for them. "
        "Leave it empty for no clock. Between 5 and 86,400 seconds."
    )
    await page.locator("form.new-game select").first.select_option("mondo")
    for option in types["mondo"]["options"]:
        assert "_" not in option["label"]
        await expect(page.locator("form.new-game")).to_contain_text(option["label"])
        await expect(page.locator("form.new-game")).to_contain_text(option["description"])
    await expect(
        page.get_by_label("Break between rounds (seconds)")
    ).to_have_accessible_description(
        "The pause between rounds to read the round's scores (0: none). Between 0 and 120 seconds."
    )
    await expect(page.get_by_label("Advanced game")).to_be_visible()

    # Both lengths of a round: the browser lets it through, the server says why not.
    console.allow(r"status of 422")
    await page.get_by_label("Round length (minutes)").fill("3")
    await page.get_by_label("Quick round length (seconds)").fill("30")
    await page.get_by_role("button", name="Create the game").click()
    refusal = page.locator("form.new-game .refusal")
    await expect(refusal).to_have_text(
        "Give either a round length or a quick round length, not both."
    )
    await page.screenshot(path=screenshot_path(f"lobby-options-{width}.png", tmp_path))

    # The games are listed by title, and each link says which game it opens.
    games = page.locator("table.games")
    await expect(games.locator("td").first).to_have_text("Crazymino")
    watch = games.get_by_role("link", name="Watch Crazymino: AI 1, AI 2", exact=False).first
    await expect(watch).to_be_visible()
