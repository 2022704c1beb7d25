"""The tiles a seat cannot see, dealt at random in a way its view allows.

A seat's view shows the board, its own hand, the size of every other hand and the size of the
pile. Every tile is on the board, in its own hand, or unseen; the unseen ones are the other
hands and the pile, in some order it cannot know. A deal shares them out: each other seat gets
as many as its hand holds, and the rest, shuffled, is the pile.
"""

from __future__ import annotations

from domain.chance import Dice
from domain.crazymino.fits import hand_turns
from domain.crazymino.tables import TILES
from domain.crazymino.views import CrazyminoView


class Deal:
    """One guess at the hidden tiles: each seat's hand (the viewer's as it is), as a set of
    turns (`fits`), and the pile, top first."""

    __slots__ = ("hands", "pile")

    def __init__(self, hands: list[int], pile: tuple[int, ...]) -> None:
        self.hands = hands
        self.pile = pile


def own_hand(view: CrazyminoView) -> tuple[int, ...]:
    """The tiles in the viewer's hand (none for a spectator)."""
    if view.viewer is None:
        return ()
    return tuple(face.tile for face in view.seats[view.viewer].hand or ())


def unseen(view: CrazyminoView) -> list[int]:
    """The tiles neither on the board nor in the viewer's hand, by id."""
    seen = {placed.tile for placed in view.placements} | set(own_hand(view))
    return [tile for tile in range(len(TILES)) if tile not in seen]


def deal(view: CrazyminoView, hidden: list[int], dice: Dice) -> Deal:
    """A deal of the `hidden` tiles (`unseen(view)`) drawn with `dice`: every deal the view
    allows is equally likely."""
    shuffled = dice.shuffled(hidden)
    mine = hand_turns(own_hand(view))
    hands = []
    for seat in view.seats:
        if seat.seat == view.viewer:
            hands.append(mine)
        else:
            hands.append(hand_turns(shuffled[: seat.hand_size]))
            shuffled = shuffled[seat.hand_size :]
    return Deal(hands, tuple(shuffled))
