"""The web client in a real browser: Debian's chromium driven by Playwright, headless, against
the app served by uvicorn (`python -m app`) on a real Redis, and embedded.

Every page records its console: an error there fails the test (a test that restarts the server
allows the browser's own reports of the refused connections, and only those). Screenshots go
to a temporary folder, or to `SCREENSHOTS` when that is set (the README's pictures).

The browser tests go to whichever test process is free, like any other test: each process
starts its own servers (`web`, `embedded`: once per process, on its own Redis) and a browser
per test. A busy machine slows a page but does not fail it: every wait of a page and of
Playwright's `expect` gives up only after `PATIENCE_MS`.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.async_api import Browser, Page, async_playwright, expect

from tests.processes import database, start_server, stop

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
#: The AI thinks a little, so that a person's move and the AI's answer can be told apart.
WEB_ENV = {"AI_THINK_SECONDS": "0.1", "SSE_KEEP_ALIVE_SECONDS": "1", "WORKER_IN_PROCESS": "1"}
#: How long a page's action or an `expect` waits before it fails (Playwright's own: 30 s and 5 s).
PATIENCE_MS = 60_000
expect.set_options(timeout=PATIENCE_MS)


@pytest.fixture(scope="session")
def web(redis_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server on a real Redis (a database of its own) with its worker in process."""
    log = tmp_path_factory.mktemp("web") / "server.log"
    proc, url = start_server({"REDIS_URL": database(redis_url, 2), **WEB_ENV}, log)
    try:
        yield url
    finally:
        stop(proc)
        assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


@pytest.fixture(scope="session")
def embedded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server in embedded mode: fakeredis and the worker inside it."""
    log = tmp_path_factory.mktemp("embedded") / "server.log"
    proc, url = start_server({"REDIS_URL": "", **WEB_ENV}, log)
    try:
        yield url
    finally:
        stop(proc)


@pytest.fixture
async def browser() -> AsyncIterator[Browser]:
    if not Path(CHROMIUM).exists():
        pytest.fail("no chromium: install Debian's package `chromium` (.ci/run does)")
    async with async_playwright() as playwright:
        launched = await playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS)
        try:
            yield launched
        finally:
            await launched.close()


class Console:
    """What a page wrote to its console that is an error, less what a test allows."""

    def __init__(self) -> None:
        self.errors: list[str] = []
        self.allowed: list[re.Pattern[str]] = []

    def allow(self, pattern: str) -> None:
        self.allowed.append(re.compile(pattern))

    def watch(self, page: Page) -> Page:
        page.set_default_timeout(PATIENCE_MS)
        page.on("console", lambda m: m.type == "error" and self.errors.append(m.text))
        page.on("pageerror", lambda e: self.errors.append(f"uncaught: {e}"))
        return page

    def check(self) -> None:
        left = [e for e in self.errors if not any(p.search(e) for p in self.allowed)]
        assert not left, f"errors in the browser console: {left}"


@pytest.fixture
def console() -> Iterator[Console]:
    watched = Console()
    yield watched
    watched.check()


async def open_page(
    browser: Browser, console: Console, url: str, width: int = 1280, height: int = 800
) -> Page:
    context = await browser.new_context(viewport={"width": width, "height": height})
    page = console.watch(await context.new_page())
    await page.goto(url)
    return page


async def no_sideways_scroll(page: Page, width: int) -> None:
    """The page is no wider than the screen: nothing to scroll sideways."""
    assert await page.evaluate("document.documentElement.scrollWidth") <= width


def screenshot_path(name: str, tmp_path: Path) -> Path:
    folder = Path(os.environ["SCREENSHOTS"]) if os.environ.get("SCREENSHOTS") else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder / name


def create_game(
    base: str, seats: list[dict[str, Any]], seed: int, game: str = "crazymino"
) -> dict[str, Any]:
    answer = httpx.post(f"{base}/api/games", json={"game": game, "seats": seats, "seed": seed})
    assert answer.status_code == 201, answer.text
    created: dict[str, Any] = answer.json()
    return created
