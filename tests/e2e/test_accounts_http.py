"""Accounts guarded like money, over HTTP against a real server on a real Redis: the session
cookie, its rotation and revocation, CSRF, personal tokens, and nothing secret in a log."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from accounts import a_name, csrf, log_in, personal_token, sign_up
from client import auth, create
from conftest import start_server, stop_server

from tests.processes import database


async def test_signing_up_logs_in_with_an_http_only_lax_cookie(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        name = a_name()
        answer = await browser.post(
            "/api/accounts",
            json={"name": name, "password": "correct horse"},
            headers=await csrf(browser),
        )
        assert answer.status_code == 201, answer.text
        cookie = next(h for h in answer.headers.get_list("set-cookie") if h.startswith("session="))
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie.replace("Lax", "lax")
        assert "Secure" not in cookie  # plain http here; behind TLS it is Secure
        assert (await browser.get("/api/me")).json() == {"name": name}


async def test_a_name_is_taken_whatever_its_case(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as one, httpx.AsyncClient(base_url=server) as two:
        name = a_name()
        await sign_up(one, name)
        answer = await two.post(
            "/api/accounts",
            json={"name": name.upper(), "password": "correct horse"},
            headers=await csrf(two),
        )
        assert (answer.status_code, answer.json()["code"]) == (409, "name_taken")


async def test_logging_in_makes_a_new_session_and_a_planted_one_opens_nothing(
    server: str,
) -> None:
    name = a_name()
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, name)
        first = browser.cookies["session"]
        assert (await log_in(browser, name)).status_code == 200
        second = browser.cookies["session"]
        planted = "A" * 43  # an id an attacker set in the victim's browser
        browser.cookies.set("session", planted, domain="127.0.0.1")
        assert (await log_in(browser, name)).status_code == 200
        third = browser.cookies["session"]
        assert len({first, second, third, planted}) == 4
        assert (await browser.get("/api/me")).status_code == 200
    for closed in (first, planted):  # the one logged in over, and the planted one
        async with httpx.AsyncClient(base_url=server, cookies={"session": closed}) as other:
            assert (await other.get("/api/me")).status_code == 401


async def test_logging_out_ends_the_session_at_once(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, a_name())
        session = browser.cookies["session"]
        answer = await browser.delete("/api/session", headers=await csrf(browser))
        assert answer.status_code == 204
    async with httpx.AsyncClient(base_url=server, cookies={"session": session}) as replayed:
        answer = await replayed.get("/api/me")
        assert (answer.status_code, answer.json()["code"]) == (401, "not_logged_in")


async def test_a_cookie_write_without_the_csrf_token_is_refused(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, a_name())
        for headers in ({}, {"X-CSRFToken": "forged"}):
            answer = await browser.post("/api/me/tokens", json={"label": "x"}, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (403, "csrf_failed")
            answer = await browser.delete("/api/session", headers=headers)
            assert answer.status_code == 403
        assert (await browser.get("/api/me/tokens")).json() == []  # nothing was made
        assert (await browser.get("/api/me")).status_code == 200  # still logged in


async def test_a_session_cookie_in_any_form_the_reader_takes_is_guarded_by_csrf(
    server: str,
) -> None:
    """The guard reads cookies with the session reader's parser: `session =<id>` (a space
    before `=`, which no browser sends but the reader takes) is guarded as well."""
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, a_name())
        session = browser.cookies["session"]
    async with httpx.AsyncClient(base_url=server) as forger:
        for form in (f"session ={session}", f"other=1;  session={session}"):
            headers = {"Cookie": form}
            assert (await forger.get("/api/me", headers=headers)).status_code == 200  # read
            answer = await forger.post("/api/me/tokens", json={"label": "x"}, headers=headers)
            assert (answer.status_code, answer.json()["code"]) == (403, "csrf_failed")
            listed = await forger.get("/api/me/tokens", headers=headers)
            assert listed.json() == []  # nothing was made


async def test_a_login_from_another_site_is_refused_without_the_csrf_token(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        name = a_name()
        await sign_up(browser, name)
    async with httpx.AsyncClient(base_url=server) as victim:
        answer = await victim.post("/api/session", json={"name": name, "password": "correct horse"})
        assert (answer.status_code, answer.json()["code"]) == (403, "csrf_failed")
        assert "session" not in victim.cookies


async def test_a_refused_name_or_password_is_told_in_a_players_words(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        for body, code, words in [
            ({"name": "a b", "password": "correct horse"}, "bad_account_name", "3 to 20 letters"),
            ({"name": a_name(), "password": "short"}, "bad_password", "8 to 256 characters"),
            ({"name": "Ann_Lee_9", "password": "ann_lee_9"}, "password_is_name", "the name"),
        ]:
            answer = await browser.post("/api/accounts", json=body, headers=await csrf(browser))
            assert answer.json()["code"] == code and words in answer.json()["message"], answer.text


async def test_a_wrong_password_and_an_unknown_name_are_answered_alike(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        name = a_name()
        await sign_up(browser, name)
        wrong = await log_in(browser, name, "battery staple")
        unknown = await log_in(browser, a_name(), "correct horse")
        assert wrong.status_code == unknown.status_code == 401
        assert wrong.json() == unknown.json()


async def test_a_changed_password_closes_every_other_session(server: str) -> None:
    name = a_name()
    async with httpx.AsyncClient(base_url=server) as phone:
        await sign_up(phone, name)
        async with httpx.AsyncClient(base_url=server) as laptop:
            assert (await log_in(laptop, name)).status_code == 200
            answer = await laptop.post(
                "/api/me/password",
                json={"current": "correct horse", "new": "battery staple"},
                headers=await csrf(laptop),
            )
            assert answer.status_code == 204, answer.text
            assert (await laptop.get("/api/me")).status_code == 200  # a new session here
        assert (await phone.get("/api/me")).status_code == 401
        assert (await log_in(phone, name, "correct horse")).status_code == 401
        assert (await log_in(phone, name, "battery staple")).status_code == 200


async def test_a_revoked_personal_token_is_refused_at_once(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        name = a_name()
        await sign_up(browser, name)
        token = await personal_token(browser, "my bot")
        async with httpx.AsyncClient(base_url=server) as program:
            assert (await program.get("/api/me", headers=auth(token))).json() == {"name": name}
            listed = (await browser.get("/api/me/tokens")).json()
            assert [t["label"] for t in listed] == ["my bot"] and listed[0]["last_used"]
            assert "token" not in listed[0]
            answer = await browser.delete(
                f"/api/me/tokens/{listed[0]['id']}", headers=await csrf(browser)
            )
            assert answer.status_code == 204
            answer = await program.get("/api/me", headers=auth(token))
            assert (answer.status_code, answer.json()["code"]) == (401, "unknown_token")


async def test_a_personal_token_cannot_make_more_tokens(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, a_name())
        token = await personal_token(browser)
    async with httpx.AsyncClient(base_url=server) as program:
        answer = await program.post("/api/me/tokens", json={"label": "x"}, headers=auth(token))
        assert (answer.status_code, answer.json()["code"]) == (403, "log_in")


async def test_a_player_with_no_seat_at_a_game_cannot_act_in_it(server: str) -> None:
    async with httpx.AsyncClient(base_url=server) as browser:
        await sign_up(browser, a_name())
        token = await personal_token(browser)
        async with httpx.AsyncClient(base_url=server) as guest:
            game = await create(guest, [{"type": "human"}, {"type": "ai"}])
        command = {"type": "place_tile", "tile": 0, "row": 0, "column": 0, "rotation": 0}
        async with httpx.AsyncClient(base_url=server) as program:
            answer = await program.post(
                f"/api/games/{game['id']}/commands", json=command, headers=auth(token)
            )
            assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")
        answer = await browser.post(
            f"/api/games/{game['id']}/commands", json=command, headers=await csrf(browser)
        )
        assert (answer.status_code, answer.json()["code"]) == (403, "not_seated")
        shown = await browser.get(f"/api/games/{game['id']}")
        assert shown.status_code == 200 and shown.json()["seat"] is None  # a spectator


@pytest.fixture
def guarded(redis_url: str, tmp_path: Path) -> tuple[str, Path]:
    """A server of its own with low login limits and an access log; its log file."""
    log = tmp_path / "server.log"
    env = {
        "REDIS_URL": database(redis_url, 14),
        "RATE_LOGINS_PER_MINUTE": "8",
        "RATE_LOGINS_PER_NAME": "3",
        "ACCESS_LOG": "1",
        "LOG_FORMAT": "json",
    }
    proc, url = start_server(env, log)
    yield url, log  # type: ignore[misc]
    stop_server(proc)


async def test_guessing_is_limited_per_name_and_per_address(guarded: tuple[str, Path]) -> None:
    url, _ = guarded
    async with httpx.AsyncClient(base_url=url) as browser:
        name = a_name()
        await sign_up(browser, name)  # 1 of the address's 8
        for _ in range(3):
            assert (await log_in(browser, name, "wrong password")).status_code == 401
        answer = await log_in(browser, name, "correct horse")  # the name's 4th: refused
        assert answer.status_code == 429 and int(answer.headers["Retry-After"]) > 0
        other = a_name()
        await sign_up(browser, other)  # 6 of 8
        assert (await log_in(browser, other)).status_code == 200  # another name is open
        assert (await log_in(browser, other)).status_code == 200  # 8 of 8
        answer = await log_in(browser, other)
        assert answer.status_code == 429 and answer.json()["code"] == "rate_limited"


async def test_no_password_session_or_token_reaches_the_log(guarded: tuple[str, Path]) -> None:
    url, log = guarded
    password = "a password to be kept secret"
    async with httpx.AsyncClient(base_url=url) as browser:
        await sign_up(browser, a_name(), password)
        token = await personal_token(browser)
        await browser.get("/api/me", headers=auth(token))
        await browser.post("/api/me/tokens", json={"label": "x"}, headers=auth(token))
        session = browser.cookies["session"]
    text = log.read_text()
    assert "/api/me" in text  # the access log is on
    for secret in (password, session, token):
        assert secret not in text
