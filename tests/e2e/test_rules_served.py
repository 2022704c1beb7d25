"""What `/rules/GAME` and the table's rules dialog fetch is the players' page, with its pictures
in the page's labels; the developers' notes stay in docs/rules."""

from __future__ import annotations

import re

import httpx
import pytest

from tests.processes import ROOT

TITLES = {"crazymino": "Crazymino", "bazaar": "Bazaar", "mondo": "Mondo"}


@pytest.mark.parametrize("game", sorted(TITLES))
def test_the_rules_served_are_the_players_page(server: str, game: str) -> None:
    answer = httpx.get(f"{server}/api/games/types/{game}/rules")
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/markdown; charset=utf-8", answer.headers
    text = answer.text
    assert text == (ROOT / "app" / "web" / "rules" / f"{game}.md").read_text()
    assert text.startswith(f"# {TITLES[game]} rules\n")
    assert "domain/" not in text and "`" not in text
    for picture in re.findall(r"!\[[^\]]+\]\(([^)\s]+)\)", text):
        drawn = httpx.get(f"{server}/rules-files/{picture}")
        assert drawn.status_code == 200 and drawn.headers["content-type"] == "image/svg+xml"


def test_the_pictures_are_in_the_players_labels(server: str) -> None:
    board = httpx.get(f"{server}/rules-files/player-crazymino-board.svg").text
    assert '">A</text>' in board and '">N</text>' in board and '">14</text>' in board
    assert '">0</text>' not in board
    notes = httpx.get(f"{server}/rules-files/crazymino-board.svg").text  # the developers' own
    assert '">0</text>' in notes and '">N</text>' not in notes


@pytest.mark.parametrize(
    "path",
    [
        "/api/games/types/dice_race/rules",
        "/api/games/types/chess/rules",
        "/rules-files/player-nothing.svg",
        "/rules-files/player-crazymino.md",
    ],
)
def test_what_has_no_rules_page_is_not_found(server: str, path: str) -> None:
    assert httpx.get(f"{server}{path}").status_code == 404
