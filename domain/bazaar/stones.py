"""Stones and groups of stones: the five colours, carpets and wares as counts by colour.

A group of stones (a carpet, a ware, a side of an equation) is a tuple of five counts, one per
colour in the order of `COLOURS`. Events and views name the stones instead (`names`).
"""

from __future__ import annotations

from typing import Literal

from domain.bazaar.tables import LETTERS

Colour = Literal["red", "green", "blue", "white", "yellow"]
COLOURS: tuple[Colour, ...] = ("red", "green", "blue", "white", "yellow")
#: Counts by colour, in the order of COLOURS.
Stones = tuple[int, ...]
NO_STONES: Stones = (0,) * len(COLOURS)
#: The bag's six equally likely faces: a stone of each colour, or the joker.
BAG_FACES: tuple[Colour | Literal["joker"], ...] = (*COLOURS, "joker")
JOKER_FACE = len(COLOURS)
#: Precious: at least this many stones of one colour ("4 ou 5 pierres identiques").
PRECIOUS_RUN = 4


def counts(letters: str) -> Stones:
    """The stones of a group written as letters (``"RGY"``)."""
    return tuple(letters.count(letter) for letter in LETTERS)


def stone(colour: int) -> Stones:
    """One stone of the colour with this index."""
    return tuple(int(c == colour) for c in range(len(COLOURS)))


def names(stones: Stones) -> tuple[Colour, ...]:
    """Each stone's colour, in colour order: (``"red"``, ``"red"``, ``"blue"``)."""
    return tuple(colour for colour, n in zip(COLOURS, stones, strict=True) for _ in range(n))


def from_names(colours: tuple[Colour, ...] | list[Colour]) -> Stones:
    """The counts of stones named one by one."""
    return tuple(list(colours).count(colour) for colour in COLOURS)


def holds(carpet: Stones, group: Stones) -> bool:
    """Whether the carpet has every stone of the group."""
    return all(have >= need for have, need in zip(carpet, group, strict=True))


def plus(carpet: Stones, group: Stones) -> Stones:
    return tuple(a + b for a, b in zip(carpet, group, strict=True))


def minus(carpet: Stones, group: Stones) -> Stones:
    """The carpet without the group's stones (the caller knows it holds them)."""
    return tuple(a - b for a, b in zip(carpet, group, strict=True))


def missing(carpet: Stones, group: Stones) -> Stones:
    """The stones of the group that the carpet lacks."""
    return tuple(max(need - have, 0) for have, need in zip(carpet, group, strict=True))


def is_precious(ware: Stones) -> bool:
    """Four or five stones of one colour."""
    return max(ware) >= PRECIOUS_RUN
