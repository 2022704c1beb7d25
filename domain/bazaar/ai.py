"""AI policies `easy` and `normal`: pure functions of one seat's own view (`hard` is in
`planner`). What a seat reads off its view for playing is gathered in `Seen`."""

from __future__ import annotations

from typing import NamedTuple

from domain.bazaar import moves
from domain.bazaar.model import Buy, ChooseColour, Command, Draw, EndTurn
from domain.bazaar.stones import COLOURS, Stones, from_names, missing, plus, stone
from domain.bazaar.views import BazaarView


class Seen(NamedTuple):
    """What a seat knows when it plays: its carpet, the table, the stalls' tops and counts."""

    phase: str
    carpet: Stones
    cards: tuple[int, ...]
    tops: tuple[Stones | None, ...]
    counts: tuple[int, ...]
    stall_empty: bool


def seen(view: BazaarView) -> Seen:
    seat = view.viewer if view.viewer is not None else 0
    c = view.seats[seat].carpet
    return Seen(
        phase=view.phase,
        carpet=(c.red, c.green, c.blue, c.white, c.yellow),
        cards=tuple(dict.fromkeys(equation.card for equation in view.exchange)),
        tops=tuple(None if s.top is None else from_names(s.top.stones) for s in view.stalls),
        counts=tuple(s.count for s in view.stalls),
        stall_empty=view.stall_empty,
    )


def legal_from_view(view: BazaarView) -> list[Command]:
    """The viewer's legal commands, worked out from what the viewer sees."""
    if view.viewer is None or view.to_play != view.viewer or view.phase == "over":
        return []
    me = seen(view)
    return moves.legal(view.phase, me.carpet, me.cards, me.tops)


def random_legal(view: BazaarView, entropy: int, now: int = 0) -> Command:
    """`easy`: any legal command, chosen by the entropy the caller drew."""
    commands = legal_from_view(view)
    return commands[entropy % len(commands)] if commands else EndTurn()


def closest_colour(carpet: Stones, tops: tuple[Stones | None, ...]) -> int:
    """The colour whose stone leaves the fewest stones missing for some visible ware (the
    lowest colour on ties)."""

    def shortfall(colour: int) -> int:
        after = plus(carpet, stone(colour))
        return min((sum(missing(after, top)) for top in tops if top is not None), default=0)

    return min(range(len(COLOURS)), key=shortfall)


def greedy(view: BazaarView, entropy: int = 0, now: int = 0) -> Command:
    """`normal`: draw until a visible ware is affordable, then buy the one that scores most
    (a joker takes the colour that brings a ware closest)."""
    me = seen(view)
    if me.phase == "choose_colour":
        return ChooseColour(COLOURS[closest_colour(me.carpet, me.tops)])
    if me.phase == "draw_or_trade":
        return Draw()
    offers = [
        (s.offer.price.points, -s.stall)
        for s in view.stalls
        if s.offer is not None and s.offer.price is not None and s.offer.can_buy
    ]
    return Buy(-max(offers)[1]) if offers else EndTurn()
