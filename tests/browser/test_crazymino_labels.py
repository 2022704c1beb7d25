"""The Crazymino board has its columns lettered A–N and its rows numbered 1–14, at both sizes,
each label over its own column or beside its own row; the log and the cell's words name a
cell the same way."""

from __future__ import annotations

import pytest
from conftest import Console, create_game
from crazymino_page import (
    SIZES,
    cell,
    cell_name,
    events_of,
    fit_cell,
    log_size,
    my_turn,
    open_sized,
    pick_fitting,
    wait_log_grows,
)
from playwright.async_api import Browser, Page, expect


async def centre(page: Page, selector: str) -> tuple[float, float]:
    box = await page.locator(selector).bounding_box()
    assert box is not None
    return box["x"] + box["width"] / 2, box["y"] + box["height"] / 2


@pytest.mark.parametrize(("width", "height"), SIZES)
async def test_the_labels_name_the_cells_as_the_log_does(
    browser: Browser, console: Console, web: str, width: int, height: int
) -> None:
    created = create_game(web, [{"type": "human", "name": "Ann"}, {"type": "ai"}], 62)
    game, token = created["id"], created["seats"][0]["token"]
    page = await open_sized(browser, console, f"{web}/play/{game}#t={token}", width, height)
    await my_turn(page, "Ann")
    columns = page.locator(".col-labels li")
    rows = page.locator(".row-labels li")
    await expect(columns).to_have_text(list("ABCDEFGHIJKLMN"))
    await expect(rows).to_have_text([str(n) for n in range(1, 15)])
    for n in (0, 6, 13):
        # A label is over its column and beside its row (the board scrolled to it on a phone).
        await page.locator(cell(page, n, n)).scroll_into_view_if_needed()
        cell_x, cell_y = await centre(page, cell(page, n, n))
        label_x, _ = await centre(page, f".col-labels li:nth-child({n + 1})")
        _, label_y = await centre(page, f".row-labels li:nth-child({n + 1})")
        assert abs(cell_x - label_x) < 2 and abs(cell_y - label_y) < 2

    # The start tile's cell, in the log's words, is the one the labels name.
    began = events_of(web, game, token)[0]["event"]
    await expect(page.locator(".log li").first).to_contain_text(
        f"starts the board at {cell_name(began['start_row'], began['start_col'])};"
    )
    before = await log_size(page)
    await pick_fitting(page)
    row, col = await fit_cell(page)
    laid = page.locator(cell(page, row, col))
    await laid.click()
    await wait_log_grows(page, before, "Ann lays a ")
    await expect(page.locator(".log li").nth(before)).to_contain_text(f" on {cell_name(row, col)}")
    # The mouse rests on the tile just laid; the keys then speak of the cursor's cell.
    mouse_x, mouse_y = (round(n) for n in await centre(page, cell(page, row, col)))
    await page.mouse.move(mouse_x, mouse_y)
    await page.locator(".board").focus()
    await page.keyboard.press("ArrowUp")
    await expect(page.locator("#cell-status")).to_contain_text(
        f"Cell {cell_name(max(0, row - 1), col)}, "
    )
    # The page shifting under a still mouse (the AI's move, the turn line) brings the cell under
    # it back as a pointer event at the very same spot: the keys keep their cell.
    await laid.dispatch_event(
        "pointerenter", {"pointerType": "mouse", "clientX": mouse_x, "clientY": mouse_y}
    )
    await expect(page.locator("#cell-status")).to_contain_text(
        f"Cell {cell_name(max(0, row - 1), col)}, "
    )
