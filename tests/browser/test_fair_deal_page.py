"""A game's end in the browser says "Fair deal: verified" when the seed and salt revealed at the
end hash to the commitment shown from the start (the browser's Web Crypto), with the command
that checks the whole log; a revealed salt that does not open the commitment says so."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import httpx
from conftest import Console, open_page, screenshot_path
from playwright.async_api import Browser, Route, expect

AIS = [{"type": "ai", "level": "easy"}, {"type": "ai", "level": "easy"}]


def finished(base: str) -> dict[str, Any]:
    """A game of two easy AIs, its seed drawn by the service, once it is over (about 40
    moves): its stream is read to its end."""
    answer = httpx.post(f"{base}/api/games", json={"game": "crazymino", "seats": AIS})
    assert answer.status_code == 201, answer.text
    game_id = answer.json()["id"]
    stream = f"{base}/api/games/{game_id}/stream"
    with httpx.stream("GET", stream, timeout=httpx.Timeout(10, read=None)) as events:
        for line in events.iter_lines():
            if line.startswith("data: ") and '"type":"game_ended"' in line.replace(" ", ""):
                break
    shown: dict[str, Any] = httpx.get(f"{base}/api/games/{game_id}").json()
    assert shown["status"] == "over", shown["version"]
    return shown


async def test_the_end_says_fair_deal_verified_with_the_command(
    browser: Browser, console: Console, web: str, tmp_path: Path
) -> None:
    over = finished(web)
    game_id, deal = over["id"], over["fair_deal"]
    assert deal["seed"] and deal["salt"]
    page = await open_page(browser, console, f"{web}/watch/{game_id}", 390, 844)
    line = page.locator(".fair-deal")
    await expect(line).to_contain_text("Fair deal: verified")
    await expect(line).to_contain_text(deal["commitment"][:16])
    await expect(line.locator("code").last).to_have_text(
        f"python -m app verify crazymino-{game_id}.json"
    )
    assert await page.evaluate("document.documentElement.scrollWidth") <= 390
    await page.screenshot(path=screenshot_path("fair-deal.png", tmp_path), full_page=True)

    # The same end with a salt that does not open the commitment: the page says so.
    async def forged(route: Route) -> None:
        answer = await route.fetch()
        shown = await answer.json()
        if "fair_deal" in shown:  # the view (the other answers of the game pass as they are)
            shown["fair_deal"]["salt"] = "0" * 32
        await route.fulfill(response=answer, body=json.dumps(shown))

    other = await open_page(browser, console, "about:blank")
    await other.route(f"{web}/api/games/{game_id}*", forged)
    await other.goto(f"{web}/watch/{game_id}")
    await expect(other.locator(".fair-deal")).to_contain_text("Fair deal: NOT verified")
