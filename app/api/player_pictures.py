"""The rules pictures in a player's labels, made from the developers' pictures in docs/rules.

The developers' pictures number Crazymino's rows and columns from 0 and Mondo's spaces 0 to 23,
as the code does. A player's page names a Crazymino cell by its column letter (A to N, left to
right) and its row number (1 to 14, top to bottom), and has no use for Mondo's space numbers, so
the player's copies (`player-NAME.svg`) relabel those from the same file: one picture, drawn once.
"""

from __future__ import annotations

import re
from collections.abc import Callable

PREFIX = "player-"

_COLUMN_LABEL = re.compile(r'(<text [^>]*y="15" text-anchor="middle" font-size="11">)(\d+)</text>')
_ROW_LABEL = re.compile(r'(<text [^>]*text-anchor="end" font-size="11">)(\d+)</text>')
_CELL_IN_WORDS = re.compile(r"\((\d+), (\d+)\)")
_SPACE_NUMBER = re.compile(r'<text [^>]*fill="#888">\d+</text>\n?')


def cell_label(row: int, col: int) -> str:
    """'L5' for the cell the code calls (4, 11)."""
    return f"{chr(ord('A') + col)}{row + 1}"


def _crazymino(svg: str) -> str:
    svg = _COLUMN_LABEL.sub(lambda m: f"{m[1]}{chr(ord('A') + int(m[2]))}</text>", svg)
    svg = _ROW_LABEL.sub(lambda m: f"{m[1]}{int(m[2]) + 1}</text>", svg)
    return _CELL_IN_WORDS.sub(lambda m: cell_label(int(m[1]), int(m[2])), svg)


def _mondo(svg: str) -> str:
    return _SPACE_NUMBER.sub("", svg)


_RELABEL: dict[str, Callable[[str], str]] = {"crazymino": _crazymino, "mondo": _mondo}


def player_picture(name: str, svg: str) -> str:
    """The picture `name` (a docs/rules file name) in the labels the player's page uses."""
    relabel = _RELABEL.get(name.split("-", 1)[0])
    return relabel(svg) if relabel else svg
