"""What a player does with an account in the browser, as Playwright steps; and the same
player's session as a program would use it (the browser's cookies, the CSRF header)."""

from __future__ import annotations

import itertools
import os

import httpx
from playwright.async_api import BrowserContext, Page, expect

_numbers = itertools.count(1)


def new_name(stem: str) -> str:
    """A name no other test of this server took (the server lives for the whole session)."""
    return f"{stem}{os.getpid() % 1000}x{next(_numbers)}"


PASSWORD = "correct horse battery"


async def sign_up(page: Page, base: str, name: str, password: str = PASSWORD) -> None:
    await page.goto(f"{base}/signup")
    await page.get_by_label("Name").fill(name)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Sign up").click()
    # The page goes on to where the player was headed: wait until it has, or a test's next
    # navigation would be interrupted by it.
    await page.wait_for_url(lambda url: "/signup" not in url)
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")


async def log_in(page: Page, base: str, name: str, password: str = PASSWORD) -> None:
    await page.goto(f"{base}/login")
    await page.get_by_label("Name").fill(name)
    await page.get_by_label("Password").fill(password)
    await page.get_by_role("button", name="Log in").click()
    # The page goes on to where the player was headed: wait until it has, or a test's next
    # navigation would be interrupted by it.
    await page.wait_for_url(lambda url: "/login" not in url)
    await expect(page.locator(".who")).to_contain_text(f"Logged in as {name}")


async def session_of(context: BrowserContext, base: str) -> httpx.AsyncClient:
    """A client with the browser's session cookie that sends its CSRF token on writes."""
    cookies = {c["name"]: c["value"] for c in await context.cookies(base)}
    return httpx.AsyncClient(
        base_url=base,
        cookies=cookies,
        headers={"X-CSRFToken": cookies.get("csrftoken", "")},
        timeout=10,
    )
