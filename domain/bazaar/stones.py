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


# The three below are written out for the five colours: the `hard` planner calls them in its
# innermost loop.


def holds(carpet: Stones, group: Stones) -> bool:
    """Whether the carpet has every stone of the group."""
    return (
        carpet[0] >= group[0]
        and carpet[1] >= group[1]
        and carpet[2] >= group[2]
        and carpet[3] >= group[3]
        and carpet[4] >= group[4]
    )


def plus(carpet: Stones, group: Stones) -> Stones:
    return (
        carpet[0] + group[0],
        carpet[1] + group[1],
        carpet[2] + group[2],
        carpet[3] + group[3],
        carpet[4] + group[4],
    )


def minus(carpet: Stones, group: Stones) -> Stones:
    """The carpet without the group's stones (the caller knows it holds them)."""
    return (
        carpet[0] - group[0],
        carpet[1] - group[1],
        carpet[2] - group[2],
        carpet[3] - group[3],
        carpet[4] - group[4],
    )


def missing(carpet: Stones, group: Stones) -> Stones:
    """The stones of the group that the carpet lacks."""
    return (
        group[0] - carpet[0] if group[0] > carpet[0] else 0,
        group[1] - carpet[1] if group[1] > carpet[1] else 0,
        group[2] - carpet[2] if group[2] > carpet[2] else 0,
        group[3] - carpet[3] if group[3] > carpet[3] else 0,
        group[4] - carpet[4] if group[4] > carpet[4] else 0,
    )


def is_precious(ware: Stones) -> bool:
    """Four or five stones of one colour."""
    return max(ware) >= PRECIOUS_RUN
