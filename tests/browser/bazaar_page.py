"""A Bazaar table of six in the browser: you and an AI of every level twice over, and what the
page should mark, worked out from the log the server gives (the event types of
domain/bazaar/model.py)."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import Console, create_game, open_page
from playwright.async_api import Browser, Page, expect

COLOURS = ("red", "green", "blue", "white", "yellow")
SIZES = [(1366, 768), (390, 844)]


def levels(base: str) -> list[str]:
    (bazaar,) = [t for t in httpx.get(f"{base}/api/games/types").json() if t["name"] == "bazaar"]
    found: list[str] = bazaar["levels"]
    return found


async def six_seats(
    browser: Browser, console: Console, base: str, seed: int, size: tuple[int, int]
) -> tuple[Page, str, str]:
    """Ann and five AIs (every level, then again) at `size`; the page once it is live."""
    every = levels(base)
    ais = [{"type": "ai", "level": every[k % len(every)]} for k in range(5)]
    created = create_game(base, [{"type": "human", "name": "Ann"}, *ais], seed, "bazaar")
    token = created["seats"][0]["token"]
    page = await open_page(browser, console, f"{base}/play/{created['id']}#t={token}", *size)
    await expect(page.locator(".connection")).to_have_text("Live")
    return page, str(created["id"]), token


def entries(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    answer = httpx.get(
        f"{base}/api/games/{game_id}/events", headers={"Authorization": f"Bearer {token}"}
    )
    found: list[dict[str, Any]] = answer.json()["events"]
    return found


def seat_names(base: str, game_id: str, token: str) -> list[str]:
    answer = httpx.get(f"{base}/api/games/{game_id}", headers={"Authorization": f"Bearer {token}"})
    return [seat["name"] for seat in answer.json()["seats"]]


async def your_turn(page: Page) -> None:
    """Your turn has begun (Draw may be pressed) and the page shows every event it has."""
    await expect(page.get_by_role("button", name="Draw a stone")).to_be_enabled(timeout=60_000)
    await page.wait_for_function(
        """() => {
            const table = document.querySelector('.table');
            const logged = document.querySelectorAll('.log li').length;
            return table && Number(table.dataset.version) === logged;
        }""",
        timeout=60_000,  # five AIs' turns on a busy machine: the page catches up, however late
    )


async def draw_and_end(page: Page) -> None:
    """Your turn as a person plays it most simply: draw (a joker's colour: red), end it."""
    await page.get_by_role("button", name="Draw a stone").click()
    await page.wait_for_function(
        """() => document.querySelector('.joker button:enabled')
            || [...document.querySelectorAll('.bazaar-actions button:enabled')]
                .some((b) => b.textContent === 'End turn')""",
        timeout=60_000,
    )
    choose = page.get_by_role("button", name="Choose red")
    end = page.get_by_role("button", name="End turn")
    if await choose.count():
        await choose.click()
    await expect(end).to_be_enabled()
    await end.click()
    await expect(end).to_be_disabled()


def last_draws(log: list[dict[str, Any]]) -> dict[int, str | None]:
    """Each seat's last stone from the bag: its colour (None: a joker's colour not yet chosen)."""
    found: dict[int, str | None] = {}
    for entry in log:
        event = entry["event"]
        if event["type"] == "drawn":
            found[event["seat"]] = None if event["face"] == "joker" else event["face"]
        elif event["type"] == "colour_chosen":
            found[event["seat"]] = event["stone"]
    return found


def since_mine(log: list[dict[str, Any]], seat: int) -> list[dict[str, Any]]:
    mine = [k for k, entry in enumerate(log) if entry["by"] == seat]
    return log[mine[-1] + 1 :] if mine else log


def carpet_changes(log: list[dict[str, Any]], seat: int) -> dict[int, dict[str, int]]:
    """What each carpet gained (+) and paid (-) by colour since `seat`'s last move."""
    changes: dict[int, dict[str, int]] = {}

    def add(who: int, stones: list[str], sign: int) -> None:
        change = changes.setdefault(who, dict.fromkeys(COLOURS, 0))
        for stone in stones:
            change[stone] += sign

    for entry in since_mine(log, seat):
        e = entry["event"]
        if e["type"] == "drawn" and e["face"] != "joker":
            add(e["seat"], [e["face"]], 1)
        elif e["type"] == "colour_chosen":
            add(e["seat"], [e["stone"]], 1)
        elif e["type"] == "traded":
            add(e["seat"], e["took"], 1)
            add(e["seat"], e["gave"], -1)
        elif e["type"] == "ware_bought":
            add(e["seat"], e["ware"]["stones"], -1)
    return {who: c for who, c in changes.items() if any(c.values())}


def change_words(change: dict[str, int]) -> str:
    gained = [f"+{change[c]} {c}" for c in COLOURS if change[c] > 0]
    lost = [f"−{-change[c]} {c}" for c in COLOURS if change[c] < 0]
    return ", ".join(gained + lost)
