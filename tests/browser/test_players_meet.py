"""Two people meet in the browser, each in a browser of their own: both sign up, one opens a
table in the lobby (for a range of ratings), the other sees it appear live, each seated
player's rating beside their name, and joins with one click; the game starts
for both; they chat (a message is text, never markup; a name can be muted); they play to the
end (a move each through the page, the rest through each player's own session while the
pages follow) and both accept the rematch. And a player who logs in and joins a table with
the keyboard alone."""

from __future__ import annotations

import random
import re
from pathlib import Path
from typing import Any

import httpx
from conftest import Console, screenshot_path
from crazymino_page import fit_cell, log_size, my_turn, pick_fitting, wait_log_grows
from players_page import PASSWORD, new_name, session_of, sign_up
from playwright.async_api import Browser, Locator, Page, expect
from test_access import no_serious_violation

SEED = 7
SEED_WORDS = f"Seed {SEED} chosen by the creator: casual game"
PLAY = re.compile(r"/play/(\w+)$")
TABLE = re.compile(r"/tables/(\w+)$")
RANGE_HELP = (
    "Only players whose rating at this game is in the range may sit, you too if you sit; "
    "leave both empty for anyone. A new player's rating is 1000. "
    "Yours at Crazymino is 1000 (provisional)."
)


async def person(browser: Browser, console: Console, width: int, height: int) -> Page:
    context = await browser.new_context(viewport={"width": width, "height": height})
    return console.watch(await context.new_page())


async def shown_and_heard(where: Locator) -> list[str]:
    """The text as seen (without what only a screen reader hears) and as heard (without what
    is hidden from it)."""
    found: list[str] = await where.evaluate(
        """e => [".visually-hidden", "[aria-hidden=true]"].map(hidden => {
            const copy = e.cloneNode(true);
            copy.querySelectorAll(hidden).forEach(h => h.remove());
            return copy.textContent.replace(/\\s+/g, " ").trim();
        })"""
    )
    return found


def fits(page: Page, width: int) -> Any:
    return page.evaluate(f"document.documentElement.scrollWidth <= {width}")


async def move_in_the_page(page: Page, name: str) -> None:
    """`name` lays a tile that fits, by clicks, or draws and passes when none does."""
    await my_turn(page, name)
    before = await log_size(page)
    if await page.locator(".hand-tile.fits").count():
        await pick_fitting(page)
        row, col = await fit_cell(page)
        await page.locator(f'rect.hit[data-row="{row}"][data-col="{col}"]').click()
    else:
        await page.get_by_role("button", name="Draw a tile & pass").click()
    await wait_log_grows(page, before, name)


async def play_to_the_end(sessions: list[httpx.AsyncClient], game_id: str, seed: int) -> None:
    """Each player's session sends a legal command in turn, until the game is over."""
    rng = random.Random(seed)
    for _ in range(500):
        views = [(await s.get(f"/api/games/{game_id}")).json() for s in sessions]
        if views[0]["status"] == "over":
            return
        for session, view in zip(sessions, views, strict=True):
            if view["seat"] in view["to_act"]:
                command = {**rng.choice(view["legal"]), "expected_version": view["version"]}
                answer = await session.post(f"/api/games/{game_id}/commands", json=command)
                assert answer.status_code == 200, answer.text
    raise AssertionError("the game did not end")


