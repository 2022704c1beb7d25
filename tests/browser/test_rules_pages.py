"""Each game's rules for its players, at a laptop's size and a phone's: the page `/rules/GAME`
(its h1, the way back to the lobby, axe serious/critical none, no sideways scroll), and the
rules dialog over a table in play, opened by the table's own "How to play": the same rules,
closed by Escape or "Back to the table", the focus back where it was, the page fetched once."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Console, create_game, no_sideways_scroll, open_page, screenshot_path
from playwright.async_api import Browser, expect
from test_access import no_serious_violation

SIZES = [(1366, 768), (390, 844)]
TITLES = {"crazymino": "Crazymino", "bazaar": "Bazaar", "mondo": "Mondo"}


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_each_rules_page_at_both_sizes(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    page = await open_page(browser, console, f"{web}/rules/crazymino", width, height)
    for game, title in TITLES.items():
        await page.goto(f"{web}/rules/{game}")
        await expect(page.get_by_role("heading", level=1)).to_have_text(f"{title} rules")
        if game != "bazaar":  # Bazaar's page has no picture
            await expect(page.locator("article.rules img").first).to_be_visible()
        await page.wait_for_load_state("networkidle")
        await no_sideways_scroll(page, width)
        images = page.locator("article.rules img")
        for n in range(await images.count()):  # every picture drawn, none broken
            assert await images.nth(n).evaluate("(img) => img.complete && img.naturalWidth > 0")
        await page.screenshot(
            path=screenshot_path(f"rules-{game}-{width}.png", tmp_path), full_page=True
        )
        await no_serious_violation(page)
        back = page.get_by_role("link", name="Back to the lobby")
        await expect(back.first).to_be_visible()
    await back.first.click()
    await expect(page.get_by_role("button", name="Create the game")).to_be_visible()


# The dialog is one component for every game: each size opens it over another game's table.
@pytest.mark.parametrize(
    ("width", "height", "game"), [(*SIZES[0], "crazymino"), (*SIZES[1], "mondo")]
)
async def test_the_rules_dialog_over_a_table(
    browser: Browser,
    console: Console,
    web: str,
    tmp_path: Path,
    width: int,
    height: int,
    game: str,
) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "ai"}]
    title = TITLES[game]
    created = create_game(web, seats, 80, game)
    url = f"{web}/play/{created['id']}#t={created['seats'][0]['token']}"
    page = await open_page(browser, console, url, width, height)
    fetched: list[str] = []
    page.on("request", lambda r, seen=fetched: r.url.endswith("/rules") and seen.append(r.url))
    await expect(page.locator(".connection")).to_have_text("Live")
    opener = page.locator(".table-head .links").get_by_role("link", name="How to play")
    dialog = page.get_by_role("dialog", name=f"{title} rules")

    await opener.click()
    await expect(dialog).to_be_visible()
    back = dialog.get_by_role("button", name="Back to the table")
    await expect(back).to_be_focused()
    await expect(dialog.get_by_role("heading", level=3).first).to_be_visible()
    await no_sideways_scroll(page, width)
    await page.screenshot(path=screenshot_path(f"rules-dialog-{game}-{width}.png", tmp_path))
    await no_serious_violation(page)

    await page.keyboard.press("Escape")
    await expect(dialog).to_be_hidden()
    await expect(opener).to_be_focused()

    await page.keyboard.press("Enter")  # the opener has the focus again
    await expect(dialog).to_be_visible()
    # The dialog's close event comes in a later task: a reopen before it still opens the dialog.
    await opener.evaluate(
        "(a) => { document.querySelector('dialog.rules-dialog').close(); a.click(); }"
    )
    await expect(dialog).to_be_visible()
    await dialog.evaluate("(d) => d.scrollTo(0, d.scrollHeight)")
    await expect(back).to_be_in_viewport()  # the way back stays in sight
    await back.click()
    await expect(dialog).to_be_hidden()
    await expect(opener).to_be_focused()
    assert len(fetched) == 1, fetched
    await page.context.close()
