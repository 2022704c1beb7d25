"""Changing the password with a current password that is not the player's is refused in its
own words (`wrong_password`), not in a login's: the player is logged in, only that one field
is wrong, and the password stays as it was."""

from __future__ import annotations

import httpx
from accounts import a_name, csrf, log_in, sign_up


async def test_a_wrong_current_password_is_named_as_such_and_changes_nothing(
    server: str,
) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        name = a_name()
        await sign_up(browser, name)
        answer = await browser.post(
            "/api/me/password",
            json={"current": "not the password", "new": "battery staple"},
            headers=await csrf(browser),
        )
        assert answer.status_code == 401, answer.text
        assert answer.json() == {
            "code": "wrong_password",
            "message": "Your current password is not right.",
        }
        assert (await browser.get("/api/me")).json() == {"name": name}  # still logged in
        assert (await log_in(browser, name, "correct horse")).status_code == 200
