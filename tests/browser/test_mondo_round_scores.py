"""Mondo's round end in the browser: the round's scores open in a dialog between rounds (the
focus in it; Escape or "Back to the table" closes it, "Scores of round 1" opens it again) and
the clock's cue says the round is over; the cue speaks at each full minute and at 10 s only; the
5-s grace never shows more than 5 s, however late the browser's clock."""

from __future__ import annotations

import re
from pathlib import Path

from conftest import Console, open_page, screenshot_path
from crazymino_page import log_size, wait_log_grows
from playwright.async_api import Browser, expect
from test_access import no_serious_violation
from test_mondo_keyboard import mondo_game

#: The browser's clock, late by `window.lag` ms once a test sets it (as when the view took long
#: to arrive: the skew measured at load is then short).
LATE_CLOCK = """(() => {
    const real = Date.now;
    window.lag = 0;
    Date.now = () => real() - window.lag;
})();"""

CUES = """async () => {
    const { cueFor } = await import("/static/js/mondo-clock.js");
    const at = (seconds, running = true, round = 1) => ({ running, round, seconds });
    return [
        cueFor(at(121), at(120)), cueFor(at(120), at(119)), cueFor(at(61), at(60)),
        cueFor(at(30), at(29)), cueFor(at(11), at(10)), cueFor(at(10), at(9)),
        cueFor(at(3), at(0, false)), cueFor(null, at(60)),
    ];
}"""


async def test_the_round_scores_open_between_rounds_and_close(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "easy"}]
    created = mondo_game(web, seats, 91, round_seconds=20, break_seconds=60)
    token = created["seats"][0]["token"]
    url = f"{web}/play/{created['id']}#t={token}"
    page = await open_page(browser, console, url, 1366, 768)
    phone = await open_page(browser, console, url, 390, 844)
    await page.add_init_script(LATE_CLOCK)
    await page.reload()
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    assert await page.evaluate(CUES) == [
        "2 minutes left in round 1.",
        "",
        "1 minute left in round 1.",
        "",
        "10 seconds left in round 1.",
        "",
        "Round 1 is over.",
        "",
    ]

    # The grace: 5 s at most, even with the browser's clock 3 s late.
    await page.evaluate("window.lag = 3000")
    await page.locator(".display-tile:not([aria-disabled])").first.click()
    before = await log_size(page)
    await page.locator(".space.open").first.click()
    await wait_log_grows(page, before, "Ann lays")
    grace = page.locator(".grace")
    await expect(grace).to_be_visible()
    for _ in range(6):
        text = await grace.inner_text() if await grace.count() else "(0:00)"
        assert re.search(r"\(0:0[0-5]\)", text), text
        await page.wait_for_timeout(250)
    await page.evaluate("window.lag = 0")

    # Ann leaves the round; the AI's round ends with the clock: the scores open.
    before = await log_size(page)
    await page.get_by_role("button", name=re.compile("Take the bonus chip")).click()
    await page.get_by_role("button", name="Yes, take the chip").click()
    await wait_log_grows(page, before, "Ann takes the bonus chip")
    dialog = page.locator("dialog.round-scores")
    await expect(dialog).to_have_attribute("open", "", timeout=40_000)
    await expect(page.get_by_role("heading", name="Round 1 scores")).to_be_focused()
    await expect(dialog).to_contain_text("Next round in")
    await expect(page.locator("#mondo-clock-cue")).to_have_text("Round 1 is over.")
    await expect(phone.locator("dialog.round-scores")).to_have_attribute("open", "")
    await page.screenshot(path=screenshot_path("mondo-round-break-1366.png", tmp_path))
    await phone.screenshot(path=screenshot_path("mondo-round-break-phone.png", tmp_path))
    await no_serious_violation(page)

    await page.keyboard.press("Escape")
    await expect(dialog).not_to_have_attribute("open", "")
    await page.get_by_role("button", name="Scores of round 1").click()
    await expect(dialog).to_have_attribute("open", "")
    await page.get_by_role("button", name="Back to the table").click()
    await expect(dialog).not_to_have_attribute("open", "")
    await expect(page.get_by_role("button", name="Scores of round 1")).to_be_visible()
    # on the phone, the button to close it is in view however long the scores
    close = phone.get_by_role("button", name="Back to the table")
    await expect(close).to_be_in_viewport()
    await close.click()
    await expect(phone.locator("dialog.round-scores")).not_to_have_attribute("open", "")