async def test_two_players_meet_chat_play_to_the_end_and_play_again(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    ann, bob = await person(browser, console, 1366, 768), await person(browser, console, 390, 844)
    a_name, b_name = new_name("Ann"), new_name("Bob")
    await sign_up(ann, web, a_name)
    await sign_up(bob, web, b_name)
    await expect(bob.get_by_role("heading", name="Open tables")).to_be_visible()

    # Ann opens a Crazymino table for two, her seat and an open one, with a seed of her own,
    # for ratings between 900 and 1100 (hers, a newcomer's, is 1000 and provisional).
    await ann.get_by_text("More options").click()
    await ann.get_by_label("Seed (optional: the game is then casual)").fill(str(SEED))
    for label, value in (("Lowest rating", "900"), ("Highest rating", "1100")):
        await expect(ann.get_by_label(label)).to_have_accessible_description(RANGE_HELP)
        await ann.get_by_label(label).fill(value)
    await ann.get_by_role("button", name="Open the table").click()
    await expect(ann).to_have_url(TABLE)
    table_id = TABLE.search(ann.url).group(1)  # type: ignore[union-attr]
    await expect(ann.locator(".table-seats")).to_contain_text(a_name)
    await expect(ann.locator(".table-seats")).to_contain_text("free")
    await expect(ann.locator(".seed")).to_have_text(SEED_WORDS)
    await expect(ann.locator(".facts")).to_contain_text("for ratings between 900 and 1100")
    seat = ann.locator(".table-seats li").first
    assert await shown_and_heard(seat) == [
        f"{a_name} (1000?) (opened the table)",
        f"{a_name} (rating 1000, provisional) (opened the table)",
    ]

    # Bob sees it appear in the lobby, live, her rating beside her name, and joins with one
    # click.
    listing = bob.locator(".open-tables li", has_text=f"by {a_name}")
    await expect(listing).to_contain_text("1 free seat")
    await expect(listing.locator(".seed")).to_have_text(SEED_WORDS)
    await expect(listing.locator(".facts")).to_contain_text("for ratings between 900 and 1100")
    assert await shown_and_heard(listing.locator(".sitting")) == [
        f"{a_name} (1000?); 1 free seat",
        f"{a_name} (rating 1000, provisional); 1 free seat",
    ]
    await expect(bob.get_by_label("Lowest rating")).to_be_visible()
    assert await fits(bob, 390)
    await bob.screenshot(path=screenshot_path("lobby-390.png", tmp_path), full_page=True)
    await ann.goto(web)
    mine = ann.locator(".open-tables li", has_text=f"by {a_name}")
    await expect(mine.locator(".sitting")).to_contain_text(f"{a_name} (rating 1000?")
    await no_serious_violation(ann)
    await ann.screenshot(path=screenshot_path("lobby-1366.png", tmp_path), full_page=True)
    await ann.goto(f"{web}/tables/{table_id}")
    await listing.get_by_role("button", name=re.compile("^Join")).click()
    await expect(bob).to_have_url(f"{web}/tables/{table_id}")

    # Ann sees Bob sit, and starts: both land on the game, the session acting for their seat.
    await expect(ann.locator(".table-seats")).to_contain_text(b_name)
    assert (await shown_and_heard(ann.locator(".table-seats li").nth(1)))[0] == f"{b_name} (1000?)"
    await no_serious_violation(ann)
    await ann.screenshot(path=screenshot_path("table-page-1366.png", tmp_path), full_page=True)
    await bob.screenshot(path=screenshot_path("table-page-390.png", tmp_path), full_page=True)
    await ann.get_by_role("button", name="Start").click()
    await expect(ann).to_have_url(PLAY)
    await expect(bob).to_have_url(PLAY)
    game_id = PLAY.search(ann.url).group(1)  # type: ignore[union-attr]
    assert PLAY.search(bob.url).group(1) == game_id  # type: ignore[union-attr]
    await expect(ann.get_by_role("heading", name=f"Crazymino as {a_name}")).to_be_visible()
    await expect(bob.get_by_role("heading", name=f"Crazymino as {b_name}")).to_be_visible()
    await expect(ann.locator(".connection")).to_have_text("Live")
    await expect(bob.locator(".connection")).to_have_text("Live")
    await expect(bob.locator(".seed")).to_have_text(SEED_WORDS)

    # They chat: Bob reads Ann's message live, as the text she typed.
    await ann.get_by_role("textbox", name="Message").fill("<b>x</b> good luck")
    await ann.get_by_role("button", name="Send").click()
    said = bob.locator(".chat li", has_text="good luck")
    await expect(said).to_contain_text(f"{a_name}: <b>x</b> good luck")
    assert await bob.locator(".chat li b").count() == 0
    heard = bob.locator(".chat [aria-live=polite]")
    await expect(heard).to_have_text(f"{a_name} says: <b>x</b> good luck")
    await bob.get_by_role("textbox", name="Message").fill("thanks, you too")
    await bob.get_by_role("button", name="Send").click()
    await expect(ann.locator(".chat li", has_text="thanks, you too")).to_contain_text(b_name)
    await expect(ann.locator(".chat li")).to_have_count(2)

    # Bob mutes Ann on his screen: her messages are hidden there, and stay hidden after a reload.
    mute = bob.get_by_role("button", name=f"Mute {a_name}")
    await mute.click()
    await expect(mute).to_have_attribute("aria-pressed", "true")
    await expect(said).to_have_count(0)
    await expect(bob.locator(".chat")).to_contain_text("1 message of muted players hidden")
    await bob.reload()
    await expect(bob.locator(".chat li", has_text="thanks, you too")).to_be_visible()
    await expect(said).to_have_count(0)
    await bob.get_by_role("button", name=f"Mute {a_name}").click()
    await expect(said).to_be_visible()
    await no_serious_violation(ann)
    await ann.locator(".chat").screenshot(path=screenshot_path("chat-1366.png", tmp_path))
    await ann.screenshot(path=screenshot_path("game-1366.png", tmp_path), full_page=True)
    await bob.locator(".chat").scroll_into_view_if_needed()
    await bob.screenshot(path=screenshot_path("game-390.png", tmp_path), full_page=True)
    assert await fits(bob, 390)

    # A move each through the page, then the rest through each one's own session.
    async with (
        await session_of(ann.context, web) as a_session,
        await session_of(bob.context, web) as b_session,
    ):
        turn = (await a_session.get(f"/api/games/{game_id}")).json()
        first = [ann, bob][0 if turn["seat"] in turn["to_act"] else 1]
        second = bob if first is ann else ann
        await move_in_the_page(first, a_name if first is ann else b_name)
        await move_in_the_page(second, a_name if second is ann else b_name)
        await play_to_the_end([a_session, b_session], game_id, SEED)
    for page in (ann, bob):
        await expect(page.get_by_role("heading", name="The game is over")).to_be_visible()

    # Ann asks to play again; Bob is told, goes to the rematch's table and accepts.
    await ann.get_by_role("button", name="Play again").click()
    await expect(ann).to_have_url(TABLE)
    rematch = TABLE.search(ann.url).group(1)  # type: ignore[union-attr]
    await expect(ann.locator(".rematch")).to_contain_text("A rematch of")
    await expect(ann.locator(".table-seats")).to_contain_text(f"kept for {b_name}")
    offered = bob.get_by_role("link", name="its table")
    await offered.click()
    await expect(bob).to_have_url(f"{web}/tables/{rematch}")
    await expect(bob.get_by_role("button", name="Decline")).to_be_visible()
    await bob.get_by_role("button", name="Accept").click()
    await expect(bob).to_have_url(PLAY)
    await expect(ann).to_have_url(PLAY)
    again = PLAY.search(bob.url).group(1)  # type: ignore[union-attr]
    assert again != game_id and PLAY.search(ann.url).group(1) == again  # type: ignore[union-attr]
    await expect(bob.get_by_role("heading", name=f"Crazymino as {b_name}")).to_be_visible()
    await expect(ann.get_by_role("heading", name=f"Crazymino as {a_name}")).to_be_visible()

    # Both find it in "My games", Bob's or Ann's turn first.
    await ann.goto(web)
    await expect(ann.locator(".my-games li").first).to_contain_text("Crazymino")
    await expect(ann.locator(f'.my-games a[href="/play/{again}"]')).to_be_visible()


async def press_until(page: Page, test: str, arg: Any = None, most: int = 80) -> None:
    """Tab on until `test` (a function of the focused element) holds, as a keyboard user."""
    for _ in range(most):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"arg => ({test})(document.activeElement, arg)", arg):
            return
    raise AssertionError(f"the keyboard never reached {test}")


