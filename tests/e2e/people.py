"""Players at open tables, for end-to-end tests: a browser that sends its CSRF header with
every request, or a program with a personal token (`accounts.py` signs them up)."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
from accounts import a_name, csrf, personal_token, sign_up


def name(prefix: str) -> str:
    """A player's name no other test uses."""
    return a_name(prefix)


async def signed_up(base: str, who: str) -> httpx.AsyncClient:
    """A browser of a new player `who`, logged in, whose every request carries the CSRF
    cookie's value as `X-CSRFToken`."""
    browser = httpx.AsyncClient(base_url=base, timeout=10)
    await sign_up(browser, who)
    browser.headers.update(await csrf(browser))
    return browser


async def program_of(base: str, browser: httpx.AsyncClient) -> httpx.AsyncClient:
    """A program playing as the browser's player, with a personal token (no cookie)."""
    token = await personal_token(browser)
    return httpx.AsyncClient(
        base_url=base, timeout=10, headers={"Authorization": f"Bearer {token}"}
    )


async def ok(answer: Any, status: int = 200) -> Any:
    """The JSON of an answer of `status` (the answer's text when it is not)."""
    response = await answer
    assert response.status_code == status, response.text
    return response.json()


@contextlib.asynccontextmanager
async def closing(*clients: httpx.AsyncClient) -> AsyncIterator[None]:
    """Close the clients after the block (clients already used cannot be entered again)."""
    try:
        yield
    finally:
        for client in clients:
            await client.aclose()
