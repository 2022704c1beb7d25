"""Following a game in the browser: a spectator live (who never receives a hand), a page whose
stream is cut or whose server restarts (it says it is reconnecting, then misses nothing and
repeats nothing), and the replay of a finished game."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import httpx
from conftest import WEB_ENV, Console, create_game, open_page
from playwright.async_api import Browser, Page, expect

from tests.processes import database, free_port, start_server, stop
from tests.waiting import until_now

# Records every message the page's EventSources receive, as they come over the network.
RECORD_STREAMS = """
(() => {
  const Real = window.EventSource;
  window.__received = [];
  window.EventSource = class extends Real {
    constructor(url, options) {
      super(url, options);
      this.addEventListener("message", (m) => window.__received.push(m.data));
    }
  };
})();
"""


def play(base: str, game_id: str, tokens: list[str], moves: int, seed: int) -> None:
    """Both seats of a game of people, over HTTP: random legal commands."""
    rng = random.Random(seed)
    for _ in range(moves):
        shown = httpx.get(f"{base}/api/games/{game_id}").json()
        if shown["status"] == "over":
            return
        (seat,) = shown["to_act"]
        token = {"Authorization": f"Bearer {tokens[seat]}"}
        mine = httpx.get(f"{base}/api/games/{game_id}", headers=token).json()
        answer = httpx.post(
            f"{base}/api/games/{game_id}/commands", json=rng.choice(mine["legal"]), headers=token
        )
        assert answer.status_code == 200, answer.text


def hidden_leaks(document: Any) -> list[str]:
    """Hands and drawn tiles a spectator may not see, wherever they are in an answer."""
    found: list[str] = []
    if isinstance(document, dict):
        if document.get("hand") is not None:
            found.append(f"a hand: {document['hand']}")
        if document.get("hands") is not None and any(h is not None for h in document["hands"]):
            found.append("hands")
        if document.get("type") == "tile_drawn" and document.get("tile") is not None:
            found.append(f"a drawn tile: {document['tile']}")
        if document.get("pile") is not None or document.get("seed") is not None:
            found.append("the pile or the seed")
        for value in document.values():
            found += hidden_leaks(value)
    elif isinstance(document, list):
        for value in document:
            found += hidden_leaks(value)
    return found


async def log_texts(page: Page) -> list[str]:
    return await page.locator(".log li").evaluate_all(
        "els => els.map(e => e.textContent.replace(/^\\S+ \\S+ ago /, ''))"
    )


def texts_of(base: str, game_id: str, token: str | None = None) -> list[str]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    events = httpx.get(f"{base}/api/games/{game_id}/events", headers=headers).json()["events"]
    return [e["text"] for e in events]


async def test_a_spectator_follows_live_and_never_receives_a_hand(
    browser: Browser, console: Console, web: str
) -> None:
    # The service draws the seed (a seed the creator chose is public): it must stay hidden.
    body = {"game": "crazymino", "seats": [{"type": "human"}, {"type": "human"}]}
    created = httpx.post(f"{web}/api/games", json=body).json()
    game, tokens = created["id"], [s["token"] for s in created["seats"]]
    context = await browser.new_context(viewport={"width": 1280, "height": 800})
    await context.add_init_script(RECORD_STREAMS)
    page = console.watch(await context.new_page())
    answers: list[Any] = []

    async def keep(response: Any) -> None:
        if "/api/" in response.url and "/stream" not in response.url:
            answers.append(json.loads(await response.body() or b"null"))

    page.on("response", keep)
    await page.goto(f"{web}/watch/{game}")
    await expect(page.locator(".connection")).to_have_text("Live")
    before = len(await log_texts(page))
    play(web, game, tokens, 12, 5)
    version = httpx.get(f"{web}/api/games/{game}").json()["version"]
    await expect(page.locator(".log li")).to_have_count(version)
    assert before < version
    await expect(page.locator(".hand")).to_have_count(0)
    received = [json.loads(m) for m in await page.evaluate("window.__received")]
    assert len(received) == version - before, "every event came live, once"
    assert not hidden_leaks(received), hidden_leaks(received)
    assert answers and not hidden_leaks(answers), hidden_leaks(answers)


async def test_a_stream_that_ends_is_resumed_with_nothing_missed_or_repeated(
    browser: Browser, console: Console, redis_url: str, tmp_path: Path
) -> None:
    """The server ends every stream after two seconds (SSE_MAX_SECONDS), as it may."""
    env = {"REDIS_URL": database(redis_url, 3), **WEB_ENV, "SSE_MAX_SECONDS": "2"}
    proc, base = start_server(env, tmp_path / "server.log")
    try:
        created = create_game(base, [{"type": "human"}, {"type": "human"}], 42)
        game, tokens = created["id"], [s["token"] for s in created["seats"]]
        page = await open_page(browser, console, f"{base}/play/{game}#t={tokens[0]}")
        await expect(page.locator(".connection")).to_have_text("Live")
        seen = []
        for _ in range(3):
            await expect(page.locator(".connection")).to_have_text("Reconnecting…", timeout=5000)
            seen.append("reconnecting")
            play(base, game, tokens, 3, len(seen))  # while it reconnects
            await expect(page.locator(".connection")).to_have_text("Live", timeout=5000)
        play(base, game, tokens, 2, 9)
        expected = texts_of(base, game, tokens[0])
        await expect(page.locator(".log li")).to_have_count(len(expected))
        assert await log_texts(page) == expected
    finally:
        stop(proc)


async def test_a_page_resumes_after_its_server_restarts(
    browser: Browser, console: Console, redis_url: str, tmp_path: Path
) -> None:
    port = free_port()
    env = {"REDIS_URL": database(redis_url, 4), **WEB_ENV}
    proc, base = start_server(env, tmp_path / "one.log", port=port)
    created = create_game(base, [{"type": "human"}, {"type": "human"}], 43)
    game, tokens = created["id"], [s["token"] for s in created["seats"]]
    page = await open_page(browser, console, f"{base}/play/{game}#t={tokens[1]}")
    await expect(page.locator(".connection")).to_have_text("Live")
    play(base, game, tokens, 2, 1)
    stop(proc)
    # While the server is down the browser reports each refused connection in its console:
    # those, and only those, are expected here.
    console.allow(r"net::ERR_CONNECTION_REFUSED")
    await expect(page.locator(".connection")).to_have_text("Reconnecting…")
    proc, base = start_server(env, tmp_path / "two.log", port=port)
    try:
        play(base, game, tokens, 4, 2)
        await expect(page.locator(".connection")).to_have_text("Live", timeout=15_000)
        expected = texts_of(base, game, tokens[1])
        await expect(page.locator(".log li")).to_have_count(len(expected), timeout=10_000)
        assert await log_texts(page) == expected
    finally:
        stop(proc)


async def test_a_finished_game_replays_step_by_step(
    browser: Browser, console: Console, web: str
) -> None:
    created = create_game(web, [{"type": "ai", "level": "easy"}, {"type": "ai"}], 44)

    def over() -> dict[str, Any] | None:
        game: dict[str, Any] = httpx.get(f"{web}/api/games/{created['id']}").json()
        return game if game["status"] == "over" else None

    final = until_now(over)
    page = await open_page(browser, console, f"{web}/replay/{created['id']}")
    steps = page.get_by_role("group", name="Steps")
    await expect(page.locator("output")).to_have_text(
        f"Event {final['version']} of {final['version']}"
    )
    await steps.get_by_role("button", name="First").click()
    await expect(page.locator("output")).to_have_text(f"Event 1 of {final['version']}")
    await expect(page.locator(".step-text")).to_contain_text("The game begins")
    await expect(page.locator(".hands h2")).to_have_count(2)  # a finished game shows every hand
    for n in range(2, 6):
        await steps.get_by_role("button", name="Next").click()
        await expect(page.locator("output")).to_have_text(f"Event {n} of {final['version']}")
    await page.get_by_role("slider", name="Step").fill(str(final["version"] // 2))
    await expect(page.locator("output")).to_have_text(
        f"Event {final['version'] // 2} of {final['version']}"
    )
    await steps.get_by_role("button", name="Last").click()
    await expect(page.locator(".players .score")).to_have_text(
        [f"{s} points" for s in final["scores"]]
    )
