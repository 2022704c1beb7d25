"""The new table's form decides nothing about ratings: a player asks for a rated table with an
AI seat, and the table's page says "casual", as the API's view of the table does."""

from __future__ import annotations

import re

from conftest import Console
from players_page import new_name, session_of, sign_up
from playwright.async_api import Browser, expect
from test_players_meet import person

TABLE = re.compile(r"/tables/(\w+)$")


async def test_a_table_asked_rated_with_an_ai_seat_says_casual_as_the_api_does(
    browser: Browser, console: Console, web: str
) -> None:
    ann = await person(browser, console, 1366, 768)
    name = new_name("Ann")
    await sign_up(ann, web, name)
    form = ann.locator("form.new-table")
    await form.get_by_label("Seat 2").select_option("ai")
    rated = form.get_by_role("checkbox", name="Rated")
    await rated.check()
    await expect(rated).to_be_checked()
    await form.get_by_role("button", name="Open the table").click()
    await expect(ann).to_have_url(TABLE)
    table_id = TABLE.search(ann.url).group(1)  # type: ignore[union-attr]
    await expect(ann.locator(".facts")).to_contain_text("casual")
    session = await session_of(ann.context, web)
    async with session:
        view = (await session.get(f"/api/tables/{table_id}")).json()
    assert view["casual"] and not view["rated"]
