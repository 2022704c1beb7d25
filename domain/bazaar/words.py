"""Bazaar's events in words, as the game log shows them: every price with its basis.

Each sentence says only what the event given says: the redacted deal reads without the wares
under the stalls' tops (it never names them anyway).
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.bazaar.model import (
    ColourChosen,
    Drawn,
    Equation,
    Event,
    GameEnded,
    GameStarted,
    Price,
    Traded,
    TurnEnded,
    Ware,
    WareBought,
)
from domain.bazaar.stones import COLOURS, Colour

STALL_NAMES = ("first", "second", "third", "fourth")


def stones_words(stones: Sequence[Colour]) -> str:
    """``3 red + 2 blue``, colours in their order."""
    return " + ".join(f"{stones.count(c)} {c}" for c in COLOURS if c in stones) or "nothing"


def ware_words(ware: Ware) -> str:
    kind = "precious" if ware.precious else "cheap"
    return f"a {kind} ware ({stones_words(ware.stones)})"


def equation_words(equation: Equation) -> str:
    return f"{stones_words(equation.left)} ⇄ {stones_words(equation.right)}"


def price_words(price: Price) -> str:
    """``2 stones left, every stall stocked: 2 points``."""
    left = {0: "no stone left", 1: "1 stone left"}.get(price.left, f"{price.left} stones left")
    stalls = "a stall empty" if price.stall_empty else "every stall stocked"
    return f"{left}, {stalls}: {price.points} point{'s' if price.points != 1 else ''}"


def stall_words(stall: int) -> str:
    return f"the {STALL_NAMES[stall]} stall" if 0 <= stall < len(STALL_NAMES) else "a stall"


def describe(event: Event, names: Sequence[str]) -> str:
    """The event in words."""

    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "Someone"

    match event:
        case GameStarted():
            order = ", ".join(who(s) for s in event.order)
            table = "; ".join(equation_words(e) for e in event.exchange)
            tops = "; ".join(ware_words(t) for t in event.tops)
            return (
                f"The game begins; turn order {order}. Exchange cards "
                f"{' and '.join(map(str, event.cards))}: {table}. Four stalls of "
                f"{max(event.counts, default=0)} wares show {tops}."
            )
        case Drawn(seat=seat, face="joker"):
            return f"{who(seat)} draws the joker."
        case Drawn(seat=seat, face=face):
            return f"{who(seat)} draws a {face} stone."
        case ColourChosen(seat=seat, stone=stone):
            return f"{who(seat)} takes a {stone} stone for the joker."
        case Traded(seat=seat, gave=gave, took=took):
            return f"{who(seat)} trades {stones_words(gave)} for {stones_words(took)}."
        case WareBought():
            shown = (
                f"{stall_words(event.stall)} now shows {ware_words(event.revealed)} "
                f"({event.left_in_stall} left)"
                if event.revealed is not None
                else f"{stall_words(event.stall)} is empty"
            )
            return (
                f"{who(event.seat)} buys {ware_words(event.ware)} from "
                f"{stall_words(event.stall)} with {price_words(event.price)}; {shown}."
            )
        case TurnEnded(seat=seat):
            return f"{who(seat)} ends the turn."
        case GameEnded(reason="abandoned"):
            return "Nobody has played for a long time: the game ends, abandoned."
        case GameEnded(scores=scores, winners=winners):
            best = max(scores, default=0)
            if len(scores) == 1:
                return f"The last ware is sold: the game is over with {best} points."
            won = " and ".join(who(s) for s in winners)
            verb = "win" if len(winners) > 1 else "wins"
            return f"The last ware is sold: the game is over. {won} {verb} with {best} points."
    return type(event).__name__
