"""A person's browser as the end-to-end tests drive it: a cookie jar and the CSRF header."""

from __future__ import annotations

import secrets

import httpx


def a_name(prefix: str = "p") -> str:
    return f"{prefix}_{secrets.token_hex(5)}"


async def csrf(client: httpx.AsyncClient) -> dict[str, str]:
    """The CSRF header of this browser (a read gives it its `csrftoken` cookie first)."""
    if "csrftoken" not in client.cookies:
        await client.get("/api/games/types")
    return {"X-CSRFToken": client.cookies["csrftoken"]}


async def sign_up(client: httpx.AsyncClient, name: str, password: str = "correct horse") -> None:
    answer = await client.post(
        "/api/accounts", json={"name": name, "password": password}, headers=await csrf(client)
    )
    assert answer.status_code == 201, answer.text


async def log_in(
    client: httpx.AsyncClient, name: str, password: str = "correct horse"
) -> httpx.Response:
    return await client.post(
        "/api/session", json={"name": name, "password": password}, headers=await csrf(client)
    )


async def personal_token(client: httpx.AsyncClient, label: str = "bot") -> str:
    answer = await client.post("/api/me/tokens", json={"label": label}, headers=await csrf(client))
    assert answer.status_code == 201, answer.text
    token: str = answer.json()["token"]
    return token
