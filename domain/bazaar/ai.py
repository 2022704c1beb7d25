"""AI policies `easy` and `normal`: pure functions of one seat's own view (`hard` is in
`planner`). What a seat reads off its view for playing is gathered in `Seen`.

`normal` looks one step ahead only: it sums a carpet up by its shortfall (the fewest stones it
lacks for a visible ware) and trades when the best trade of the table leaves a shortfall below
what a draw leaves on average; otherwise it draws. It buys as soon as it can, whatever is left
over, which is where `hard` outplays it."""

from __future__ import annotations

from typing import NamedTuple

from domain.bazaar import exchange, moves
from domain.bazaar.model import Buy, ChooseColour, Command, Draw, EndTurn, Trade
from domain.bazaar.stones import (
    COLOURS,
    Stones,
    from_names,
    holds,
    minus,
    missing,
    plus,
    stone,
)
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


def shortfall(carpet: Stones, tops: tuple[Stones | None, ...]) -> int:
    """The fewest stones the carpet lacks for one of the visible wares (0: one is affordable)."""
    return min((sum(missing(carpet, top)) for top in tops if top is not None), default=0)


def closest_colour(carpet: Stones, tops: tuple[Stones | None, ...]) -> int:
    """The colour whose stone leaves the fewest stones missing for some visible ware (the
    lowest colour on ties)."""
    return min(range(len(COLOURS)), key=lambda k: shortfall(plus(carpet, stone(k)), tops))


def drawn_shortfall(carpet: Stones, tops: tuple[Stones | None, ...]) -> float:
    """The shortfall a draw leaves on average: five colours and the joker (which takes the
    closest colour), equally likely."""
    faces = [shortfall(plus(carpet, stone(k)), tops) for k in range(len(COLOURS))]
    return (sum(faces) + min(faces)) / (len(faces) + 1)


def closest_trade(me: Seen) -> tuple[Trade, int] | None:
    """The trade that leaves the smallest shortfall, and that shortfall (on ties the fewest
    stones on the carpet, then the table's order); None when the carpet pays for none."""
    best: tuple[int, int, Trade] | None = None
    for number, direction, gave, took in exchange.moves(me.cards):
        if holds(me.carpet, gave):
            after = plus(minus(me.carpet, gave), took)
            option = (shortfall(after, me.tops), sum(after), Trade(number, direction))
            if best is None or option[:2] < best[:2]:
                best = option
    return None if best is None else (best[2], best[0])


def greedy(view: BazaarView, entropy: int = 0, now: int = 0) -> Command:
    """`normal`: trade when the best trade brings a visible ware closer than a draw does on
    average (it may make one affordable now), else draw; then buy the affordable ware that
    scores most (a joker takes the colour that brings a ware closest)."""
    me = seen(view)
    if me.phase == "choose_colour":
        return ChooseColour(COLOURS[closest_colour(me.carpet, me.tops)])
    if me.phase == "draw_or_trade":
        trade = closest_trade(me)
        if trade is not None and trade[1] < drawn_shortfall(me.carpet, me.tops):
            return trade[0]
        return Draw()
    offers = [
        (s.offer.price.points, -s.stall)
        for s in view.stalls
        if s.offer is not None and s.offer.price is not None and s.offer.can_buy
    ]
    return Buy(-max(offers)[1]) if offers else EndTurn()
