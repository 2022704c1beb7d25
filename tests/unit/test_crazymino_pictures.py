"""The rules page's pictures are made by `domain/crazymino/making/pictures.py` from the game's
data."""

from __future__ import annotations

from pathlib import Path

import pytest
from crazymino_builders import state

from domain.crazymino.game import CRAZYMINO
from domain.crazymino.making import pictures
from domain.crazymino.model import PlaceTile, TilePlaced

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("name", sorted(pictures.PICTURES))
def test_each_picture_is_what_the_script_makes(name: str) -> None:
    assert (DOCS / f"crazymino-{name}.svg").read_text() == pictures.PICTURES[name]()


def test_the_scoring_picture_shows_what_the_rules_score() -> None:
    game = state(pictures.EXAMPLE_LAID, hands=((pictures.EXAMPLE_TILE, 1), (2,)), pile=(3,))
    row, col = pictures.EXAMPLE_CELL
    command = PlaceTile(pictures.EXAMPLE_TILE, pictures.EXAMPLE_ROTATION, row, col)
    placed = CRAZYMINO.decide(game, 0, command)[0]
    assert isinstance(placed, TilePlaced)
    assert placed.score == pictures.example_score()
    assert placed.score.total == 160 and "= 160 points" in pictures.scoring()
    page = (DOCS / "crazymino.md").read_text()
    assert "crazymino-board.svg" in page and "crazymino-scoring.svg" in page
