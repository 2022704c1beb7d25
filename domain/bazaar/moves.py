"""Every command a seat may send, worked out from what that seat sees.

The rules (`Bazaar.legal`) and the AI (from a seat's view) both list commands with this one
function, so they cannot disagree.
"""

from __future__ import annotations

from collections.abc import Sequence

from domain.bazaar import exchange
from domain.bazaar.model import Buy, ChooseColour, Command, Draw, EndTurn, Phase, Trade
from domain.bazaar.stones import COLOURS, Stones, holds


def legal(
    phase: Phase, carpet: Stones, cards: tuple[int, ...], tops: Sequence[Stones | None]
) -> list[Command]:
    """The commands of the seat to play, in the turn's `phase`, with `carpet`, the table of
    `cards` and the stalls' top wares (None for an empty stall)."""
    if phase == "choose_colour":
        return [ChooseColour(colour) for colour in COLOURS]
    if phase == "draw_or_trade":
        commands: list[Command] = [Draw()]
        for number, direction, gave, _took in exchange.moves(cards):
            if holds(carpet, gave):
                commands.append(Trade(number, direction))
        return commands
    buys: list[Command] = [
        Buy(stall) for stall, top in enumerate(tops) if top is not None and holds(carpet, top)
    ]
    return [*buys, EndTurn()]
