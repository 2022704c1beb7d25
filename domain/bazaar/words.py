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


def plural(count: int, one: str, many: str | None = None) -> str:
    """``1 stone``, ``2 stones``, ``0 points``."""
    return f"{count} {one if count == 1 else (many or one + 's')}"


def stones_words(stones: Sequence[Colour]) -> str:
    """``3 red + 2 blue``, colours in their order (an equation's side, a ware's stones)."""
    return " + ".join(f"{stones.count(c)} {c}" for c in COLOURS if c in stones) or "nothing"


def group_words(stones: Sequence[Colour]) -> str:
    """Stones paid or taken, with their noun: ``1 red stone``, ``2 blue stones``, ``3 stones
    (1 green + 1 blue + 1 yellow)``, ``no stone``."""
    colours = [c for c in COLOURS if c in stones]
    if not colours:
        return "no stone"
    if len(colours) == 1:
        return plural(len(stones), f"{colours[0]} stone")
    return f"{plural(len(stones), 'stone')} ({stones_words(stones)})"


def ware_words(ware: Ware) -> str:
    kind = "precious" if ware.precious else "cheap"
    return f"a {kind} ware ({stones_words(ware.stones)})"


def equation_words(equation: Equation) -> str:
    return f"{stones_words(equation.left)} ⇄ {stones_words(equation.right)}"


def price_words(price: Price) -> str:
    """``2 stones left, every stall stocked: 2 points``."""
    left = "no stone left" if price.left == 0 else f"{plural(price.left, 'stone')} left"
    stalls = "a stall empty" if price.stall_empty else "every stall stocked"
    return f"{left}, {stalls}: {plural(price.points, 'point')}"


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
                f"{plural(max(event.counts, default=0), 'ware')} show {tops}."
            )
        case Drawn(seat=seat, face="joker"):
            return f"{who(seat)} draws the joker."
        case Drawn(seat=seat, face=face):
            return f"{who(seat)} draws a {face} stone."
        case ColourChosen(seat=seat, stone=stone):
            return f"{who(seat)} takes a {stone} stone for the joker."
        case Traded(seat=seat, gave=gave, took=took):
            return f"{who(seat)} trades {group_words(gave)} for {group_words(took)}."
        case WareBought():
            shown = (
                f"{stall_words(event.stall)} now shows {ware_words(event.revealed)} "
                f"({plural(event.left_in_stall, 'ware')} left)"
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
            return "The game ends here, with the scores as they stand (abandoned, or resigned)."
        case GameEnded(scores=scores, reason=reason):
            # No winner is named here: a seat lost to its player counts last whatever its score
            # (`domain.seating`), which the end of the table says.
            final = ", ".join(
                f"{who(s)} {plural(score, 'point')}" for s, score in enumerate(scores)
            )
            if reason == "last_round":
                return f"The last round is played: the game is over. Scores: {final}."
            return f"The last ware is sold: the game is over. Scores: {final}."
    return type(event).__name__