async def test_the_keyboard_alone_logs_in_and_joins_a_table(
    browser: Browser, console: Console, web: str
) -> None:
    host, guest = new_name("Dan"), new_name("Eve")
    async with (
        httpx.AsyncClient(base_url=web, timeout=10) as dan,
        httpx.AsyncClient(base_url=web, timeout=10) as eve,
    ):
        for client, name in ((dan, host), (eve, guest)):
            await client.get("/api/games/types")
            client.headers["X-CSRFToken"] = client.cookies["csrftoken"]
            body = {"name": name, "password": PASSWORD}
            assert (await client.post("/api/accounts", json=body)).status_code == 201
        body = {"game": "crazymino", "seats": [{"type": "open"}, {"type": "open"}]}
        opened = await dan.post("/api/tables", json=body)
        assert opened.status_code == 201, opened.text
        table_id = opened.json()["id"]

    page = await person(browser, console, 1366, 768)
    await page.goto(f"{web}/login")
    await press_until(page, "e => e.name === 'name'")
    await page.keyboard.type(guest)
    await page.keyboard.press("Tab")
    await page.keyboard.type(PASSWORD)
    await page.keyboard.press("Enter")
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {guest}")
    await expect(page.locator(".open-tables li", has_text=f"by {host}")).to_be_visible()
    join = "(e, host) => e.textContent === 'Join' && e.closest('li').textContent.includes(host)"
    await press_until(page, join, f"by {host}")
    outline = await page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert outline != "none", "the focused button shows its focus"
    await page.keyboard.press("Enter")
    await expect(page).to_have_url(f"{web}/tables/{table_id}")
    await expect(page.locator(".table-seats")).to_contain_text(guest)
    await expect(page.get_by_role("button", name="Leave")).to_be_visible()
