"""Make Bazaar's fixed data: the 10 exchange cards and the catalogue of 45 wares.

The output is the source of ``tables.py``, which sits beside this script. Regenerate it from the
project root with::

    python domain/bazaar/making/make_tables.py > domain/bazaar/tables.py

Everything is deterministic: a fixed search order and a tiny inline pseudo-random generator (no
``random`` module), so the command reproduces ``tables.py`` byte for byte.

A stone is written as one letter: R red, G green, B blue, W white, Y yellow. A side of an
equation and a ware are strings of letters in that order (``"RGY"``).
"""

from collections.abc import Iterator
from itertools import combinations_with_replacement
from typing import TypeVar

T = TypeVar("T")
Equation = tuple[str, str]

COLOURS: tuple[str, ...] = ("red", "green", "blue", "white", "yellow")
LETTERS = "RGBWY"  # one letter per colour, in the order of COLOURS

#: The sizes of the two sides of a card's five equations (the single stone on the left).
CARD_SIZES: tuple[tuple[int, int], ...] = ((1, 2), (1, 3), (1, 4), (2, 2), (2, 3))
CARDS = 10
SINGLES_PER_COLOUR = CARDS * 3 // len(LETTERS)  # the 1-stone sides spread evenly: 6 each
#: The rules' example ("une pierre rouge contre une jaune, une bleue et une verte") is
#: card 0's 1-for-3 equation.
RULES_EXAMPLE: Equation = ("R", "GBY")
MOST_OF_A_COLOUR = 2  # stones of one colour on one side of an equation
SPREAD = 3  # the most the deck's counts of two colours may differ, card after card
_CARD_SEED = 0x5EED_BA2A

#: Which orbits of wares (under the colour cycle R→G→B→W→Y→R) make the catalogue, by pattern of
#: equal stones; each orbit gives five wares, one with each colour in the lead.
WARE_PATTERNS: tuple[tuple[str, int], ...] = (
    ("5", 1),  # precious: five of one colour
    ("4-1", 2),  # precious: four of one colour and one other
    ("3-2", 1),
    ("3-1-1", 2),
    ("2-2-1", 2),
    ("2-1-1-1", 1),
)
_WARE_SEED = 0xC0FFEE


def _random(seed: int) -> Iterator[int]:
    """A 32-bit linear congruential generator (Numerical Recipes constants)."""
    state = seed
    while True:
        state = (1664525 * state + 1013904223) % 2**32
        yield state


def _shuffled(items: list[T], stream: Iterator[int]) -> list[T]:
    """Fisher-Yates, taking the high bits of each draw (the good ones of an LCG)."""
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        j = next(stream) * (i + 1) >> 32
        result[i], result[j] = result[j], result[i]
    return result


def sides(size: int) -> list[str]:
    """Every group of `size` stones, letters in colour order."""
    return ["".join(group) for group in combinations_with_replacement(LETTERS, size)]


def connected(equations: list[Equation]) -> bool:
    """Whether the colours form one group when an equation links each colour of one side with
    each colour of the other (every colour reachable from every other through trades)."""
    reached = {LETTERS[0]}
    grew = True
    while grew:
        grew = False
        for left, right in equations:
            for one, other in ((left, right), (right, left)):
                if set(one) & reached and not set(other) <= reached:
                    reached |= set(other)
                    grew = True
    return reached == set(LETTERS)


def _varied(side: str) -> bool:
    """At most two stones of one colour on a side."""
    return all(side.count(x) <= MOST_OF_A_COLOUR for x in side)


def _even(stones: dict[str, int], card: list[Equation]) -> bool:
    """Whether the deck's stones of each colour stay within SPREAD of each other with `card`."""
    counts = dict(stones)
    for left, right in card:
        for x in left + right:
            counts[x] += 1
    return max(counts.values()) - min(counts.values()) <= SPREAD


def _candidates(size: tuple[int, int], stream: Iterator[int]) -> list[Equation]:
    """Every equation of the given sizes with no colour on both sides, in a seeded order
    (written once: with sides of equal size, the smaller side on the left)."""
    pairs = [
        (left, right)
        for left in sides(size[0])
        for right in sides(size[1])
        if not set(left) & set(right) and _varied(left) and _varied(right)
        if size[0] < size[1] or left < right
    ]
    return _shuffled(pairs, stream)


