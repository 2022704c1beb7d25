"""How a game ends for a seat, in the browser (`docs/rules/table.md`): a player who left is never
named the winner and the end says why they count last; a timeout plays the least move and the
table says "Bob's time ran out" by the seat and aloud; every title has Resign, asked first; a
seat whose turn has lasted a minute can be called, and its move answers the call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import Console, open_page, screenshot_path
from playwright.async_api import Browser, Page, expect

SIZES = [(1366, 768), (390, 844)]
TITLES = ["crazymino", "bazaar", "mondo"]


def create(base: str, game: str, seats: list[dict[str, Any]], **options: Any) -> dict[str, Any]:
    body = {"game": game, "seats": seats, "options": options}
    answer = httpx.post(f"{base}/api/games", json=body)
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created


def send(base: str, game: str, token: str, command: dict[str, Any]) -> httpx.Response:
    headers = {"Authorization": f"Bearer {token}"}
    return httpx.post(f"{base}/api/games/{game}/commands", json=command, headers=headers)


def view_of(base: str, game: str, token: str) -> dict[str, Any]:
    answer = httpx.get(f"{base}/api/games/{game}", headers={"Authorization": f"Bearer {token}"})
    found: dict[str, Any] = answer.json()
    return found


async def confirm(page: Page, button: str, question: str, words: str, yes: str) -> None:
    """Press `button`, read the question's `words`, and answer `yes`, all with the keyboard."""
    await page.get_by_role("button", name=button, exact=True).focus()
    await page.keyboard.press("Enter")
    asked = page.get_by_role("group", name=question)
    await expect(asked).to_contain_text(words)
    await asked.get_by_role("button", name=yes).focus()
    await page.keyboard.press("Enter")


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_player_who_left_is_never_named_the_winner(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    created = create(web, "crazymino", [*people, {"type": "ai", "name": "Cy", "level": "easy"}])
    game, ann, bob = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={ann}", width, height)
    asked = "Leave or resign?"
    await confirm(page, "Leave or resign", asked, "until you take it back", "Leave table")
    await expect(page.locator(".players li").nth(0)).to_contain_text("left: the normal AI plays")
    # Bob resigns: the AI plays his seat on for the others, and AIs play the game to its end.
    assert send(web, game, bob, {"type": "resign"}).status_code == 200
    ending = page.get_by_role("heading", name="The game is over")
    await expect(ending).to_contain_text("Cy wins with", timeout=60_000)
    final = view_of(web, game, ann)
    assert final["standings"][0]["seat"] == 2
    ranking = page.locator(".ranking li")
    await expect(ranking.filter(has_text="Ann")).to_contain_text("left the table; the AI played")
    await expect(ranking.filter(has_text="Bob")).to_contain_text("resigned; the AI played on")
    await page.screenshot(path=screenshot_path(f"leaver-{width}.png", tmp_path), full_page=True)


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_timeout_plays_the_least_move_and_the_table_says_so(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    created = create(web, "crazymino", people, turn_seconds=5)
    game, ann = created["id"], created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={ann}", width, height)
    (late,) = view_of(web, game, ann)["to_act"]
    name = ["Ann", "Bob"][late]
    mark = page.locator(".players li").nth(late).locator(".timed-out")
    expected = "Your time ran out" if late == 0 else "Bob's time ran out"
    await expect(mark).to_have_text(expected, timeout=30_000)
    await expect(page.locator("[data-live=table]")).to_contain_text(f"{name}'s time ran out")
    after = view_of(web, game, ann)
    assert after["scores"] == [0, 0]  # the least move: a draw and a pass, no tile laid
    assert late not in after["to_act"]
    await page.screenshot(path=screenshot_path(f"timeout-{width}.png", tmp_path))


@pytest.mark.parametrize(("width", "height"), SIZES)
@pytest.mark.parametrize("title", TITLES)
async def test_every_title_has_resign_asked_first(
    browser: Browser,
    console: Console,
    web: str,
    tmp_path: Path,
    title: str,
    width: int,
    height: int,
) -> None:
    seats = [{"type": "human", "name": "Ann"}, {"type": "ai", "name": "Cy", "level": "easy"}]
    created = create(web, title, seats)
    game, ann = created["id"], created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={ann}", width, height)
    # Asked first: "Stay" keeps the game as it was.
    await confirm(page, "Leave or resign", "Leave or resign?", "the game ends now", "Stay")
    assert view_of(web, game, ann)["status"] == "active"
    await confirm(page, "Leave or resign", "Leave or resign?", "you are ranked last", "Resign")
    await expect(page.get_by_role("heading", name="The game is over")).to_contain_text("Cy wins")
    await expect(page.locator(".ranking li").filter(has_text="Ann")).to_contain_text(
        "resigned; counts last"
    )
    await page.screenshot(path=screenshot_path(f"resign-{title}-{width}.png", tmp_path))


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_seat_whose_turn_lasts_a_minute_can_be_called_and_its_move_answers(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    people = [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}]
    created = create(web, "bazaar", people)
    game, ann, bob = created["id"], created["seats"][0]["token"], created["seats"][1]["token"]
    if view_of(web, game, ann)["to_act"] == [0]:  # Ann plays her turn: then it is Bob's
        for command in ({"type": "draw"}, {"type": "choose_colour", "colour": "red"}):
            send(web, game, ann, command)
        send(web, game, ann, {"type": "end_turn"})
    assert view_of(web, game, ann)["to_act"] == [1]
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = console.watch(await context.new_page())
    await page.clock.install()
    await page.goto(f"{web}/play/{game}#t={ann}")
    await expect(page.locator(".players li").nth(1)).to_contain_text("to play")
    call = page.get_by_role("button", name="Call Bob")
    await expect(call).to_have_count(0)  # Bob may be thinking: no call offered yet
    await page.clock.fast_forward("01:01")
    await call.focus()
    await page.keyboard.press("Enter")
    await expect(page.get_by_role("timer", name="Call")).to_contain_text("Ann called Bob")
    await page.screenshot(path=screenshot_path(f"call-{width}.png", tmp_path))
    assert send(web, game, bob, {"type": "draw"}).status_code == 200
    await expect(page.get_by_role("timer", name="Call")).to_have_count(0)
    await expect(page.locator(".log")).to_contain_text("Bob answered the call.")
