"""Bazaar's last moves marked where they happened, at 1366×768 and on a phone: after the AIs'
turns the bag shows each seat's last stone with the seat's number, the exchange table the last
trade (who, what went in, what came out), each stall its last sale (who, which ware, for how
many points), and each carpet what it gained and paid since your move, its new stones ringed;
the page's words count their nouns rightly ("1 stone", "2 stones")."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from bazaar_page import (
    SIZES,
    carpet_changes,
    change_words,
    draw_and_end,
    entries,
    last_draws,
    seat_names,
    six_seats,
    your_turn,
)
from conftest import Console, screenshot_path
from playwright.async_api import Browser, Page, expect
from test_access import no_serious_violation
from test_bazaar_mondo_tables import play_bazaar_turns


async def marks_match_the_log(page: Page, log: list[dict], names: list[str]) -> None:
    draws = last_draws(log)
    assert len(draws) == 6, draws  # every seat has drawn by then
    for seat, colour in draws.items():
        mark = page.locator(f'.draw[data-seat="{seat}"]')
        await expect(mark.locator(".seat-badge")).to_have_text(str(seat + 1))
        await expect(mark).to_contain_text(f"{names[seat]} drew ")
        words = f"a {colour} stone" if colour else "its colour is being chosen"
        await expect(mark).to_contain_text(words)
        if colour:
            await expect(mark.locator(f'svg.stone[data-colour="{colour}"]')).to_have_count(1)
    trades = [e["event"] for e in log if e["event"]["type"] == "traded"]
    if trades:
        last = trades[-1]
        shown = page.locator(".last-trade")
        await expect(shown).to_have_attribute("data-seat", str(last["seat"]))
        await expect(shown.locator(".seat-badge")).to_have_text(str(last["seat"] + 1))
        row = page.locator(".exchange li.traded")
        await expect(row).to_have_count(1)
        await expect(row).to_have_attribute("data-traded", str(last["seat"]))
        assert await page.locator(".exchange li").nth(last["equation"]).get_attribute(
            "data-traded"
        ) == str(last["seat"])
        paid = shown.locator(".stones").first.locator("svg")
        await expect(paid).to_have_count(len(last["gave"]))
        await expect(shown.locator(".stones").nth(1).locator("svg")).to_have_count(
            len(last["took"])
        )
    sales: dict[int, dict] = {}
    for entry in log:
        if entry["event"]["type"] == "ware_bought":
            sales[entry["event"]["stall"]] = entry["event"]
    for stall, sale in sales.items():
        sold = page.locator(".stall").nth(stall).locator(".sold")
        await expect(sold).to_have_attribute("data-seat", str(sale["seat"]))
        await expect(sold.locator(".seat-badge")).to_have_text(str(sale["seat"] + 1))
        points = sale["price"]["points"]
        await expect(sold).to_contain_text(f"{names[sale['seat']]} bought")
        await expect(sold).to_contain_text(f"for {points} point{'' if points == 1 else 's'}")
        await expect(sold.locator("svg.stone")).to_have_count(len(sale["ware"]["stones"]))
    await expect(page.locator(".stall.last-sale")).to_have_count(1 if sales else 0)


async def carpets_match_the_log(page: Page, log: list[dict]) -> None:
    changes = carpet_changes(log, 0)
    assert changes, "the AIs changed no carpet"
    for seat in range(1, 6):
        card = page.locator(f'.carpet-card[data-seat="{seat}"]')
        change = changes.get(seat)
        if change is None:
            await expect(card.locator(".change")).to_have_count(0)
            await expect(card.locator("svg.stone.fresh")).to_have_count(0)
            continue
        await expect(card.locator(".change")).to_have_text(
            f"since your move: {change_words(change)}"
        )
        gained = sum(n for n in change.values() if n > 0)
        await expect(card.locator("svg.stone.fresh")).to_have_count(gained)


async def no_wrong_plural(page: Page) -> None:
    """No "1 stones", "1 red stones", "2 point" in the table's words."""
    text = " ".join(await page.locator(".bazaar, .players").all_inner_texts())
    one = r"(?<![\w.])1 (?:[a-z]+ )?(?:stones|points|wares)\b"
    many = r"(?<![\w.])(?:0|[2-9]|\d\d+) (?:[a-z]+ )?(?:stone|point|ware)\b"
    wrong = [text[max(0, m.start() - 20) : m.end() + 5] for m in re.finditer(f"{one}|{many}", text)]
    assert not wrong, wrong


@pytest.mark.parametrize("size", SIZES, ids=["1366x768", "390x844"])
async def test_the_ais_moves_are_marked_at_the_bag_the_exchange_and_the_carpets(
    browser: Browser, console: Console, web: str, tmp_path: Path, size: tuple[int, int]
) -> None:
    page, game_id, token = await six_seats(browser, console, web, 71, size)
    await your_turn(page)
    await draw_and_end(page)
    await your_turn(page)  # the five AIs have played since
    log = entries(web, game_id, token)
    names = seat_names(web, game_id, token)
    if size[0] < 600:
        await page.locator(".bazaar-others summary").click()  # folded on a phone
    await marks_match_the_log(page, log, names)
    await carpets_match_the_log(page, log)
    await no_wrong_plural(page)
    await page.screenshot(path=screenshot_path(f"bazaar-marks-{size[0]}.png", tmp_path))
    await no_serious_violation(page)


@pytest.mark.parametrize("size", SIZES, ids=["1366x768", "390x844"])
async def test_your_trade_and_purchase_are_marked_at_the_exchange_and_the_stall(
    browser: Browser, console: Console, web: str, tmp_path: Path, size: tuple[int, int]
) -> None:
    page, game_id, token = await six_seats(browser, console, web, 72, size)
    played = await play_bazaar_turns(
        page, web, game_id, token, 0, until={"trade", "buy"}, limit=300
    )
    assert {"trade", "buy"} <= played
    await your_turn(page)
    log = entries(web, game_id, token)
    names = seat_names(web, game_id, token)
    if size[0] < 600:
        await page.locator(".bazaar-others summary").click()
    await marks_match_the_log(page, log, names)
    await expect(page.locator(".sold")).not_to_have_count(0)
    await no_wrong_plural(page)
    await page.screenshot(
        path=screenshot_path(f"bazaar-sold-{size[0]}.png", tmp_path), full_page=True
    )


async def test_the_words_count_their_nouns_in_the_browser(
    browser: Browser, console: Console, web: str
) -> None:
    page, _, _ = await six_seats(browser, console, web, 73, SIZES[0])
    said = await page.evaluate(
        """async () => {
            const w = await import('/static/js/bazaar-words.js');
            return [w.plural(1, 'stone'), w.plural(2, 'stone'), w.plural(1, 'point'),
                w.plural(0, 'point'), w.plural(1, 'ware'), w.plural(3, 'ware'),
                w.stoneWords(['red']), w.stoneWords(['blue', 'blue']),
                w.stoneWords(['white', 'red', 'red']), w.stoneWords([]),
                w.priceWords({points: 1, kind: 'cheap', left: 1, stall_empty: false}),
                w.changeWords({red: 1, green: 0, blue: -2, white: 0, yellow: 0})];
        }"""
    )
    assert said == [
        "1 stone",
        "2 stones",
        "1 point",
        "0 points",
        "1 ware",
        "3 wares",
        "1 red stone",
        "2 blue stones",
        "3 stones (2 red, 1 white)",
        "no stone",
        "1 point (cheap, 1 stone left)",
        "+1 red, −2 blue",
    ]
