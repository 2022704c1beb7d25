"""Guessing passwords over HTTP cannot lock an owner out: failed logins count per name and
address (and slow the name everywhere, never refuse it), wrong current passwords count per
account from any address, a password over 256 characters is refused rather than cut, and a
password change ends the player's personal tokens unless the player keeps them.

The server trusts `X-Forwarded-For` (`TRUST_PROXY=1`) so that one test speaks from many
addresses; its windows last 15 minutes from the first guess they count, by the server's own
clock (the tests of the windows themselves move a clock of their own:
`tests/integration/test_guessing_windows.py`)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator

import httpx
import pytest
from accounts import a_name, csrf, personal_token, sign_up
from client import auth
from conftest import start_server, stop_server

from tests.processes import database

RIGHT = "correct horse"


@pytest.fixture(scope="module")
def guarded(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server with the login limits as shipped (10 a name and address), none per minute."""
    log = tmp_path_factory.mktemp("guessing") / "server.log"
    env = {
        "REDIS_URL": database(redis_url, 14),
        "TRUST_PROXY": "1",
        "RATE_LOGINS_PER_NAME": "10",
        "LOGIN_DELAY_MAX_SECONDS": "8",
    }
    proc, url = start_server(env, log)
    yield url
    stop_server(proc)


def an_address() -> dict[str, str]:
    return {"X-Forwarded-For": f"10.{secrets.randbelow(256)}.{secrets.randbelow(256)}.7"}


async def log_in_from(
    browser: httpx.AsyncClient, address: dict[str, str], name: str, password: str
) -> httpx.Response:
    headers = {**await csrf(browser), **address}
    return await browser.post(
        "/api/session", json={"name": name, "password": password}, headers=headers, timeout=30
    )


async def change_from(
    browser: httpx.AsyncClient, address: dict[str, str], current: str, new: str, **more: bool
) -> httpx.Response:
    body = {"current": current, "new": new, **more}
    headers = {**await csrf(browser), **address}
    return await browser.post("/api/me/password", json=body, headers=headers)


async def test_ten_failed_logins_from_one_address_leave_the_owner_in_from_another(
    guarded: str,
) -> None:
    name, attacker, owner = a_name(), an_address(), an_address()
    async with httpx.AsyncClient(base_url=guarded) as browser:
        await sign_up(browser, name)
        for _ in range(10):
            assert (await log_in_from(browser, attacker, name, "wrong guess")).status_code == 401
        answer = await log_in_from(browser, owner, name, RIGHT)
        assert answer.status_code == 200, answer.text  # delayed, perhaps, never refused


async def test_the_eleventh_failed_login_from_one_address_is_refused_there(
    guarded: str,
) -> None:
    name, attacker = a_name(), an_address()
    async with httpx.AsyncClient(base_url=guarded) as browser:
        await sign_up(browser, name)
        for _ in range(10):
            assert (await log_in_from(browser, attacker, name, "wrong guess")).status_code == 401
        answer = await log_in_from(browser, attacker, name, "wrong guess")
        assert (answer.status_code, answer.json()["code"]) == (429, "rate_limited")
        assert int(answer.headers["Retry-After"]) > 0
        assert (await log_in_from(browser, attacker, name, RIGHT)).status_code == 429


async def test_wrong_current_passwords_count_per_account_from_any_address(guarded: str) -> None:
    async with httpx.AsyncClient(base_url=guarded) as browser:
        await sign_up(browser, a_name())
        for _ in range(10):
            answer = await change_from(browser, an_address(), "wrong guess", "battery staple")
            assert answer.status_code == 401, answer.text
        answer = await change_from(browser, an_address(), RIGHT, "battery staple")
        assert (answer.status_code, answer.json()["code"]) == (429, "rate_limited")
        assert int(answer.headers["Retry-After"]) > 0
        assert "for this account" in answer.json()["message"]


async def test_a_password_over_256_characters_is_refused_never_cut(guarded: str) -> None:
    name, long = a_name(), "p" * 256
    async with httpx.AsyncClient(base_url=guarded) as browser:
        answer = await browser.post(
            "/api/accounts",
            json={"name": a_name(), "password": long + "x"},
            headers=await csrf(browser),
        )
        assert (answer.status_code, answer.json()["code"]) == (422, "password_too_long")
        assert answer.json()["message"] == (
            "A password has at most 256 characters; this one has 257."
        )
        await sign_up(browser, name, long)
        answer = await log_in_from(browser, an_address(), name, long + "anything")
        assert (answer.status_code, answer.json()["code"]) == (422, "password_too_long")
        answer = await change_from(browser, an_address(), long, long + "x")
        assert (answer.status_code, answer.json()["code"]) == (422, "password_too_long")
        assert (await log_in_from(browser, an_address(), name, long)).status_code == 200


async def test_a_password_change_ends_personal_tokens_unless_they_are_kept(guarded: str) -> None:
    name = a_name()
    async with (
        httpx.AsyncClient(base_url=guarded) as browser,
        httpx.AsyncClient(base_url=guarded) as other,
    ):
        await sign_up(browser, name)
        assert (await log_in_from(other, an_address(), name, RIGHT)).status_code == 200
        bot = await personal_token(browser)
        answer = await change_from(browser, an_address(), RIGHT, "battery staple")
        assert answer.status_code == 204, answer.text
        refused = await browser.get("/api/me", headers=auth(bot))
        assert (refused.status_code, refused.json()["code"]) == (401, "unknown_token")
        assert (await browser.get("/api/me/tokens")).json() == []
        assert (await browser.get("/api/me")).status_code == 200  # this browser stays in
        assert (await other.get("/api/me")).status_code == 401  # the other session ends
        kept = await personal_token(browser)
        answer = await change_from(
            browser, an_address(), "battery staple", "stapled battery", keep_tokens=True
        )
        assert answer.status_code == 204, answer.text
        assert (await browser.get("/api/me", headers=auth(kept))).json() == {"name": name}
