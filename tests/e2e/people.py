"""Players over HTTP for end-to-end tests: a browser's session (its cookies and CSRF header),
or a program's personal token."""

from __future__ import annotations

import contextlib
import secrets
from collections.abc import AsyncIterator
from typing import Any

import httpx

PASSWORD = "a good password"


def name(prefix: str) -> str:
    """A player's name no other test uses."""
    return f"{prefix}-{secrets.token_hex(4)}"


async def signed_up(base: str, who: str) -> httpx.AsyncClient:
    """A browser of a new player `who`, logged in: it sends its session cookie and, on
    every request, the CSRF cookie's value as `X-CSRFToken`."""
    browser = httpx.AsyncClient(base_url=base, timeout=10)
    await browser.get("/api/games/types")  # a read without Authorization: the CSRF cookie
    browser.headers["X-CSRFToken"] = browser.cookies["csrftoken"]
    answer = await browser.post("/api/accounts", json={"name": who, "password": PASSWORD})
    assert answer.status_code == 201, answer.text
    return browser


async def program_of(base: str, browser: httpx.AsyncClient) -> httpx.AsyncClient:
    """A program playing as the browser's player, with a personal token (no cookie)."""
    made = await browser.post("/api/me/tokens", json={"label": "bot"})
    assert made.status_code == 201, made.text
    token = made.json()["token"]
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
