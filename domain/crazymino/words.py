"""Crazymino's events in words, as the game log shows them: every score with its whole detail.

Each sentence says only what the event given says: a redacted event (a hidden tile) reads
without the tile. A cell is named as the board's labels name it: its column's letter (A–N,
left to right) and its row's number (1–14, from the top), so (row 6, col 5) is F7.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.crazymino.board import TILE_COLOUR, TILE_CORNERS
from domain.crazymino.model import (
    Event,
    GameEnded,
    GameStarted,
    Score,
    TileDrawn,
    TilePlaced,
    TurnPassed,
    TurnSkipped,
)

_CORNERS = {
    0: "no corner",
    1: "one corner",
    2: "two corners",
    3: "three corners",
    4: "four corners",
}


_COLUMNS = "ABCDEFGHIJKLMN"


def cell_name(row: int, col: int) -> str:
    """The cell as the board's labels name it: (6, 5) is F7."""
    return f"{_COLUMNS[col]}{row + 1}"


def count(n: int, noun: str) -> str:
    """'1 point', '2 points'."""
    return f"{n} {noun if abs(n) == 1 else noun + 's'}"


def numbers(corners: Sequence[int]) -> str:
    if len(corners) == 4:  # a tile's corners: one f-string (the same words, faster)
        nw, ne, se, sw = corners
        return f"{nw}-{ne}-{se}-{sw}"
    return "-".join(map(str, corners))


def tile_words(tile: int) -> str:
    return f"a {TILE_COLOUR[tile]} tile {numbers(TILE_CORNERS[tile])}"


def score_words(score: Score) -> str:
    """`(sum + bonus) × corners × cell = total`, each factor named."""
    base = (
        f"{score.sum}"
        if not score.colour_bonus
        else f"({score.sum} + {score.colour_bonus} colour bonus)"
    )
    corners = _CORNERS[score.active_corners]
    if score.active_corners == 2:
        corners += ", bridging two groups" if score.bridged else ", one group"
    text = f"{base} × {score.corner_multiplier} ({corners})"
    if score.cell_multiplier > 1:
        text += f" × {score.cell_multiplier} (cell)"
    return f"{text} = {score.total} points"


def describe(event: Event, names: Sequence[str]) -> str:
    """The event in words."""

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "Someone"

    if isinstance(event, TilePlaced):  # the most common event, first and without a pattern
        return _placed(event, who(event.seat))
    match event:
        case GameStarted():
            order = ", ".join(who(s) for s in event.order)
            start = tile_words(event.start_tile)
            return (
                f"The game begins; turn order {order}. Each player is dealt 20 tiles; {start} "
                f"starts the board at {cell_name(event.start_row, event.start_col)}; "
                f"{count(event.pile_size, 'tile')} {'is' if event.pile_size == 1 else 'are'} "
                "left in the pile."
            )
        case TileDrawn(seat=seat, tile=tile, automatic=automatic):
            what = "a tile" if tile is None else tile_words(tile)
            if automatic:
                return f"{who(seat)} cannot lay a tile and draws {what}."
            return f"{who(seat)} draws {what}."
        case TurnPassed(seat=seat):
            return f"{who(seat)} passes."
        case TurnSkipped(seat=seat):
            return f"{who(seat)} cannot lay a tile and the pile is empty: the turn is skipped."
        case GameEnded(reason="last_tile", seat=seat, bonus=bonus):
            total = sum(b.points for b in bonus)
            parts = ", ".join(f"{who(b.opponent)} {b.points}" for b in bonus)
            return (
                f"{who(seat)} lays their last tile and gains {count(total, 'point')} from the "
                f"tiles left in the others' hands ({parts}). The game is over."
            )
        case GameEnded(reason="blocked"):
            return "Nobody can lay a tile and the pile is empty: the game is over."
        case GameEnded():
            return "The game ends here, with the scores as they stand (abandoned, or resigned)."
    return type(event).__name__


def _placed(event: TilePlaced, who: str) -> str:
    turned = f", turned {event.rotation}°" if event.rotation else ""
    return (
        f"{who} lays a {event.colour} tile {numbers(event.corners)} on "
        f"{cell_name(event.row, event.col)}{turned}: {score_words(event.score)}."
    )
