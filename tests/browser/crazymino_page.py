"""What a person does on a Crazymino table, as Playwright steps."""

from __future__ import annotations

from typing import Any

import httpx
from conftest import Console
from playwright.async_api import Browser, Page, expect

S = 40  # a cell in the board's SVG units
#: A laptop's screen, and a phone's (that one with touch, as a phone has).
SIZES = [(1366, 768), (390, 844)]
PHONE = 390


async def open_sized(browser: Browser, console: Console, url: str, width: int, height: int) -> Page:
    """A page at this size; at a phone's width, with touch and a phone's viewport."""
    phone = width <= PHONE
    context = await browser.new_context(
        viewport={"width": width, "height": height}, has_touch=phone, is_mobile=phone
    )
    page = console.watch(await context.new_page())
    await page.goto(url)
    return page


def events_of(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    answer = httpx.get(
        f"{base}/api/games/{game_id}/events", headers={"Authorization": f"Bearer {token}"}
    )
    entries: list[dict[str, Any]] = answer.json()["events"]
    return entries


def placements(base: str, game_id: str, token: str) -> list[dict[str, Any]]:
    """The `tile_placed` events so far, oldest first."""
    events = [e["event"] for e in events_of(base, game_id, token)]
    return [e for e in events if e["type"] == "tile_placed"]


def lay_over_http(base: str, game_id: str, token: str) -> None:
    """The seat lays the first tile its legal commands offer (or draws), over HTTP."""
    headers = {"Authorization": f"Bearer {token}"}
    view = httpx.get(f"{base}/api/games/{game_id}", headers=headers).json()
    command = next((c for c in view["legal"] if c["type"] == "place_tile"), view["legal"][0])
    answer = httpx.post(f"{base}/api/games/{game_id}/commands", json=command, headers=headers)
    assert answer.status_code == 200, answer.text


def cell_name(row: int, col: int) -> str:
    """A cell as the log and the board's labels name it: (6, 5) is F7."""
    return f"{'ABCDEFGHIJKLMN'[col]}{row + 1}"


async def my_turn(page: Page, name: str, timeout: float = 20_000) -> None:
    """`name` is to play, in a view as new as the last event the page has (the log comes by
    the stream, the view by a request after it)."""
    await page.wait_for_function(
        """name => {
            const table = document.querySelector('.table');
            const acting = [...document.querySelectorAll('.players li.acting .name')];
            const logged = document.querySelectorAll('.log li').length;
            return table && Number(table.dataset.version) === logged
                && acting.some(a => a.textContent.startsWith(name));
        }""",
        arg=name,
        timeout=timeout,
    )


async def log_size(page: Page) -> int:
    return await page.locator(".log li").count()


async def wait_log_grows(page: Page, size: int, text: str, timeout: float = 15_000) -> None:
    """The log has grown past `size` entries, and one of the new ones says `text`."""
    await page.wait_for_function(
        """([size, text]) => [...document.querySelectorAll('.log li')].slice(size)
            .some(li => li.textContent.includes(text))""",
        arg=[size, text],
        timeout=timeout,
    )


async def gone_from_hand(page: Page, tile: int) -> None:
    await expect(page.locator(f'.hand-tile[data-tile="{tile}"]')).to_have_count(0)


async def pick_fitting(page: Page) -> int:
    """Select a tile of the hand that fits somewhere, turned so that it fits; its id."""
    tile = page.locator(".hand-tile.fits").first
    number = int(await tile.get_attribute("data-tile") or -1)
    await tile.click()
    for _ in range(4):
        if await page.locator("rect.fit").count():
            return number
        await page.get_by_role("button", name="Rotate tile").click()
    raise AssertionError("the tile fits nowhere at any turn")


async def fit_cell(page: Page) -> tuple[int, int]:
    """(row, col) of the first cell where the selected tile fits."""
    fit = page.locator("rect.fit").first
    x = float(await fit.get_attribute("x") or 0)
    y = float(await fit.get_attribute("y") or 0)
    return round((y - 2) / S), round((x - 2) / S)


def cell(page: Page, row: int, col: int) -> str:
    return f'rect.hit[data-row="{row}"][data-col="{col}"]'


async def cursor(page: Page) -> tuple[int, int]:
    box = page.locator("rect.cursor")
    x = float(await box.get_attribute("x") or 0)
    y = float(await box.get_attribute("y") or 0)
    return round((y - 1) / S), round((x - 1) / S)


async def hand(page: Page) -> list[int]:
    tiles = await page.locator(".hand-tile").evaluate_all("els => els.map(e => e.dataset.tile)")
    return [int(t) for t in tiles]


async def swipe(page: Page, x: float, y: float, dx: float, dy: float) -> None:
    """A finger's swipe from (x, y) by (dx, dy), in ten moves, as touch events the browser itself
    handles (scrolling what the finger is over, unless `touch-action` forbids it)."""
    session = await page.context.new_cdp_session(page)
    touch = "Input.dispatchTouchEvent"
    await session.send(touch, {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
    for k in range(1, 11):
        point = {"x": x + dx * k / 10, "y": y + dy * k / 10}
        await session.send(touch, {"type": "touchMove", "touchPoints": [point]})
        await page.wait_for_timeout(16)  # a finger moves over frames, not all at once
    await session.send(touch, {"type": "touchEnd", "touchPoints": []})
    await session.detach()
