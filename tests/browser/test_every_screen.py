"""Every screen of the client, at a laptop's size and a phone's, has no serious or critical
accessibility violation that axe-core finds and no sideways scroll: the lobby, logging in and
signing up, the account, a table being formed, a player's page and a title's leaderboard,
each game's table in play, a finished game, watching, a replay, each game's rules, a player
and a page that do not exist."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from conftest import Console, create_game, open_page, screenshot_path
from players_page import PASSWORD, new_name
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation

from tests.waiting import until_now

SIZES = [(1366, 768), (390, 844)]


def finished(base: str, game: str, seats: list[dict[str, str]], seed: int) -> str:
    created = create_game(base, seats, seed, game)
    until_now(lambda: httpx.get(f"{base}/api/games/{created['id']}").json()["status"] == "over")
    return str(created["id"])


async def checked(page: Page, name: str, width: int, tmp_path: Path) -> None:
    await page.wait_for_load_state("networkidle")
    assert await page.evaluate("document.documentElement.scrollWidth") <= width, name
    await page.screenshot(path=screenshot_path(f"screen-{name}-{width}.png", tmp_path))
    await no_serious_violation(page)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_every_screen_at_both_sizes(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    page = await open_page(browser, console, web, width, height)
    await expect(page.get_by_role("button", name="Create the game")).to_be_visible()
    await checked(page, "lobby", width, tmp_path)
    for path in ("login", "signup"):
        await page.goto(f"{web}/{path}")
        await expect(page.get_by_label("Password")).to_be_visible()
        await checked(page, path, width, tmp_path)

    # A player with an account: the account page and a table being formed.
    name = new_name("Axe")
    await page.get_by_label("Name").fill(name)
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign up").click()
    await page.wait_for_url(lambda url: "/signup" not in url)  # else the goto is interrupted
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")
    await page.goto(f"{web}/account")
    await expect(page.get_by_role("heading", level=1)).to_be_visible()
    await checked(page, "account", width, tmp_path)
    await page.goto(web)
    cookies = {c["name"]: c["value"] for c in await page.context.cookies(web)}
    async with httpx.AsyncClient(base_url=web, cookies=cookies, timeout=10) as me:
        me.headers["X-CSRFToken"] = cookies["csrftoken"]
        body = {"game": "bazaar", "seats": [{"type": "open"}, {"type": "open"}, {"type": "ai"}]}
        opened = await me.post("/api/tables", json=body)
        assert opened.status_code == 201, opened.text
    await page.goto(f"{web}/tables/{opened.json()['id']}")
    await expect(page.get_by_role("heading", level=1)).to_be_visible()
    await checked(page, "forming", width, tmp_path)
    await page.goto(f"{web}/players/{name}")
    await expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    await checked(page, "player", width, tmp_path)
    await page.goto(f"{web}/leaderboards/crazymino")
    await expect(page.get_by_role("heading", name="Crazymino leaderboard")).to_be_visible()
    await checked(page, "leaderboard", width, tmp_path)

    # Each game's table in play, at its largest table, a person among AIs.
    largest = {"crazymino": 4, "bazaar": 6, "mondo": 4}
    for game, count in largest.items():
        seats = [{"type": "human", "name": "Ann"}] + [{"type": "ai"}] * (count - 1)
        created = create_game(web, seats, 70, game)
        await page.goto(f"{web}/play/{created['id']}#t={created['seats'][0]['token']}")
        await expect(page.locator(".connection")).to_have_text("Live")
        await checked(page, f"play-{game}", width, tmp_path)
        await page.goto(f"{web}/watch/{created['id']}")
        await expect(page.locator(".connection")).to_have_text("Live")
        await checked(page, f"watch-{game}", width, tmp_path)
        await page.goto(f"{web}/rules/{game}")
        await expect(page.get_by_role("heading", level=1)).to_be_visible()
        await checked(page, f"rules-{game}", width, tmp_path)

    # A finished game: its end at the table, and its replay.
    over = finished(web, "crazymino", [{"type": "ai", "level": "easy"}, {"type": "ai"}], 71)
    await page.goto(f"{web}/watch/{over}")
    await expect(page.locator("#final")).to_be_visible()
    await checked(page, "ending", width, tmp_path)
    await page.goto(f"{web}/replay/{over}")
    await expect(page.locator("output")).to_be_visible()
    await checked(page, "replay", width, tmp_path)

    console.allow(r"status of 404")  # the unknown pages' own answers, which is the point
    await page.goto(f"{web}/players/{new_name('Nobody')}")
    await expect(page.get_by_role("heading", name="No such player")).to_be_visible()
    await expect(page.get_by_role("link", name="Back to the lobby")).to_have_attribute("href", "/")
    await checked(page, "no-player", width, tmp_path)
    await page.goto(f"{web}/nowhere")
    await expect(page.get_by_role("heading", level=1)).to_be_visible()
    await checked(page, "unknown", width, tmp_path)
