"""When an AI leaves a round with the top bonus chip: one rule for every level.

Taking the chip ends the seat's round: it keeps the chip's value, and each empty space left
costs a point. Staying brings what the next tiles gain and the chip later, a lower one when
other seats leave first (chips drop as seats leave: 4, 3, ... down to 5 − N), and none when the
clock ends the round first (only a board filled in time takes a chip by itself). So an AI stays
while the tile it would take now, with what the later ones are likely to add, is worth more
than what staying would lose:

- when it can still take the chip after this tile, or fill its board in time, it loses only the
  drop of the chip (the other seats one tile from a full board are likely to leave first);
- when this tile would be its last command but one, it loses the whole chip unless the tile
  fills the board.

An empty board is never worth a chip: every tile laid without error gains a point back.
"""

from __future__ import annotations

from domain.mondo.board import SPACES
from domain.mondo.views import MondoView

#: Time kept in hand before the deadline for the last commands to arrive (ms).
MARGIN_MS = 2_000
#: What each later tile is likely to gain at least (a cautious mean), and the cap of that sum
#: in the comparison: a bad tile now is kept only when little is lost by it.
FUTURE = 0.5
FUTURE_CAP = 1.0


def commands_left(view: MondoView, now: int, pace_ms: int) -> int:
    """The commands the seat may still send, one now and one each pace, before the margin."""
    spare = view.deadline - MARGIN_MS - now
    return spare // pace_ms + 1 if spare >= 0 else 0


def chip_after(view: MondoView, seat: int) -> int:
    """The chip this seat may expect when it leaves later: the top one, less one for each other
    seat in the round that is one tile from a full board."""
    drops = sum(
        1 for s in view.seats if s.seat != seat and s.chip is None and SPACES - len(s.board) <= 1
    )
    return view.chips[drops] if drops < len(view.chips) else 0


def stays(
    view: MondoView, seat: int, gain: float | None, now: int, pace_ms: int, holding: bool = False
) -> bool:
    """Whether the seat should lay one more tile (worth `gain` to it; None: there is none)
    rather than take the top chip now. `holding`: the tile is in hand, one command from laid."""
    if gain is None or not view.chips:
        return gain is not None
    commands = commands_left(view, now, pace_ms)
    need = 1 if holding else 2
    if commands < need:
        return False
    chip = view.chips[0]
    empty = SPACES - len(view.seats[seat].board)
    fills = need + 2 * (empty - 1) <= commands  # the board full in time takes a chip itself
    if fills or commands > need:
        later = (commands - need - (0 if fills else 1)) // 2
        future = min(FUTURE_CAP, FUTURE * min(empty - 1, later))
        return gain + future > chip - chip_after(view, seat)
    return gain > chip
