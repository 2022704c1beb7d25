"""The account page's change-password form answers a wrong current password in its own words:
the current password is not right (not "that name and password do not match an account")."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import Console, open_page, screenshot_path
from players_page import PASSWORD, new_name, sign_up
from playwright.async_api import Browser, expect

SIZES = [(1366, 768), (390, 844)]


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_a_wrong_current_password_is_said_to_be_the_current_password(
    browser: Browser, console: Console, web: str, width: int, height: int, tmp_path: Path
) -> None:
    console.allow(r"status of 401")  # the refusal this test asks for
    name = new_name("Cal")
    page = await open_page(browser, console, web, width, height)
    await sign_up(page, web, name)
    await page.goto(f"{web}/account")
    await page.get_by_label("Current password").fill("not the password")
    await page.get_by_label("New password").fill("battery staple horse")
    await page.get_by_label("New password").press("Enter")
    form = page.get_by_role("region", name="Change your password")
    alert = form.get_by_role("alert")
    await expect(alert).to_have_text("Your current password is not right.")
    await page.screenshot(path=screenshot_path(f"password-wrong-{width}.png", tmp_path))

    await page.get_by_label("Current password").fill(PASSWORD)
    await page.get_by_role("button", name="Change the password").click()
    await expect(form.get_by_role("status")).to_contain_text("Your password is changed")
    await expect(alert).to_have_text("")
