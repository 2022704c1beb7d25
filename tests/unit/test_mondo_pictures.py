"""The rules page's pictures are made by `domain/mondo/making/pictures.py` from the game's own
data."""

from __future__ import annotations

from pathlib import Path

import pytest
from test_mondo_worked_example import HER

from domain.mondo.faces import ORIENTED
from domain.mondo.making import pictures

DOCS = Path(__file__).resolve().parents[2] / "docs" / "rules"


@pytest.mark.parametrize("name", sorted(pictures.PICTURES))
def test_each_picture_is_what_the_script_makes(name: str) -> None:
    assert (DOCS / f"mondo-{name}.svg").read_text() == pictures.PICTURES[name]()


def test_the_example_picture_is_the_worked_example_tested() -> None:
    laid = {s: (p.tile, p.rotation // 90) for s, p in enumerate(HER) if p and p.face == "variable"}
    assert laid == pictures.EXAMPLE
    assert HER[23] is None and all(p is not None for p in HER[:23])


def test_a_picture_draws_every_edge_and_marks_volcanoes_and_animals() -> None:
    svg = "".join(pictures.face_svg(ORIENTED[36][1][0], 0, 0))  # tile 36: a steppe bay in water
    assert svg.count("<polygon") == 4 + 1  # four edges and the volcano
    assert svg.count("<line") == 2  # the steppe region's two borders
    assert "#d62828" in svg and ">Bu</text>" in svg
