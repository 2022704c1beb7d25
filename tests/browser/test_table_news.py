"""The table tells what just happened, in the browser: each seat's last move beside its name,
a live region that says the others' moves and your turn, "your turn" in the tab's title and a
badge on its icon while the page is in the background, a sound that is off until the player
turns it on (and remembered), the end in a sentence that takes the focus with links to the
replay, the export and the lobby, a chart that draws negative totals and keeps its labels
apart, and a game the server no longer has."""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

import httpx
import pytest
from conftest import WEB_ENV, Console, create_game, open_page, screenshot_path
from crazymino_page import lay_over_http, log_size, my_turn, wait_log_grows
from playwright.async_api import Browser, expect
from test_access import no_serious_violation

from tests.processes import free_port, start_server, stop

SIZES = [(1366, 768), (390, 844)]

#: The page pretends to be in the background (another tab in front), or back in front.
HIDE = """(hidden) => {
    Object.defineProperty(document, "hidden", { value: hidden, configurable: true });
    document.dispatchEvent(new Event("visibilitychange"));
}"""


def events_of(base: str, game_id: str, token: str | None = None) -> list[dict[str, Any]]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    answer = httpx.get(f"{base}/api/games/{game_id}/events", headers=headers)
    entries: list[dict[str, Any]] = answer.json()["events"]
    return entries


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_others_moves_are_beside_their_names_and_said_and_your_turn_is_told(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai", "name": "Bo"}], 61)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_page(browser, console, f"{web}/play/{game}#t={token}", width, height)
    await my_turn(page, "Ann")
    sound = page.get_by_role("button", name="Sound on my turn: off")
    await expect(sound).to_have_attribute("aria-pressed", "false")
    await page.evaluate(HIDE, True)
    size = await log_size(page)
    lay_over_http(web, game, token)
    # The AI answers: its move is on its card, and the live region says it, then your turn.
    await wait_log_grows(page, size + 1, "Bo")
    await my_turn(page, "Ann")
    bo = [
        e for e in events_of(web, game, token) if e["by"] == 1 and e["event"]["type"] != "clock_set"
    ]
    card = page.locator(".players li").nth(1)
    await expect(card.locator(".last-move")).to_contain_text(bo[-1]["text"])
    await expect(card.locator(".seat-badge")).to_have_text("2")
    live = page.locator("[data-live=table]")
    await expect(live).to_contain_text(bo[-1]["text"])
    await expect(live).to_contain_text("Your turn.")
    # In the background: the title and the icon say it; in front again, they no longer do.
    await expect(page).to_have_title("(Your turn) Crazymino · Board games")
    icon = page.locator('link[rel="icon"]')
    assert (await icon.get_attribute("href") or "").startswith("data:image/svg+xml")
    await page.evaluate(HIDE, False)
    await expect(page).to_have_title("Crazymino · Board games")
    assert await icon.get_attribute("href") == "data:,"
    # Your own card shows no "last move" of yours: it is the others' since your last move.
    await expect(page.locator(".players li").nth(0).locator(".last-move")).to_have_count(0)
    await page.screenshot(path=screenshot_path(f"news-{width}.png", tmp_path))
    await no_serious_violation(page)
    # The sound: turned on, it stays on after a reload.
    await sound.click()
    await expect(page.get_by_role("button", name="Sound on my turn: on")).to_have_attribute(
        "aria-pressed", "true"
    )
    await page.reload()
    await expect(page.get_by_role("button", name="Sound on my turn: on")).to_be_visible()


def winner_sentence(view: dict[str, Any]) -> str:
    names = [view["seats"][s["seat"]]["name"] for s in view["standings"] if s["rank"] == 1]
    score = next(s["score"] for s in view["standings"] if s["rank"] == 1)
    words = f"{score} {'point' if abs(score) == 1 else 'points'}"
    if len(names) == 1:
        return f"{names[0]} wins with {words}."
    return f"share the win with {words} each."


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_end_says_who_won_and_takes_the_focus(
    browser: Browser, console: Console, web: str, tmp_path: Path, width: int, height: int
) -> None:
    # A table of AIs alone, watched from its start: its end comes while the page is open.
    created = create_game(
        web, [{"type": "ai", "level": "easy", "name": "Cy"}, {"type": "ai", "name": "Di"}], 62
    )
    game = created["id"]
    page = await open_page(browser, console, f"{web}/watch/{game}", width, height)
    await expect(page.locator(".connection")).to_have_text("Live")
    heading = page.locator("#final")
    await expect(heading).to_be_visible(timeout=90_000)
    view = httpx.get(f"{web}/api/games/{game}").json()
    assert view["status"] == "over"
    await expect(heading).to_contain_text(winner_sentence(view))
    await expect(heading).to_be_focused()
    assert await heading.evaluate("(el) => el.getBoundingClientRect().top") >= -1
    ranking = page.locator(".ranking li")
    await expect(ranking).to_have_count(len(view["standings"]))
    for k, standing in enumerate(view["standings"]):
        assert await ranking.nth(k).get_attribute("value") == str(standing["rank"])
    ending = page.locator(".ending")
    await expect(ending.get_by_role("link", name="Replay the game")).to_have_attribute(
        "href", f"/replay/{game}"
    )
    await expect(ending.get_by_role("link", name="Back to the lobby")).to_have_attribute(
        "href", "/"
    )
    export = await ending.get_by_role("link", name="Export its log").get_attribute("href")
    assert httpx.get(f"{web}{export}").status_code == 200
    await expect(ending.locator(".chart svg")).to_be_visible()
    await page.screenshot(path=screenshot_path(f"end-{width}.png", tmp_path), full_page=True)
    await no_serious_violation(page)


#: The chart drawn in the page from a timeline given here; what its lines and labels span.
DRAW_CHART = """async (timeline) => {
    const { html, render } = await import("/static/js/lib.js");
    const { ScoreChart } = await import("/static/js/chart.js");
    const box = document.createElement("div");
    box.id = "chart-under-test";
    document.body.append(box);
    render(html`<${ScoreChart} timeline=${timeline} />`, box);
    const svg = box.querySelector("svg");
    const [, , w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
    const ys = [...svg.querySelectorAll("polyline")].flatMap((line) =>
        line.getAttribute("points").split(" ").map((p) => Number(p.split(",")[1])));
    const labels = [...svg.querySelectorAll("text.label")].map((t) => {
        const r = t.getBBox();
        return { text: t.textContent, top: r.y, bottom: r.y + r.height };
    });
    return { w, h, ys, labels };
}"""


async def test_the_chart_draws_negative_totals_and_keeps_close_labels_apart(
    browser: Browser, console: Console, web: str
) -> None:
    page = await open_page(browser, console, f"{web}/rules/crazymino")
    timeline = {
        "seats": ["Ann", "Bo", "Cy", "Di"],
        "version": 40,
        "points": [
            {"version": 1, "scores": [0, 0, 0, 0]},
            {"version": 20, "scores": [-8, 12, 11, 12]},
            {"version": 40, "scores": [-23, 31, 30, 31]},
        ],
    }
    drawn = await page.evaluate(DRAW_CHART, timeline)
    assert drawn["ys"], drawn
    assert all(0 <= y <= drawn["h"] for y in drawn["ys"]), drawn
    labels = sorted(drawn["labels"], key=lambda label: label["top"])
    assert [label["text"] for label in labels][-1] == "Ann -23"
    for upper, lower in itertools.pairwise(labels):
        assert upper["bottom"] <= lower["top"] + 0.5, labels
    assert all(label["top"] >= 0 and label["bottom"] <= drawn["h"] for label in labels), labels


async def test_a_game_the_server_no_longer_has_says_so(
    browser: Browser, console: Console, tmp_path: Path
) -> None:
    port = free_port()
    env = {"REDIS_URL": "", **WEB_ENV}
    proc, base = start_server(env, tmp_path / "one.log", port=port)
    created = create_game(base, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 63)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_page(browser, console, f"{base}/play/{game}#t={token}")
    await expect(page.locator(".connection")).to_have_text("Live")
    stop(proc)
    # The browser reports the refused connections and the game's 404 in its console.
    console.allow(r"net::ERR_CONNECTION_REFUSED")
    console.allow(r"status of 404")
    await expect(page.locator(".connection")).to_have_text("Reconnecting…")
    # An embedded server keeps nothing: restarted, it no longer has the game.
    proc, base = start_server(env, tmp_path / "two.log", port=port)
    try:
        gone = page.get_by_role("heading", name="This game is no longer here")
        await expect(gone).to_be_visible()
        await expect(page.get_by_role("link", name="Back to the lobby")).to_have_attribute(
            "href", "/"
        )
        await no_serious_violation(page)
    finally:
        stop(proc)
