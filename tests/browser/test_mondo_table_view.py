"""Mondo's table at a glance, in the browser: with three AI seats mid-round, each seat's last
placement is marked on its world in its colour with its number; at 1366×768 your world, the
display, the clock and the score helper are on one screen, and on a phone (390×844) the page never
scrolls sideways and a tile is placed by two taps; the round's clock is a timer that speaks only
through its cue; without colour, the landscapes still differ in luminance and every display tile
carries its letters, and the two volcanoes differ by shape; an animal takes the article its name
needs ("an octopus"); the special scoring by its name."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import Console, open_page, screenshot_path
from crazymino_page import log_size, wait_log_grows
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation
from test_mondo_keyboard import mondo_game

#: Each landscape's luminance (WCAG relative luminance of its colour under the texture), and
#: whether every display tile's triangles carry their landscape's letter.
GREYSCALE = """() => {
    document.documentElement.style.filter = "grayscale(1)";
    const channel = (c) => {
        c /= 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    const luminance = (colour) => {
        const probe = document.createElement("span");
        probe.style.color = colour;
        document.body.appendChild(probe);
        const [r, g, b] = getComputedStyle(probe).color.match(/\\d+/g).map(Number);
        probe.remove();
        return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b);
    };
    const lands = {};
    for (const land of ["forest", "water", "steppe", "desert"]) {
        lands[land] = luminance(document.querySelector(`#land-${land} rect`).getAttribute("fill"));
    }
    const initial = { water: "W", forest: "F", desert: "D", steppe: "S" };
    const unlettered = [...document.querySelectorAll(".display-tile")].filter((tile) => {
        const want = [...tile.querySelectorAll("polygon.land")].map((p) => initial[p.dataset.land]);
        const have = [...tile.querySelectorAll(".land-letter")].map((t) => t.textContent);
        return want.length !== 4 || want.join("") !== have.join("");
    }).length;
    const tiles = document.querySelectorAll(".display-tile").length;
    return { lands, unlettered, tiles };
}"""


def ratio(a: float, b: float) -> float:
    return (max(a, b) + 0.05) / (min(a, b) + 0.05)


async def in_view(page: Page, selector: str, height: int) -> None:
    box = await page.locator(selector).first.bounding_box()
    assert box is not None, selector
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (selector, box)


async def place_a_tile(page: Page, name: str) -> None:
    """Two clicks (or taps): a display tile, an open space of the world."""
    await page.locator(".display-tile:not([aria-disabled])").first.click()
    await expect(page.locator(".held-tile")).to_be_visible()
    before = await log_size(page)
    await page.locator(".space.open").first.click()
    await wait_log_grows(page, before, f"{name} lays")


async def test_three_ai_seats_marked_one_screen_and_readable_without_colour(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "ai", "level": "easy"}] * 3
    created = mondo_game(web, seats, 81, round_seconds=90, break_seconds=30, advanced=True)
    token = created["seats"][0]["token"]
    url = f"{web}/play/{created['id']}#t={token}"
    page = await open_page(browser, console, url, 1366, 768)
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    await place_a_tile(page, "Ann")

    # Every seat's last placement on its world: its colour (class) and its number.
    for seat in range(4):
        mark = page.locator(f'.world[data-seat="{seat}"] .last-placed')
        await expect(mark).to_have_count(1, timeout=30_000)
        await expect(mark).to_have_class(re.compile(f"seat-{seat}"))
        await expect(mark.locator(".badge-number")).to_have_text(str(seat + 1))
    label = await page.locator('.others svg[aria-label^="AI 2"]').get_attribute("aria-label")
    assert label is not None and re.search(r"last placed: Row \d, column \d$", label), label
    # it stays until that seat's next placement: the mark moves to the AI's newest tile
    newest = await page.evaluate(
        """() => [...document.querySelectorAll('.log li')].map(li => li.textContent)
            .filter(t => t.includes('AI 2 lays')).length"""
    )
    await page.wait_for_function(
        """(n) => [...document.querySelectorAll('.log li')]
            .filter(li => li.textContent.includes('AI 2 lays')).length > n""",
        arg=newest,
        timeout=30_000,
    )
    laid = await page.evaluate(
        """() => [...document.querySelectorAll('.log li')].map(li => li.textContent)
            .filter(t => t.includes('AI 2 lays')).pop()"""
    )
    found = re.search(r" on row (\d), column (\d)", laid)
    assert found is not None, laid
    row, col = (int(n) - 1 for n in found.groups())  # counted from 1 in words
    await expect(page.locator('.world[data-seat="1"] .last-placed')).to_have_attribute(
        "data-space", str(row * 6 + col)
    )

    # One screen: your world, the display, the clock, the score helper; nothing sideways.
    for selector in (".world.keyed", ".display ul", ".countdown", ".helper"):
        await in_view(page, selector, 768)
    assert await page.evaluate("document.documentElement.scrollWidth") <= 1366
    await expect(page.locator(".others .world")).to_have_count(3)

    # The clock: a timer that no screen reader reads every second; the cue speaks for it.
    await expect(page.locator(".countdown")).to_have_attribute("role", "timer")
    assert await page.locator(".round-bar").get_attribute("role") is None
    assert await page.locator(".round-bar").get_attribute("aria-live") is None
    await expect(page.locator("#mondo-clock-cue")).to_have_attribute("aria-live", "polite")
    # The special scoring by its name.
    await expect(page.locator(".round-bar .special strong")).to_have_text(
        re.compile(r"^The (most|largest) [a-z ]+$")
    )
    await page.screenshot(path=screenshot_path("mondo-three-ais-1366.png", tmp_path))
    await no_serious_violation(page)

    # Without colour: the landscapes' luminances differ at least 1.5:1 from one another, and
    # every display tile has its four letters.
    grey = await page.evaluate(GREYSCALE)
    lands = grey["lands"]
    for a in lands:
        for b in lands:
            if a < b:
                assert ratio(lands[a], lands[b]) >= 1.5, (a, b, lands)
    assert grey["tiles"] > 100 and grey["unlettered"] == 0, grey
    # Every display tile's words: an animal with the article its name needs.
    said = await page.locator(".display-tile").evaluate_all("(all) => all.map((b) => b.ariaLabel)")
    assert not [words for words in said if re.search(r"\ba [aeiou]", words)]
    vowelled = r", an (octopus|ostrich|elephant|antelope)"
    assert [words for words in said if re.search(vowelled, words)]
    # Active and inactive volcanoes: a peak with a plume, a cone cut flat.
    active = page.locator('.display-tile [data-volcano="active"]')
    inactive = page.locator('.display-tile [data-volcano="inactive"]')
    assert await active.count() > 0 and await inactive.count() > 0
    assert await active.first.locator("path").count() == 1
    points = await inactive.first.get_attribute("points") or ""
    assert len(points.split()) == 4
    await page.screenshot(path=screenshot_path("mondo-greyscale-1366.png", tmp_path))


async def test_a_phone_scrolls_down_only_and_places_by_two_taps(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "ai", "level": "easy"}] * 3
    created = mondo_game(web, seats, 82, round_seconds=90, break_seconds=30)
    token = created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{created['id']}#t={token}", 390, 844)
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    await place_a_tile(page, "Ann")
    await place_a_tile(page, "Ann")
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    for selector in (".world.keyed", ".display ul", ".helper"):
        await page.locator(selector).scroll_into_view_if_needed()
        await expect(page.locator(selector)).to_be_in_viewport()
    await expect(page.locator('.world[data-seat="0"] .last-placed')).to_have_count(1)
    await page.locator(".world.keyed").scroll_into_view_if_needed()
    await expect(page.locator(".countdown")).to_be_in_viewport()  # the clock stays in view
    await page.screenshot(path=screenshot_path("mondo-phone.png", tmp_path))
    await no_serious_violation(page)
