"""Players are remembered, in the browser: two accounts play rated games against each other
(opened, joined, started and played through each one's own session), and see it. At the first
game's end the table shows each player's rating change beside the ranking, as the API records
it, each name linking to its page; after the second, each player's page (reached by their name
in the header) shows their rating, provisional with a "?", a chart of 2 points and both games
with their results and changes; once they have played ten, the leaderboard lists both, and
their pages give their places. Each page at a laptop's size and a phone's, with no serious
accessibility violation and no sideways scroll."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
from conftest import Console, no_sideways_scroll, screenshot_path
from players_page import new_name, session_of, sign_up
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation
from test_players_meet import person, play_to_the_end, press_until

from tests.waiting import until

RATED = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "open"}], "rated": True}
SETTLED = 10  # rated games before a rating is no longer provisional


async def opened(host: httpx.AsyncClient, guest: httpx.AsyncClient) -> str:
    """A rated Crazymino table for two: the host sits, the guest joins, the host starts."""
    table = await host.post("/api/tables", json=RATED)
    assert table.status_code == 201 and table.json()["rated"], table.text
    table_id = table.json()["id"]
    assert (await guest.post(f"/api/tables/{table_id}/join", json={})).status_code == 200
    started = await host.post(f"/api/tables/{table_id}/start")
    assert started.status_code == 200, started.text
    return str(started.json()["game_id"])


async def recorded(client: httpx.AsyncClient, game_id: str) -> dict[str, Any]:
    """The game's result once the worker has recorded it."""

    async def result() -> dict[str, Any] | None:
        found: dict[str, Any] = (await client.get(f"/api/games/{game_id}/result")).json()
        return found if found["recorded"] else None

    return await until(result)


def ordinal(n: int) -> str:
    """1st, 2nd, 3rd, 4th, 11th, 21st."""
    suffix = "th" if 11 <= n % 100 <= 13 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def change_words(change: int) -> str:
    """A rating change as the page writes it: "rating +12", "rating −8", "rating ±0"."""
    return f"rating {f'+{change}' if change > 0 else f'−{-change}' if change < 0 else '±0'}"


async def the_end_shows_the_changes(page: Page, result: dict[str, Any]) -> None:
    await expect(page.get_by_role("heading", name="The game is over")).to_be_visible()
    for seat in result["seats"]:
        line = page.locator(".ranking li", has_text=seat["name"])
        await expect(line.locator(".rating-change")).to_contain_text(change_words(seat["change"]))
        link = line.get_by_role("link", name=seat["name"])
        await expect(link).to_have_attribute("href", f"/players/{seat['name']}")


async def the_page_shows(page: Page, name: str, player: dict[str, Any], results: list[Any]) -> None:
    """`name`'s page says what the API says of them: the rating, its chart, the last games."""
    (crazymino,) = player["titles"]
    await expect(page.get_by_role("heading", name=name, exact=True)).to_be_visible()
    record = page.locator(".title-record", has=page.get_by_role("heading", name="Crazymino"))
    rating = str(crazymino["rating"]) + ("?" if crazymino["provisional"] else "")
    await expect(record.locator(".stats .rating")).to_have_text(rating)
    points = record.locator(".rating-chart circle.point")
    await expect(points).to_have_count(len(crazymino["chart"]))
    games = page.locator(".history li")
    await expect(games).to_have_count(len(results))
    for k, result in enumerate(results):  # newest first
        line = games.nth(k)
        mine = next(s for s in result["seats"] if s["player"] == name.lower())
        await expect(line.locator("a.game")).to_have_attribute("href", f"/replay/{result['id']}")
        await expect(line.locator(".rating-change")).to_contain_text(change_words(mine["change"]))
        await expect(line.locator(".score")).to_have_text(f"{mine['score']} points")


