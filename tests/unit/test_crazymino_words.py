"""Crazymino's log in words, and the hints of its legal commands."""

from __future__ import annotations

import random

from domain.crazymino.game import CRAZYMINO
from domain.crazymino.model import GameEnded, PlaceTile, Score, TileDrawn, TilePlaced
from domain.crazymino.words import cell_name, score_words
from domain.game import Setup

NAMES = ("Ann", "Bob", "Cy")


def test_a_placement_reads_with_its_whole_score() -> None:
    score = Score(
        sum=13,
        colour_bonus=10,
        active_corners=2,
        bridged=True,
        corner_multiplier=2,
        cell_multiplier=3,
        total=138,
    )
    placed = TilePlaced(
        seat=1, tile=99, row=6, col=8, rotation=90, colour="blue", corners=(4, 1, 2, 6), score=score
    )
    text = CRAZYMINO.describe(placed, NAMES)
    assert text == (
        "Bob lays a blue tile 4-1-2-6 on I7, turned 90°: (13 + 10 colour bonus) × 2 "
        "(two corners, bridging two groups) × 3 (cell) = 138 points."
    )
    plain = Score(
        sum=9,
        colour_bonus=0,
        active_corners=1,
        bridged=False,
        corner_multiplier=1,
        cell_multiplier=1,
        total=9,
    )
    assert score_words(plain) == "9 × 1 (one corner) = 9 points"


def test_a_hidden_draw_reads_without_its_tile() -> None:
    drawn = TileDrawn(seat=0, tile=42, automatic=False)
    assert "42" not in CRAZYMINO.describe(CRAZYMINO.redact(drawn, 1), NAMES)
    assert CRAZYMINO.describe(CRAZYMINO.redact(drawn, 1), NAMES) == "Ann draws a tile."
    assert "tile 3-" in CRAZYMINO.describe(drawn, NAMES) or "tile" in CRAZYMINO.describe(
        drawn, NAMES
    )
    assert "abandoned" in CRAZYMINO.describe(GameEnded(reason="abandoned"), NAMES)


def test_hints_are_the_scores_the_placements_get() -> None:
    rng = random.Random(5)
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=5, players=NAMES)))
    for _ in range(15):
        (seat,) = CRAZYMINO.to_act(state)
        legal = CRAZYMINO.legal(state, seat)
        hints = CRAZYMINO.hints(state, seat, legal)
        for command, hint in zip(legal, hints, strict=True):
            if isinstance(command, PlaceTile):
                placed = CRAZYMINO.decide(state, seat, command)[0]
                assert isinstance(placed, TilePlaced) and hint == placed.score
            else:
                assert hint is None
        state = CRAZYMINO.fold(state, CRAZYMINO.decide(state, seat, rng.choice(legal)))


def test_a_cell_is_named_as_the_boards_labels_name_it() -> None:
    assert cell_name(0, 0) == "A1"
    assert cell_name(6, 5) == "F7"
    assert cell_name(13, 13) == "N14"
