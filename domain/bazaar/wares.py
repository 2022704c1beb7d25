"""The catalogue of wares, and the price of a purchase."""

from __future__ import annotations

from domain.bazaar.model import Price, Ware
from domain.bazaar.prices import points
from domain.bazaar.stones import Stones, counts, is_precious, names
from domain.bazaar.tables import WARES

STALLS = 4
WARES_PER_STALL = 6
#: Each ware's stones, by ware id.
WARE_STONES: tuple[Stones, ...] = tuple(counts(ware) for ware in WARES)
WARE_PRECIOUS: tuple[bool, ...] = tuple(is_precious(stones) for stones in WARE_STONES)
WARE_VIEWS: tuple[Ware, ...] = tuple(
    Ware(number, names(stones), precious)
    for number, (stones, precious) in enumerate(zip(WARE_STONES, WARE_PRECIOUS, strict=True))
)


def ware(number: int) -> Ware:
    """A ware as events and views show it."""
    return WARE_VIEWS[number]


def price(number: int, left: int, stall_empty: bool) -> Price:
    """The price of ware `number` when `left` stones stay on the carpet after paying it."""
    precious = WARE_PRECIOUS[number]
    return Price(
        kind="precious" if precious else "cheap",
        left=left,
        stall_empty=stall_empty,
        points=points(precious, left, stall_empty),
    )
