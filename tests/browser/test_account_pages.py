"""A player's account in the browser: signing up (a refusal read out in the API's words),
logging out and in, changing the password, and personal tokens (shown once, listed with
when they were made and last used, revoked); the pages at a laptop's and a phone's width."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from conftest import Console, open_page, screenshot_path
from players_page import PASSWORD, log_in, new_name, sign_up
from playwright.async_api import Browser, expect
from test_access import no_serious_violation


async def test_sign_up_log_out_and_log_in_again(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    console.allow(r"status of (401|409)")  # the refusals this test asks for
    taken, name = new_name("Ann"), new_name("Ann")
    async with httpx.AsyncClient(base_url=web, timeout=10) as other:
        await other.get("/api/games/types")
        csrf = {"X-CSRFToken": other.cookies["csrftoken"]}
        body = {"name": taken, "password": PASSWORD}
        assert (await other.post("/api/accounts", json=body, headers=csrf)).status_code == 201
    page = await open_page(browser, console, f"{web}/signup")
    await page.get_by_label("Name").fill(taken.lower())
    await page.get_by_label("Password").fill("short")
    await page.get_by_role("button", name="Sign up").click()
    assert await page.get_by_label("Password").evaluate("input => input.validity.tooShort")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Sign up").click()
    await expect(page.get_by_role("alert")).to_have_text("That name is taken: choose another.")
    await no_serious_violation(page)
    await page.get_by_label("Name").fill(name)
    await page.get_by_role("button", name="Sign up").click()
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")
    await expect(page.get_by_role("heading", name="New table")).to_be_visible()

    await page.get_by_role("button", name="Log out").click()
    header = page.get_by_role("banner")
    await expect(header.get_by_role("link", name="Log in")).to_be_visible()
    await expect(page.get_by_role("heading", name="New table")).to_have_count(0)

    await header.get_by_role("link", name="Log in").click()
    await page.get_by_label("Name").fill(name.upper())
    await page.get_by_label("Password").fill("not the password")
    await page.get_by_role("button", name="Log in").click()
    await expect(page.get_by_role("alert")).to_contain_text("do not match an account")
    await page.get_by_label("Password").fill(PASSWORD)
    await page.get_by_role("button", name="Log in").click()
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")
    await page.screenshot(path=screenshot_path("lobby-logged-in.png", tmp_path), full_page=True)


async def test_a_personal_token_is_shown_once_works_and_is_revoked(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    name = new_name("Bea")
    page = await open_page(browser, console, web, 1366, 768)
    await sign_up(page, web, name)
    await page.get_by_role("link", name="Account").click()
    await expect(page.get_by_role("heading", name=f"Your account: {name}")).to_be_visible()
    await expect(page.get_by_text("No personal token.")).to_be_visible()

    await page.get_by_label("Label").fill("my bot")
    await page.get_by_role("button", name="Make a token").click()
    made = page.locator(".made-token")
    await expect(made).to_contain_text("It will not be shown again")
    token = await made.get_by_role("textbox").input_value()
    assert token.startswith("bgp_")
    await expect(made.get_by_role("button", name="Copy the token")).to_be_visible()
    row = page.locator("table.tokens tbody tr")
    await expect(row).to_have_count(1)
    await expect(row).to_contain_text("my bot")
    await expect(row).to_contain_text("never")
    await no_serious_violation(page)
    await page.screenshot(path=screenshot_path("account.png", tmp_path), full_page=True)

    bearer = {"Authorization": f"Bearer {token}"}
    async with httpx.AsyncClient(base_url=web, timeout=10) as program:
        assert (await program.get("/api/me", headers=bearer)).json() == {"name": name}
        await page.reload()
        await expect(page.locator("table.tokens tbody tr")).not_to_contain_text("never")
        await expect(page.locator(".made-token")).to_have_count(0)  # shown once only

        await page.get_by_role("button", name='Revoke the token "my bot"').click()
        await expect(page.get_by_role("status").filter(has_text="is revoked")).to_be_visible()
        await expect(page.get_by_text("No personal token.")).to_be_visible()
        refused = await program.get("/api/me", headers=bearer)
        assert refused.status_code == 401 and refused.json()["code"] == "unknown_token"


async def test_a_new_password_logs_in_and_the_old_one_does_not(
    browser: Browser, console: Console, web: str
) -> None:
    name = new_name("Cy")
    page = await open_page(browser, console, web)
    await sign_up(page, web, name)
    await page.goto(f"{web}/account")
    await page.get_by_label("Current password").fill(PASSWORD)
    await page.get_by_label("New password").fill("a brand new password")
    await page.get_by_role("button", name="Change the password").click()
    await expect(page.get_by_role("status").filter(has_text="password is changed")).to_be_visible()
    await page.reload()  # this browser was given a new session: still logged in
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")
    async with httpx.AsyncClient(base_url=web, timeout=10) as other:
        await other.get("/api/games/types")
        csrf = {"X-CSRFToken": other.cookies["csrftoken"]}
        old = {"name": name, "password": PASSWORD}
        assert (await other.post("/api/session", json=old, headers=csrf)).status_code == 401
        new = {"name": name, "password": "a brand new password"}
        assert (await other.post("/api/session", json=new, headers=csrf)).status_code == 200
    await log_in(page, web, name, "a brand new password")


@pytest.mark.parametrize(("width", "height"), [(1366, 768), (390, 844)])
async def test_the_account_pages_fit_the_screen(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    page = await open_page(browser, console, f"{web}/login", width, height)
    await expect(page.get_by_role("button", name="Log in")).to_be_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    await page.screenshot(path=screenshot_path(f"login-{width}.png", tmp_path), full_page=True)
    await sign_up(page, web, new_name("Di"))
    await page.goto(f"{web}/account")
    await page.get_by_label("Label").fill("a label for a bot that plays at night")
    await page.get_by_role("button", name="Make a token").click()
    await expect(page.locator(".made-token")).to_be_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
    await page.screenshot(path=screenshot_path(f"account-{width}.png", tmp_path), full_page=True)
    await page.goto(web)
    await expect(page.get_by_role("heading", name="New table")).to_be_visible()
    assert await page.evaluate("document.documentElement.scrollWidth") <= width