def exchange_cards() -> tuple[tuple[Equation, ...], ...]:
    """10 cards of 5 equations, one of each size in CARD_SIZES.

    On each card the three 1-stone sides are three different colours and the five equations
    link all five colours; a side holds at most two stones of one colour; over the deck each
    colour is a 1-stone side six times, the colours' counts of stones stay within SPREAD of
    each other, and no equation appears twice. Card 0 holds the rules' example. Depth-first
    search over seeded candidate orders.
    """
    stream = _random(_CARD_SEED)
    pools = [_candidates(size, stream) for size in CARD_SIZES]
    singles = dict.fromkeys(LETTERS, 0)
    stones = dict.fromkeys(LETTERS, 0)
    used: set[Equation] = set()
    deck: list[tuple[Equation, ...]] = []

    def card(chosen: list[Equation]) -> bool:
        if len(chosen) == len(CARD_SIZES):
            return connected(chosen) and _even(stones, chosen)
        if not deck and CARD_SIZES[len(chosen)] == (1, 3):
            pool = [RULES_EXAMPLE]
        else:  # the colours least used as a single stone so far first: an even deck
            pool = sorted(pools[len(chosen)], key=lambda e: singles.get(e[0], 0))
        for equation in pool:
            single = equation[0] if len(equation[0]) == 1 else ""
            if equation in used or single in {e[0] for e in chosen}:
                continue
            if single and singles[single] >= SINGLES_PER_COLOUR:
                continue
            chosen.append(equation)
            if card(chosen):
                return True
            chosen.pop()
        return False

    for _ in range(CARDS):
        chosen: list[Equation] = []
        if not card(chosen):
            raise RuntimeError("no card fits the constraints")
        for left, right in chosen:
            if len(left) == 1:
                singles[left] += 1
            for x in left + right:
                stones[x] += 1
        used.update(chosen)
        deck.append(tuple(chosen))
        pools = [_shuffled(pool, stream) for pool in pools]  # the next card, a new order
    return tuple(deck)


def pattern(ware: str) -> str:
    """The counts of equal stones, largest first: "3-1-1" for RRRGY."""
    return "-".join(str(n) for n in sorted((ware.count(x) for x in set(ware)), reverse=True))


def cycled(ware: str, steps: int) -> str:
    """The ware with each colour moved `steps` along the cycle R→G→B→W→Y→R."""
    moved = (LETTERS[(LETTERS.index(x) + steps) % len(LETTERS)] for x in ware)
    return "".join(sorted(moved, key=LETTERS.index))


def wares() -> tuple[str, ...]:
    """The 45 wares: for each pattern of WARE_PATTERNS, the chosen number of orbits (picked in a
    seeded order), each orbit the five colour-cycled copies of one ware. Precious first."""
    stream = _random(_WARE_SEED)
    catalogue: list[str] = []
    for kind, orbits in WARE_PATTERNS:
        seen: set[str] = set()
        representatives = []
        for ware in sides(5):
            if pattern(ware) == kind and ware not in seen:
                seen.update(cycled(ware, s) for s in range(len(LETTERS)))
                representatives.append(ware)
        for ware in sorted(_shuffled(representatives, stream)[:orbits]):
            catalogue += [cycled(ware, s) for s in range(len(LETTERS))]
    return tuple(catalogue)


def render() -> str:
    """The full source text of tables.py."""

    def card_lines(number: int, card: tuple[Equation, ...]) -> list[str]:
        return [
            f"    (  # card {number}",
            *(f'        ("{left}", "{right}"),' for left, right in card),
            "    ),",
        ]

    out = [
        "# GENERATED by domain/bazaar/making/make_tables.py: do not edit by hand.",
        "# Regenerate from the project root with:",
        "#     python domain/bazaar/making/make_tables.py > domain/bazaar/tables.py",
        '"""Bazaar\'s fixed data: the colours, the 10 exchange cards and the 45 wares.',
        "",
        "A stone is one letter (R red, G green, B blue, W white, Y yellow). An exchange card is",
        "five two-way equations (left side, right side); a ware is five stones. A card's id and a",
        "ware's id are their indexes here.",
        '"""',
        "",
        "COLOURS: tuple[str, ...] = (" + ", ".join(f'"{c}"' for c in COLOURS) + ")",
        f'LETTERS = "{LETTERS}"',
        "",
        "EXCHANGE_CARDS: tuple[tuple[tuple[str, str], ...], ...] = (",
    ]
    for number, card in enumerate(exchange_cards()):
        out += card_lines(number, card)
    out += [
        ")",
        "",
        "WARES: tuple[str, ...] = (",
        *(f'    "{ware}",  # {pattern(ware)}' for ware in wares()),
        ")",
    ]
    return "\n".join(out) + "\n"


def rules_page() -> str:
    """The exchange cards and the catalogue as Markdown, as ``docs/rules/bazaar.md`` shows them
    (a test checks that the page holds this text)."""
    sizes = " | ".join(f"{a} ⇄ {b}" for a, b in CARD_SIZES)
    lines = [f"| card | {sizes} |", "|---" * (len(CARD_SIZES) + 1) + "|"]
    for number, card in enumerate(exchange_cards()):
        cells = " | ".join(f"{left} ⇄ {right}" for left, right in card)
        lines.append(f"| {number} | {cells} |")
    lines += ["", "| pattern | kind | wares (ids) |", "|---|---|---|"]
    catalogue = wares()
    for kind, _orbits in WARE_PATTERNS:
        ids = [n for n, ware in enumerate(catalogue) if pattern(ware) == kind]
        quality = "precious" if int(kind[0]) >= 4 else "cheap"
        listed = ", ".join(catalogue[n] for n in ids)
        lines.append(f"| {kind} | {quality} | {listed} ({ids[0]}–{ids[-1]}) |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
