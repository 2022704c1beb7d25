"""The exchange table: the two exchange cards of a game, ten two-way equations.

"Le tableau d'échanges ... fonctionne dans les deux sens": a trade pays the stones of one side
and takes the other side's.
"""

from __future__ import annotations

import functools

from domain.bazaar.model import DIRECTIONS, Direction, Equation
from domain.bazaar.stones import Stones, counts, names
from domain.bazaar.tables import EXCHANGE_CARDS

#: Each exchange card's five equations as (left, right) groups of stones, by card id.
CARD_EQUATIONS: tuple[tuple[tuple[Stones, Stones], ...], ...] = tuple(
    tuple((counts(left), counts(right)) for left, right in card) for card in EXCHANGE_CARDS
)
CARDS_PER_GAME = 2
#: One trade: (equation number, direction, the stones paid, the stones taken).
Move = tuple[int, Direction, Stones, Stones]


@functools.cache
def table(cards: tuple[int, ...]) -> tuple[tuple[Stones, Stones], ...]:
    """The table's equations: the first card's five, then the second's."""
    return tuple(equation for card in cards for equation in CARD_EQUATIONS[card])


@functools.cache
def moves(cards: tuple[int, ...]) -> tuple[Move, ...]:
    """Every trade of the table: each equation in both directions."""
    return tuple(
        (index, direction, *((left, right) if direction == DIRECTIONS[0] else (right, left)))
        for index, (left, right) in enumerate(table(cards))
        for direction in DIRECTIONS
    )


def trade(cards: tuple[int, ...], equation: int, direction: Direction) -> tuple[Stones, Stones]:
    """What a trade pays and what it takes."""
    left, right = table(cards)[equation]
    return (left, right) if direction == DIRECTIONS[0] else (right, left)


@functools.cache
def equations(cards: tuple[int, ...]) -> tuple[Equation, ...]:
    """The table as events and views show it."""
    per_card = len(CARD_EQUATIONS[0])
    return tuple(
        Equation(index, cards[index // per_card], names(left), names(right))
        for index, (left, right) in enumerate(table(cards))
    )