async def test_two_players_see_their_ratings_move(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    ann, bob = await person(browser, console, 1366, 768), await person(browser, console, 390, 844)
    a_name, b_name = new_name("Ann"), new_name("Bob")
    await sign_up(ann, web, a_name)
    await sign_up(bob, web, b_name)
    async with (
        await session_of(ann.context, web) as a_session,
        await session_of(bob.context, web) as b_session,
    ):
        # The first game: Ann follows it at her table, and sees its end with the changes.
        first = await opened(a_session, b_session)
        await ann.goto(f"{web}/play/{first}")
        await expect(ann.locator(".connection")).to_have_text("Live")
        # Leaving a rated game is said to count as a loss; she stays.
        await ann.get_by_role("button", name="Leave or resign").click()
        leave = ann.get_by_role("group", name="Leave or resign?")
        await expect(leave).to_contain_text("This game is rated: if you are not back at its end,")
        await leave.get_by_role("button", name="Stay").click()
        await play_to_the_end([a_session, b_session], first, 1)
        result = await recorded(a_session, first)
        assert result["rated"] and {s["player"] for s in result["seats"]} == {
            a_name.lower(),
            b_name.lower(),
        }
        await the_end_shows_the_changes(ann, result)
        # Why a new player's rating moves far is said beside the changes.
        await expect(ann.locator(".why-ratings")).to_contain_text("first 10 rated games")
        await no_serious_violation(ann)
        await ann.locator(".ending").screenshot(path=screenshot_path("ending-rated.png", tmp_path))

        # The second: both pages show both games, the chart two points.
        second = await opened(b_session, a_session)
        await play_to_the_end([a_session, b_session], second, 2)
        again = await recorded(b_session, second)
        for page, name in ((ann, a_name), (bob, b_name)):
            await page.goto(web)
            await page.get_by_role("link", name=f"{name}: your page").click()
            await expect(page).to_have_url(f"{web}/players/{name}")
            shown = (await a_session.get(f"/api/players/{name}")).json()
            assert [p["game_id"] for p in shown["titles"][0]["chart"]] == [first, second]
            await the_page_shows(page, name, shown, [again, result])
            await expect(page.locator(".stats .provisional")).to_contain_text("provisional")
            await expect(page.locator(".stats .provisional")).to_contain_text(
                f"2 of the first {SETTLED} rated games"
            )
        await no_serious_violation(ann)
        await no_sideways_scroll(bob, 390)

        # Each opponent's name leads to their page; the keyboard reaches a game's replay.
        await bob.locator(".history li").first.get_by_role("link", name=a_name).click()
        await expect(bob).to_have_url(f"{web}/players/{a_name}")
        await expect(bob.get_by_role("heading", name=a_name, exact=True)).to_be_visible()
        await ann.reload()
        await expect(ann.locator(".history li")).to_have_count(2)
        await press_until(ann, "(e, href) => e.getAttribute('href') === href", f"/replay/{second}")
        await ann.keyboard.press("Enter")
        await expect(ann).to_have_url(f"{web}/replay/{second}")

        # Ten rated games each: both are on the leaderboard, and their pages say where.
        for n in range(3, SETTLED + 1):
            await play_to_the_end([a_session, b_session], await opened(a_session, b_session), n)

        async def both_listed() -> dict[str, Any] | None:
            board: dict[str, Any] = (await a_session.get("/api/leaderboards/crazymino")).json()
            listed = {p["name"] for p in board["players"]}
            return board if {a_name, b_name} <= listed else None

        board = await until(both_listed)
        listed = {p["name"]: p for p in board["players"] if p["name"] in (a_name, b_name)}
        for page, name, width in ((ann, a_name, 1366), (bob, b_name, 390)):
            await page.goto(web)
            header = page.get_by_role("banner")
            await header.get_by_role("link", name="Leaderboard of Crazymino").click()
            await expect(page).to_have_url(f"{web}/leaderboards/crazymino")
            await expect(page.get_by_role("heading", name="Crazymino leaderboard")).to_be_visible()
            for who, line in listed.items():
                link = page.get_by_role("link", name=who, exact=True)
                row = page.locator(".leaders li", has=link)
                await expect(row).to_have_attribute("value", str(line["place"]))
                await expect(row.locator(".leader-rating")).to_contain_text(str(line["rating"]))
                await expect(row.locator(".leader-games")).to_contain_text(str(line["games"]))
            await expect(page.locator(".leaders li.you")).to_contain_text(f"{name} (you)")
            # The AI levels' own figures, apart from the players' list, as the API gives them.
            levels = page.locator(".ai-levels li")
            await expect(levels).to_have_text(
                [f"{a['level']}: {a['rating']} ({a['games']} games)" for a in board["ai_levels"]]
            )
            assert [a["level"] for a in board["ai_levels"]] == ["easy", "normal", "hard"]
            await no_sideways_scroll(page, width)
            await no_serious_violation(page)
            await page.screenshot(
                path=screenshot_path(f"leaderboard-{width}.png", tmp_path), full_page=True
            )
            await page.locator(".leaders").get_by_role("link", name=name, exact=True).click()
            await expect(page).to_have_url(f"{web}/players/{name}")
            record = page.locator(".title-record")
            await expect(record.locator(".stats .rating")).to_have_text(str(listed[name]["rating"]))
            await expect(record.locator(".stats .provisional")).to_have_count(0)
            place = ordinal(listed[name]["place"])
            await expect(record.get_by_role("link", name=place, exact=True)).to_have_attribute(
                "href", "/leaderboards/crazymino"
            )
            await expect(record.locator(".rating-chart circle.point")).to_have_count(SETTLED)
            await no_sideways_scroll(page, width)
            await no_serious_violation(page)
            await page.screenshot(
                path=screenshot_path(f"player-{width}.png", tmp_path), full_page=True
            )
