"""Mondo at a full table, in the browser: a person plays a whole round with the keyboard alone
(Tab and arrows to a display tile, Enter takes it; the focus goes to their board, where R turns,
F flips, arrows move and Enter places; Tab reaches the bonus chip), and the focus never falls to
the page while the other seats' moves re-render the table; and 1 person with 3 AIs of the levels
the server offers, where every AI seat lays tiles in the round."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import httpx
from conftest import Console, open_page, screenshot_path
from crazymino_page import log_size, wait_log_grows
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation

#: What has the focus: "board", "display", "chip", "body" or the element's tag.
FOCUSED = """() => {
    const el = document.activeElement;
    if (!el || el === document.body) return "body";
    if (el.matches('.world.keyed')) return "board";
    if (el.matches('.display-tile')) return "display";
    if (el.matches('.held button.primary')) return "chip";
    if (el.matches('.tasks button')) return "task";
    return el.tagName.toLowerCase() + (el.className ? "." + el.className : "");
}"""


#: Counts the animation frames, and those in which the focus is on <body>.
WATCH_FOCUS = """() => {
    window.onBody = 0;
    window.framesSeen = 0;
    const tick = () => {
        window.framesSeen += 1;
        if (document.activeElement === document.body) window.onBody += 1;
        requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
}"""


def mondo_game(base: str, seats: list[dict[str, Any]], seed: int, **options: Any) -> dict[str, Any]:
    body = {"game": "mondo", "seats": seats, "seed": seed, "options": options}
    answer = httpx.post(f"{base}/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


async def focused(page: Page) -> str:
    where: str = await page.evaluate(FOCUSED)
    return where


async def focus_is(page: Page, where: str, timeout: float = 10_000) -> None:
    await page.wait_for_function(f"() => ({FOCUSED})() === {where!r}", timeout=timeout)


async def tab_to(page: Page, where: str, *, back: bool = False, limit: int = 80) -> None:
    """Tab (or Shift+Tab) until the focus is on `where`."""
    for _ in range(limit):
        if await focused(page) == where:
            return
        await page.keyboard.press("Shift+Tab" if back else "Tab")
    raise AssertionError(f"{limit} tabs did not reach the {where}: at {await focused(page)}")


async def take_by_keys(page: Page) -> None:
    """From the display: arrows to a tile that may be taken, Enter; the focus goes to the
    board, its cursor on an open space."""
    await tab_to(page, "display")
    for _ in range(60):
        if await page.evaluate("() => !document.activeElement.hasAttribute('aria-disabled')"):
            break
        await page.keyboard.press("ArrowRight")
    else:
        raise AssertionError("no tile of the display may be taken")
    await page.keyboard.press("Enter")
    await expect(page.locator(".held-tile")).to_be_visible()
    await focus_is(page, "board")
    await expect(page.locator("#mondo-cursor")).to_contain_text("open: Enter places")


async def cursor(page: Page) -> int:
    return int(await page.locator(".world.keyed rect.cursor").get_attribute("data-space") or -1)


async def place_by_keys(page: Page, name: str) -> None:
    """On the board: R turns the tile, F flips it, arrows go to an open space, Enter places it;
    the focus goes back to the display."""
    held = page.locator(".held-tile")
    label = await held.get_attribute("aria-label") or ""
    turned = int(re.search(r"turned (\d+)°", label).group(1))  # type: ignore[union-attr]
    await page.keyboard.press("r")
    await expect(held).to_have_attribute("aria-label", re.compile(f"turned {(turned + 90) % 360}°"))
    face = "plain" if "plain face" in label else "variable"
    other = "variable" if face == "plain" else "plain"
    await page.keyboard.press("f")
    await expect(held).to_have_attribute("aria-label", re.compile(f"{other} face"))
    assert await focused(page) == "board"
    spaces = [
        int(s)
        for s in await page.locator(".space.open").evaluate_all(
            "els => els.map(e => e.dataset.space)"
        )
    ]
    at = await cursor(page)
    goal = spaces[-1]  # the last open space: the arrows have some way to go
    for key, steps in (
        ("ArrowDown", goal // 6 - at // 6),
        ("ArrowUp", at // 6 - goal // 6),
        ("ArrowRight", goal % 6 - at % 6),
        ("ArrowLeft", at % 6 - goal % 6),
    ):
        for _ in range(max(0, steps)):
            await page.keyboard.press(key)
    assert await cursor(page) == goal
    # A space as a player names it: its row and column, each counted from 1.
    await expect(page.locator("#mondo-cursor")).to_contain_text(
        f"Row {goal // 6 + 1}, column {goal % 6 + 1}: "
    )
    await expect(page.locator("#mondo-cursor")).to_contain_text("open: Enter places")
    before = await log_size(page)
    await page.keyboard.press("Enter")
    await wait_log_grows(page, before, f"{name} lays")
    await expect(page.locator(".held-tile")).to_have_count(0)
    await focus_is(page, "display")


async def focus_stays_while_others_act(
    page: Page, where: str, others: list[str], moves: int
) -> None:
    """`moves` events by the other seats arrive (each re-renders the table); the focus stays."""
    before = await log_size(page)
    await page.wait_for_function(
        """([size, names, moves]) => [...document.querySelectorAll('.log li')].slice(size)
            .filter(li => names.some(n => li.textContent.includes(n + ' '))).length >= moves""",
        arg=[before, others, moves],
        timeout=30_000,
    )
    assert await focused(page) == where


async def test_a_whole_mondo_round_with_the_keyboard_alone(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "level": "normal"}]
    created = mondo_game(web, seats, 71, round_seconds=45, break_seconds=0, expert=True)
    token = created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{created['id']}#t={token}", 1280, 900)
    await expect(page.locator(".connection")).to_have_text("Live")
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    await expect(page.locator("#mondo-keys")).to_contain_text("R turns the tile, F flips it")

    for n in range(4):
        await take_by_keys(page)
        if n == 0:  # from now on the focus is never on the page itself
            await page.evaluate(WATCH_FOCUS)
        if n == 3:
            await no_serious_violation(page)
        if n == 0:  # holding the tile, the board keeps the focus while the AI plays
            await focus_stays_while_others_act(page, "board", ["AI 2"], 1)
        await place_by_keys(page, "Ann")
        if n == 1:  # and so does the display, after a placement
            await focus_stays_while_others_act(page, "display", ["AI 2"], 1)
        if n == 2:  # the grace: R turns the tile just placed, L lifts it back to the hand
            before = await log_size(page)
            await page.keyboard.press("r")
            await wait_log_grows(page, before, "Ann turns tile")
            before = await log_size(page)
            await page.keyboard.press("l")
            await wait_log_grows(page, before, "Ann lifts tile")
            await expect(page.locator(".held-tile")).to_be_visible()
            await focus_is(page, "board")
            await place_by_keys(page, "Ann")
    await expect(page.locator(".world.keyed")).to_have_attribute(
        "aria-label", re.compile("4 tiles")
    )
    await page.screenshot(path=screenshot_path("mondo-keys.png", tmp_path), full_page=True)

    # Three tiles placed, a task may be taken (expert game): Tab reaches it, Enter takes it.
    # Its button goes (the task is Ann's now): the focus goes back to the display.
    view = httpx.get(
        f"{web}/api/games/{created['id']}", headers={"Authorization": f"Bearer {token}"}
    ).json()
    assert any(c["type"] == "take_task" for c in view["legal"]), view["legal"]
    await tab_to(page, "task", back=True)
    before = await log_size(page)
    await page.keyboard.press("Enter")
    await wait_log_grows(page, before, "Ann takes the task")
    await focus_is(page, "display")

    # Tab reaches the bonus chip: Enter asks first (her board has empty spaces), Shift+Tab
    # reaches Yes, Enter takes it, and Ann's round is over.
    await tab_to(page, "chip", back=True)
    before = await log_size(page)
    await page.keyboard.press("Enter")
    await page.keyboard.press("Shift+Tab")
    await page.keyboard.press("Enter")
    await wait_log_grows(page, before, "Ann takes the bonus chip")
    assert await focused(page) == "chip"  # the chip's button stays, not to be pressed again
    assert await page.evaluate("[window.onBody, window.framesSeen > 100]") == [0, True]
    await expect(page.locator(".log li", has_text="Round 1 ends")).to_have_count(1, timeout=60_000)
    # No break (0 s): the round's scores do not open by themselves; their button opens them.
    await expect(page.locator(".round-bar")).to_contain_text("Round 2 of 3")
    await expect(page.locator("dialog.round-scores[open]")).to_have_count(0)
    await page.get_by_role("button", name="Scores of round 1").click()
    await expect(page.get_by_role("heading", name="Round 1 scores")).to_be_visible()
    view = httpx.get(f"{web}/api/games/{created['id']}").json()
    scores = view["state"]["last_round"]
    breakdown = page.locator(".breakdown-grid > div")
    for seat, score in enumerate(scores):
        await expect(breakdown.nth(seat).locator(".total dd")).to_have_text(str(score["total"]))
    assert scores[0]["bonus"] > 0  # Ann's chip counts


async def test_one_person_and_three_ais_each_ai_lays_tiles(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    types = httpx.get(f"{web}/api/games/types").json()
    levels = next(t["levels"] for t in types if t["name"] == "mondo")
    # normal, easy, normal today; every level offered, when there are three or more
    chosen = [levels[(k + 1) % len(levels)] for k in range(3)]
    assert set(chosen) == set(levels[:3]) or len(levels) < 3
    seats = [{"type": "human", "name": "Ann"}] + [{"type": "ai", "level": lv} for lv in chosen]
    created = mondo_game(web, seats, 72, round_seconds=30, break_seconds=60)
    token = created["seats"][0]["token"]
    names = [s["name"] for s in created["seats"]]
    page = await open_page(browser, console, f"{web}/play/{created['id']}#t={token}", 1400, 1000)
    await expect(page.locator(".countdown")).to_contain_text("Time left")
    await expect(page.locator(".others .other")).to_have_count(3)

    # Ann plays by keys while three AIs act: the focus stays where she is.
    await take_by_keys(page)
    await focus_stays_while_others_act(page, "board", names[1:], 2)
    await place_by_keys(page, "Ann")
    await focus_stays_while_others_act(page, "display", names[1:], 2)

    await expect(page.locator(".log li", has_text="Round 1 ends")).to_have_count(1, timeout=60_000)
    await expect(page.get_by_role("heading", name="Round 1 scores")).to_be_visible()
    await page.screenshot(path=screenshot_path("mondo-four-seats.png", tmp_path), full_page=True)

    view = httpx.get(f"{web}/api/games/{created['id']}").json()
    laid = {s["name"]: len(s["board"]) for s in view["state"]["seats"]}
    for name in names[1:]:
        label = await page.locator(f'.others svg[aria-label^="{name}\'s board"]').get_attribute(
            "aria-label"
        )
        count = f"{laid[name]} tile" + ("" if laid[name] == 1 else "s")
        assert label is not None and label.startswith(f"{name}'s board: {count}"), label
    assert all(laid[name] > 0 for name in names[1:]), f"tiles laid in round 1: {laid}"
