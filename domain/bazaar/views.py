"""What each viewer may see: everything but the wares under each stall's top and the bag.

Carpets, scores, the exchange table, each stall's top ware and count are public. A seat's view
also prices each top ware for that seat, so that a client never works out a rule itself. Once
the game is over, the service shows the raw events (every stall's wares and the seed).
"""

from __future__ import annotations

from typing import Literal

from msgspec import Struct
from msgspec.structs import replace

from domain.bazaar import exchange
from domain.bazaar.model import (
    Equation,
    Event,
    GameEnded,
    GameStarted,
    Phase,
    Price,
    State,
    Ware,
    WareBought,
)
from domain.bazaar.prices import PRICES
from domain.bazaar.stones import BAG_FACES, Colour, Stones, holds, minus, missing, names
from domain.bazaar.wares import WARE_STONES, price, ware


class Carpet(Struct, frozen=True):
    """The stones on a carpet, counted by colour."""

    red: int
    green: int
    blue: int
    white: int
    yellow: int


class SeatView(Struct, frozen=True):
    """One seat: its carpet (public), its score and the wares it bought."""

    seat: int
    name: str
    score: int
    carpet: Carpet
    stones: int
    wares: int


class Offer(Struct, frozen=True):
    """What the top ware of a stall means for the viewing seat now: the price buying it would
    score (None when the carpet lacks stones: `missing` names them), and whether buying it is
    a legal command right now (the turn's draw or trade done)."""

    price: Price | None
    missing: tuple[Colour, ...]
    can_buy: bool


class StallView(Struct, frozen=True):
    """A stall: its top ware (None once empty) and how many wares it holds, that one included."""

    stall: int
    top: Ware | None
    count: int
    offer: Offer | None


class PriceRow(Struct, frozen=True):
    """One row of the price table: points for 0, 1, 2 and 3 or more stones left."""

    kind: Literal["cheap", "precious"]
    stall_empty: bool
    points: tuple[int, ...]


class BazaarView(Struct, frozen=True):
    """Enough to draw the table and to play: the exchange table, the stalls, every carpet.

    `phase` is the turn's step of the seat to play (`over` once the game has ended); `joker` is
    true while that seat must choose its joker's colour; `stall_empty` tells which side of the
    price table applies; `bag` lists the bag's six equally likely faces; `draws` counts the
    draws made so far."""

    viewer: int | None
    seats: tuple[SeatView, ...]
    order: tuple[int, ...]
    to_play: int | None
    phase: Phase | Literal["over"]
    joker: bool
    exchange: tuple[Equation, ...]
    stalls: tuple[StallView, ...]
    stall_empty: bool
    prices: tuple[PriceRow, ...]
    bag: tuple[Colour | Literal["joker"], ...]
    draws: int
    sales: tuple[WareBought, ...]
    ended: GameEnded | None


PRICE_ROWS = tuple(
    PriceRow("precious" if precious else "cheap", empty, points)
    for (empty, precious), points in PRICES.items()
)


def carpet(stones: Stones) -> Carpet:
    return Carpet(*stones)


def offer(state: State, seat: int, top: int) -> Offer:
    """What buying ware `top` would score for `seat` now."""
    have, cost = state.carpets[seat], WARE_STONES[top]
    if not holds(have, cost):
        return Offer(None, names(missing(have, cost)), can_buy=False)
    paid = price(top, sum(minus(have, cost)), any(not s for s in state.stalls))
    can_buy = state.seat_to_play == seat and state.phase == "buy_or_end"
    return Offer(paid, (), can_buy)


def view(state: State, viewer: int | None) -> BazaarView:
    """The state as `viewer` (a seat, or None for a spectator) may see it."""
    bought = [0] * len(state.players)
    for sale in state.sales:
        bought[sale.seat] += 1
    seats = tuple(
        SeatView(seat, name, state.scores[seat], carpet(c), sum(c), bought[seat])
        for seat, (name, c) in enumerate(zip(state.players, state.carpets, strict=True))
    )
    stalls = tuple(
        StallView(
            stall=number,
            top=ware(wares[0]) if wares else None,
            count=len(wares),
            offer=offer(state, viewer, wares[0]) if wares and viewer is not None else None,
        )
        for number, wares in enumerate(state.stalls)
    )
    return BazaarView(
        viewer=viewer,
        seats=seats,
        order=state.order,
        to_play=state.seat_to_play,
        phase="over" if state.ended is not None else state.phase,
        joker=state.ended is None and state.phase == "choose_colour",
        exchange=exchange.equations(state.cards),
        stalls=stalls,
        stall_empty=any(not s for s in state.stalls),
        prices=PRICE_ROWS,
        bag=BAG_FACES,
        draws=state.draws,
        sales=state.sales,
        ended=state.ended,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """An event as `viewer` may see it while the game runs: the deal's hidden wares and the
    seed go; everything else is public (drawn stones land on a public carpet)."""
    if isinstance(event, GameStarted):
        return replace(event, stalls=None, seed=None)
    return event
