"""What people hit at the table, walked in the browser at a wide screen and a phone: Back and
Forward walk the pages a player visited around a table that starts (never sent into the game
again by Back), a table that is not there says so under a heading; an invitation says who
invites; the new table's form keeps its rare options folded and its button a few Tabs away;
chat said below the fold shows at the top and in the tab's title until it is seen; a replay
steps with the arrow keys wherever the focus is, and shows no keys for laying tiles; the
phone's lobby breaks no word."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
import pytest
from conftest import Console, create_game, open_page, screenshot_path
from players_page import new_name, session_of, sign_up
from playwright.async_api import Browser, Page, expect
from test_players_meet import person

SIZES = [(1366, 768), (390, 844)]
PLAY = re.compile(r"/play/(\w+)$")


async def opened_by(page: Page, base: str, seats: list[dict[str, str]]) -> str:
    """The player of `page` opens a Crazymino table (sitting in seat 1) through the API."""
    session = await session_of(page.context, base)
    async with session:
        body = {"game": "crazymino", "seats": [{"type": "open"}, *seats], "sit": True}
        answer = await session.post("/api/tables", json=body)
    assert answer.status_code == 201, answer.text
    table_id: str = answer.json()["id"]
    return table_id


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_back_and_forward_walk_the_pages_a_player_visited_around_a_table_that_starts(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    ann, bob = (
        await person(browser, console, width, height),
        await person(browser, console, width, height),
    )
    a_name, b_name = new_name("Ann"), new_name("Bob")
    await sign_up(ann, web, a_name)
    await sign_up(bob, web, b_name)
    table_id = await opened_by(ann, web, [{"type": "open"}])
    table = f"{web}/tables/{table_id}"

    # Both come to the table from the lobby; Bob sits, Ann starts: both are in the game.
    for page in (ann, bob):
        await page.goto(web)
        await page.locator(f'.open-tables a[href="/tables/{table_id}"]').click()
        await expect(page).to_have_url(table)
    await bob.get_by_role("button", name="Join").click()
    await expect(ann.locator(".table-seats")).to_contain_text(b_name)
    await ann.get_by_role("button", name="Start").click()
    await expect(ann).to_have_url(PLAY)
    await expect(bob).to_have_url(PLAY)
    game = ann.url

    # Ann goes to the lobby; Back and Forward walk lobby, game, lobby, never the table again.
    await ann.get_by_role("link", name="Lobby", exact=True).click()
    await expect(ann).to_have_url(f"{web}/")
    for step, where in (
        (ann.go_back, game),
        (ann.go_back, f"{web}/"),
        (ann.go_forward, game),
        (ann.go_forward, f"{web}/"),
    ):
        await step()
        await expect(ann).to_have_url(where)
        await expect(ann.locator("main h1")).to_be_visible()
    # Bob, moved on by the start, goes Back to the lobby he came from, and Forward to the game.
    await bob.go_back()
    await expect(bob).to_have_url(f"{web}/")
    await expect(bob.get_by_role("heading", name="Open tables")).to_be_visible()
    await bob.go_forward()
    await expect(bob).to_have_url(game)

    # The started table's page, opened again, offers the game; Back from the game comes back
    # to it and stays; Back again goes on to the lobby, and Forward walks it all again.
    await ann.goto(table)
    go = ann.get_by_role("link", name="Go to the game")
    await expect(go).to_be_visible()
    await ann.screenshot(path=screenshot_path(f"walks-started-table-{width}.png", tmp_path))
    await go.click()
    await expect(ann).to_have_url(game)
    await ann.go_back()
    await expect(ann).to_have_url(table)
    await expect(go).to_be_visible()
    await ann.go_back()
    await expect(ann).to_have_url(f"{web}/")
    await ann.go_forward()
    await expect(go).to_be_visible()
    await ann.go_forward()
    await expect(ann).to_have_url(game)
    await expect(ann.locator("main h1")).to_contain_text(f"as {a_name}")

    # A table that is not there says so under a heading.
    console.allow(r"status of 404")
    await ann.goto(f"{web}/tables/nosuchtable")
    await expect(ann.get_by_role("heading", level=1, name="Table not found")).to_be_visible()
    await expect(ann.get_by_role("alert")).not_to_be_empty()
    await ann.screenshot(path=screenshot_path(f"walks-no-table-{width}.png", tmp_path))


async def tabs_between(page: Page, start: str, end: str, limit: int = 60) -> int:
    """How many Tab presses take the focus from the element `start` to the element `end`."""
    await page.locator(start).first.focus()
    for presses in range(1, limit + 1):
        await page.keyboard.press("Tab")
        if await page.evaluate(f"document.activeElement.matches({end!r})"):
            return presses
    raise AssertionError(f"{limit} Tabs did not reach {end}")


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_an_invitation_says_who_invites_and_the_new_table_form_keeps_rare_options_folded(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    ann, bob = (
        await person(browser, console, width, height),
        await person(browser, console, width, height),
    )
    a_name, b_name = new_name("Ann"), new_name("Bob")
    await sign_up(ann, web, a_name)
    await sign_up(bob, web, b_name)
    table_id = await opened_by(ann, web, [{"type": "player", "name": b_name}])

    # Bob, whose seat is kept, reads who invites him in the lobby and on the table's page.
    invited = f"{a_name} invites you to a game of Crazymino."
    await bob.goto(web)
    listing = bob.locator(".open-tables li", has_text=f"by {a_name}")
    await expect(listing.get_by_text(invited)).to_be_visible()
    await bob.screenshot(
        path=screenshot_path(f"walks-invited-lobby-{width}.png", tmp_path), full_page=True
    )
    await listing.get_by_role("link", name="Crazymino").click()
    await expect(bob).to_have_url(f"{web}/tables/{table_id}")
    await expect(bob.get_by_text(invited)).to_be_visible()
    await expect(bob.get_by_role("button", name="Accept")).to_be_visible()
    # Ann, who invites, is not told she invites herself.
    await ann.goto(f"{web}/tables/{table_id}")
    await expect(ann.get_by_role("button", name="Start")).to_be_visible()
    await expect(ann.get_by_text("invites you")).to_have_count(0)

    # The form that opens a table: the seed is among the options folded away, and the
    # button that opens the table is a few Tabs from the form's first field.
    await ann.goto(web)
    form = ann.locator("form.new-table")
    seed = ann.get_by_label("Seed (optional: the game is then casual)")
    await expect(form.get_by_role("button", name="Open the table")).to_be_visible()
    await expect(seed).to_be_hidden()
    assert await tabs_between(ann, "form.new-table select", "form.new-table [type=submit]") <= 15
    await form.get_by_text("More options").click()
    await expect(seed).to_be_visible()
    await ann.screenshot(
        path=screenshot_path(f"walks-new-table-{width}.png", tmp_path), full_page=True
    )


#: The words of the cells that `selector` finds which the page breaks over two lines.
BROKEN_WORDS = """selector => {
    const broken = [];
    for (const cell of document.querySelectorAll(selector)) {
        const texts = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = texts.nextNode(); node; node = texts.nextNode()) {
            for (const word of node.data.matchAll(/\\S+/g)) {
                const range = document.createRange();
                range.setStart(node, word.index);
                range.setEnd(node, word.index + word[0].length);
                const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0)
                    .map((r) => Math.round(r.top)));
                if (lines.size > 1) broken.push(word[0]);
            }
        }
    }
    return broken;
}"""


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_replay_steps_with_arrows_anywhere_shows_no_keys_to_lay_tiles_and_no_word_breaks(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    created = create_game(web, [{"type": "ai", "name": "Crazymino AI"}, {"type": "ai"}], 11)
    for _ in range(3):
        create_game(web, [{"type": "ai"}, {"type": "ai"}], 12)

    # The lobby's list of games breaks no word, whatever the screen.
    page = await open_page(browser, console, web, width, height)
    await expect(page.locator("table.games td").first).to_have_text("Crazymino")
    assert await page.evaluate(BROKEN_WORDS, "table.games th, table.games td") == []
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    await page.locator("table.games").screenshot(
        path=screenshot_path(f"walks-games-{width}.png", tmp_path)
    )

    # A watcher is shown no keys for laying tiles.
    await page.goto(f"{web}/watch/{created['id']}")
    await expect(page.get_by_role("heading", name="Crazymino (watching)")).to_be_visible()
    await expect(page.get_by_text("Enter lays the selected tile")).to_have_count(0)
    board = page.locator(".crazymino .board")
    await expect(board).to_have_attribute("aria-label", re.compile(r"move over the board\.$"))

    # The replay steps with Left and Right, Home and End, wherever the focus is (but for the
    # slider, which steps by itself, once a key); it shows no keys for laying tiles either.
    await page.goto(f"{web}/replay/{created['id']}")
    step = page.locator(".steps output")
    await expect(step).to_have_text(re.compile(r"^Event (\d+) of \1$"))
    version = int((await step.inner_text()).split()[-1])
    assert version >= 4
    await expect(page.get_by_text("Enter lays the selected tile")).to_have_count(0)
    for key, shown in (("Home", 1), ("ArrowRight", 2), ("ArrowRight", 3), ("ArrowLeft", 2)):
        await page.keyboard.press(key)
        await expect(step).to_have_text(f"Event {shown} of {version}")
    await page.get_by_role("button", name="First").focus()
    await page.keyboard.press("End")
    await expect(step).to_have_text(f"Event {version} of {version}")
    await page.get_by_role("slider", name="Step").focus()
    await page.keyboard.press("ArrowLeft")
    await expect(step).to_have_text(f"Event {version - 1} of {version}")
    await page.screenshot(path=screenshot_path(f"walks-replay-{width}.png", tmp_path))


async def say(base: str, game_id: str, token: str, text: str) -> None:
    answer = httpx.post(
        f"{base}/api/games/{game_id}/chat",
        json={"text": text},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.status_code in (200, 201, 204), answer.text


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_chat_said_below_the_fold_shows_at_the_top_and_in_the_title_until_it_is_seen(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    created = create_game(
        web, [{"type": "human", "name": "Ann"}, {"type": "human", "name": "Bob"}], 3
    )
    ann_token, bob_token = (s["token"] for s in created["seats"])
    game = created["id"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={ann_token}", width, height)
    await expect(page.locator(".connection")).to_have_text("Live")
    said = page.get_by_role("list", name="What was said, oldest first")

    # Bob says two things: the count shows at the top of the table and in the tab's title.
    unread = page.get_by_role("button", name=re.compile("unread"))
    await say(web, game, bob_token, "hello")
    await expect(unread).to_have_text("1 unread message in the chat")
    await expect(said).not_to_be_in_viewport(ratio=0.5)  # below the fold
    await expect(page).to_have_title(re.compile(r"^\(1 message\) Crazymino · "))
    await say(web, game, bob_token, "are you there?")
    await expect(unread).to_have_text("2 unread messages in the chat")
    await expect(page).to_have_title(re.compile(r"^\(2 messages\) Crazymino · "))
    await expect(page.locator(".unread-chat")).to_have_attribute("role", "status")
    assert (
        await unread.is_visible() and (await unread.bounding_box() or {"y": height})["y"] < height
    )
    await page.screenshot(path=screenshot_path(f"walks-unread-chat-{width}.png", tmp_path))

    # The button brings the chat into view and the focus into it: the messages are read.
    await unread.click()
    await expect(said).to_be_focused()
    await expect(said).to_be_in_viewport(ratio=0.5)
    await expect(unread).to_have_count(0)
    await expect(page).to_have_title(re.compile(r"^Crazymino · "))

    # Said while the chat is out of view, read once it is scrolled into view.
    await page.evaluate("document.activeElement.blur(); window.scrollTo(0, 0)")
    await expect(said).not_to_be_in_viewport(ratio=0.5)
    await say(web, game, bob_token, "third")
    await expect(unread).to_have_text("1 unread message in the chat")
    await said.scroll_into_view_if_needed()
    await expect(unread).to_have_count(0)
    await expect(page).to_have_title(re.compile(r"^Crazymino · "))
