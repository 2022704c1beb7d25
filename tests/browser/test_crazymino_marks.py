"""Each seat's last placement is marked on the Crazymino board where it happened: outlined in
the seat's colour with the seat's number, until that seat lays again; the newest one shows its
points for a moment. An AI's move, however fast, stays marked; a replay marks the step's move."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Console, create_game, screenshot_path
from crazymino_page import SIZES, lay_over_http, my_turn, open_sized, placements
from playwright.async_api import Browser, Page, expect


def mark(page: Page, seat: int) -> str:
    return f'.last-placed[data-seat="{seat}"]'


async def expect_marked(page: Page, seat: int, placed: dict[str, object]) -> None:
    """`seat`'s one outline is on the cell of `placed`, with the seat's number."""
    outline = page.locator(mark(page, seat))
    await expect(outline).to_have_count(1)
    await expect(outline).to_have_attribute("data-row", str(placed["row"]))
    await expect(outline).to_have_attribute("data-col", str(placed["col"]))
    await expect(outline.locator(".seat-number")).to_have_text(str(seat + 1))
    stroke = await outline.locator(".outline").evaluate("e => getComputedStyle(e).stroke")
    colour = await page.evaluate(
        """seat => { const probe = document.createElement('span');
            probe.className = 'seat-' + seat; probe.style.color = 'var(--seat)';
            document.body.append(probe); const c = getComputedStyle(probe).color;
            probe.remove(); return c; }""",
        seat,
    )
    assert stroke == colour


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_each_seats_last_tile_is_outlined_with_its_number_and_the_newest_shows_points(
    browser: Browser, console: Console, web: str, width: int, height: int, tmp_path: Path
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 61)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", width, height)
    await my_turn(page, "Ann")
    await expect(page.locator(".last-placed")).to_have_count(0)  # only the start tile yet

    # Ann lays until the AI has laid a tile too (an AI may draw instead).
    while not any(p["seat"] == 1 for p in placements(web, game, token)):
        lay_over_http(web, game, token)
        await my_turn(page, "Ann")
    laid = placements(web, game, token)
    ai = [p for p in laid if p["seat"] == 1][-1]
    await expect_marked(page, 1, ai)
    await expect_marked(page, 0, [p for p in laid if p["seat"] == 0][-1])
    newest = laid[-1]
    pop = page.locator(".last-placed.newest .points-pop")
    await expect(pop).to_have_text(f"+{newest['score']['total']}")
    assert await page.locator(".last-placed.newest").get_attribute("data-seat") == str(
        newest["seat"]
    )
    await page.screenshot(path=screenshot_path(f"crazymino-marks-{width}.png", tmp_path))
    # The points fade; the outline stays.
    await page.wait_for_function(
        "() => getComputedStyle(document.querySelector('.points-pop')).opacity === '0'"
    )
    await expect(page.locator(mark(page, 1))).to_be_visible()

    # Ann's next tile moves Ann's outline; the AI's stays where it was until it lays again.
    lay_over_http(web, game, token)
    await my_turn(page, "Ann")
    now = placements(web, game, token)
    mine = [p for p in now if p["seat"] == 0][-1]
    await expect_marked(page, 0, mine)
    await expect_marked(page, 1, [p for p in now if p["seat"] == 1][-1])

    # The replay marks the step's placement as the newest, the same way.
    await page.goto(f"{web}/replay/{game}#t={token}")
    await expect(page.locator("output")).to_contain_text("Event")
    for _ in range(10):
        if "lays" in (await page.locator(".step-text").text_content() or ""):
            break
        await page.get_by_role("button", name="Previous").click()
    step = await page.locator(".step-text").text_content() or ""
    shown = page.locator(".last-placed.newest")
    await expect(shown).to_have_count(1)
    row, col = (
        int(await shown.get_attribute("data-row") or -1),
        int(await shown.get_attribute("data-col") or -1),
    )
    match = [p for p in now if (p["row"], p["col"]) == (row, col)]
    assert (
        match
        and f"+{match[0]['score']['total']}" == await shown.locator(".points-pop").text_content()
    )
    assert f"= {match[0]['score']['total']} points" in step
