"""Each game's rules page for its players (app/web/rules): a heading naming the game, the seed's
order of sections, a player's words (no code, no cells counted from 0), pictures that exist, and
those pictures in the labels the page uses."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.api.player_pictures import PREFIX, cell_label, player_picture
from app.commands.catalogue import Catalogue

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "app" / "web" / "rules"
DOCS = ROOT / "docs" / "rules"
HOSTED = Catalogue.with_extras()

#: The seed's sections, in the seed's order, then the table's own.
SECTIONS = {
    "crazymino": [
        "Overview",
        "Setup",
        "On your turn",
        "Placing a tile",
        "Drawing and passing",
        "When you cannot play",
        "Scoring",
        "End of the game",
        "Playing here",
    ],
    "bazaar": [
        "Setting up the game",
        "The game",
        "The board",
        "How a turn goes",
        "Drawing",
        "Joker",
        "Trading",
        "Buying",
        "Ending your turn",
        "Scoring",
        "End of the game",
        "Solo game",
        "Playing here",
    ],
    "mondo": [
        "Setting up the game",
        "How the game goes",
        "Scoring",
        "The end of a round",
        "End of the game",
        "Options",
        "time",
        "backside",
        "advanced",
        "expert",
        "Playing here",
    ],
}
TITLES = {name: HOSTED[name].game.title for name in HOSTED.names}


def page(game: str) -> str:
    return (PAGES / f"{game}.md").read_text()


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_the_page_starts_with_a_heading_naming_the_game(game: str) -> None:
    assert page(game).startswith(f"# {TITLES[game]} rules\n")


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_the_sections_follow_the_seed(game: str) -> None:
    headings = [
        line.lstrip("#").strip() for line in page(game).splitlines() if line.startswith("##")
    ]
    at = [headings.index(section) for section in SECTIONS[game]]
    assert at == sorted(at), headings


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_the_page_is_in_a_players_words(game: str) -> None:
    text = page(game)
    assert "domain/" not in text and "`" not in text
    assert not re.search(r"\(\d+, ?\d+\)", text), "a cell counted from 0"
    words = re.sub(r"\]\([^)]*\)", "]()", text)  # the pictures' file names aside
    assert not re.findall(r"\b[a-z]+_[a-z_]+\b", words), "a field or command name"
    minutes = len(text.split()) / 200  # a reading pace, words a minute
    assert minutes < 10, f"{len(text.split())} words"


@pytest.mark.parametrize("game", sorted(SECTIONS))
def test_every_picture_of_the_page_is_drawn(game: str) -> None:
    pictures = re.findall(r"!\[[^\]]+\]\(([^)\s]+)\)", page(game))
    assert pictures or game == "bazaar"  # Bazaar's notes have no picture to share
    for name in pictures:
        assert (DOCS / name.removeprefix(PREFIX)).is_file(), name


def test_every_hosted_game_has_a_players_page() -> None:
    assert sorted(p.stem for p in PAGES.glob("*.md")) == HOSTED.names == sorted(SECTIONS)


def test_a_cell_is_named_by_its_column_letter_and_its_row_from_1() -> None:
    assert cell_label(0, 0) == "A1" and cell_label(4, 11) == "L5" and cell_label(13, 13) == "N14"


def test_the_crazymino_pictures_carry_the_boards_labels() -> None:
    board = player_picture("crazymino-board.svg", (DOCS / "crazymino-board.svg").read_text())
    labels = re.findall(r'font-size="11">([^<]+)</text>', board)
    assert labels[0::2] == [chr(ord("A") + n) for n in range(14)]
    assert labels[1::2] == [str(n) for n in range(1, 15)]
    scoring = player_picture("crazymino-scoring.svg", (DOCS / "crazymino-scoring.svg").read_text())
    assert "on L5," in scoring and "(4, 11)" not in scoring
    assert "L5" in page("crazymino") and "K4" in page("crazymino") and "M6" in page("crazymino")


@pytest.mark.parametrize(
    "name", ["mondo-board-standard.svg", "mondo-board-back.svg", "mondo-example.svg"]
)
def test_the_mondo_pictures_lose_the_space_numbers(name: str) -> None:
    drawn = (DOCS / name).read_text()
    shown = player_picture(name, drawn)
    assert 'fill="#888"' in drawn and 'fill="#888"' not in shown
    assert shown.count("<polygon") == drawn.count("<polygon")


def test_the_developers_notes_say_so_and_link_the_players_page() -> None:
    for game in SECTIONS:
        notes = (DOCS / f"{game}.md").read_text()
        assert notes.startswith(f"# {TITLES[game]}: the developers' notes on the rules\n")
        assert f"(../../app/web/rules/{game}.md)" in notes
