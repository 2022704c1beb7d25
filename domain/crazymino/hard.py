"""`hard`: the placement with the best outlook, judged over sampled deals of the unseen tiles.

It decides from its seat's view alone, as a player at the table would. For each placement it
could make, it plays on in each of `SAMPLES` deals of the tiles it cannot see (`deal`): the
seats after it reply, each with its best-scoring placement (drawing first when nothing fits),
then it plays its own best, and so on for as many plies as `PLY_WEIGHTS` has weights. The value
of a placement is its own score plus the mean over the deals of what it gains in those plies
minus what the others gain (their mean, with three or four players), each ply weighted; laying
a last tile counts its bonus. Every placement is judged on the same deals, so the differences
between placements are not the luck of the deals.

The domain has no clock, so the budget is a count: at most `NODES` play-ons (placements ×
deals) per move. With more placements than that allows, each is first judged on `SCREEN`
deals and only the best go on to all of them. The deals come from `Dice(entropy)`: the same
view and entropy give the same command.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from domain.chance import Dice
from domain.crazymino.board import TILE_SUM
from domain.crazymino.deal import Deal, deal, own_hand, unseen
from domain.crazymino.fits import TILE_TURNS, TURN_CORNERS, hand_turns
from domain.crazymino.geometry import CORNER_POINTS, SIZE, Corners, cell_index
from domain.crazymino.model import EMPTY_CELLS, EMPTY_POINTS, Command, DrawAndPass, PlaceTile
from domain.crazymino.sketch import Sketch
from domain.crazymino.views import CrazyminoView

SAMPLES = 32  # deals per move
SCREEN = 6  # deals that screen the placements when there are too many
NODES = SAMPLES * 60  # play-ons on all the deals, per move, at most
#: The weight of each ply after the move: the next seat's reply, then the seat after, ...
#: Later plies weigh less: they depend less on the move and more on the luck of the deal.
PLY_WEIGHTS = (1.0, 0.8, 0.6, 0.4)

Option = tuple[int, int, int]  # (score, turn, cell)


def sketch_of(view: CrazyminoView) -> Sketch:
    """The board the view shows."""
    cells, points = list(EMPTY_CELLS), list(EMPTY_POINTS)
    for placed in view.placements:
        cell = cell_index(placed.row, placed.col)
        cells[cell] = placed.tile
        for k, p in enumerate(CORNER_POINTS[cell]):
            points[p] = placed.corners[k]
    return Sketch.of(cells, points)


def hard(view: CrazyminoView, entropy: int, now: int = 0) -> Command:
    """`hard`: the placement whose value over sampled deals is highest (lowest tile, rotation
    and cell on ties); draw and pass when nothing fits."""
    me = view.viewer
    if me is None or me not in view.order:
        return DrawAndPass()
    board = sketch_of(view)
    options = distinct(board.placings(hand_turns(own_hand(view))))
    if not options:
        return DrawAndPass()
    dice = Dice(entropy)
    hidden = unseen(view)
    deals = [deal(view, hidden, dice) for _ in range(SAMPLES)]
    at = view.order.index(me)
    seats = [view.order[(at + k) % len(view.order)] for k in range(1, len(view.order) + 1)]
    if len(options) * len(deals) > NODES:
        screened = sorted(options, key=lambda o: -value(board, o, deals[:SCREEN], seats))
        options = screened[: max(1, NODES // len(deals))]
    _, turn, cell = max(options, key=lambda o: (value(board, o, deals, seats), -o[1], -o[2]))
    return PlaceTile(turn >> 2, (turn & 3) * 90, *divmod(cell, SIZE))


def distinct(placings: Iterable[Option]) -> list[Option]:
    """The placings by score (highest first), then turn and cell; of the turns of one tile
    that show the same corners (a tile like 5-5-5-5), only the first."""
    found: dict[tuple[Corners, int], Option] = {}
    for option in sorted(placings, key=lambda o: (-o[0], o[1], o[2])):
        found.setdefault((TURN_CORNERS[option[1]], option[2]), option)
    return list(found.values())


def value(board: Sketch, option: Option, deals: Sequence[Deal], seats: Sequence[int]) -> float:
    """A placement's score plus the mean of what playing on gains over the deals. `seats`
    runs from the next seat round to the one that places."""
    total, turn, cell = option
    after = board.copy()
    after.lay(turn, cell)
    me, placed = seats[-1], TILE_TURNS[turn >> 2]
    gains = 0.0
    for each in deals:
        hands = each.hands.copy()
        hands[me] &= ~placed
        if hands[me]:
            gains += play_on(after, hands, each.pile, seats)
        else:  # its last tile: the others' numbers are its bonus
            gains += sum(hand_sum(hands[s]) for s in seats[:-1])
    return total + gains / len(deals)


def play_on(board: Sketch, hands: list[int], pile: Sequence[int], seats: Sequence[int]) -> float:
    """The weighted gains of the last of `seats` minus the mean of the others' while each seat
    in turn plays its best-scoring placement. `hands` changes; `board` does not."""
    me, share = seats[-1], 1 / (len(seats) - 1)
    shared, drawn, stuck, gain = True, 0, 0, 0.0
    for ply, weight in enumerate(PLY_WEIGHTS):
        seat = seats[ply % len(seats)]
        total, turn, cell = board.best(hands[seat])
        while turn < 0 and drawn < len(pile):  # draws until a tile fits
            hands[seat] |= TILE_TURNS[pile[drawn]]
            total, turn, cell = board.best(TILE_TURNS[pile[drawn]])
            drawn += 1
        if turn < 0:
            stuck += 1
            if stuck == len(seats):
                break  # blocked
            continue
        stuck = 0
        gain += weight * (total if seat == me else -share * total)
        if ply == len(PLY_WEIGHTS) - 1:
            break
        hands[seat] &= ~TILE_TURNS[turn >> 2]
        if not hands[seat]:  # a last tile: the others' numbers are its bonus
            left = sum(hand_sum(hands[s]) for s in seats if s != seat)
            gain += weight * (left if seat == me else -share * left)
            break
        if shared:
            board, shared = board.copy(), False
        board.lay(turn, cell)
    return gain


def hand_sum(turns: int) -> int:
    """The sum of the numbers on the tiles of a hand given as turns."""
    total = 0
    while turns:
        tile = ((turns & -turns).bit_length() - 1) >> 2
        total += TILE_SUM[tile]
        turns &= ~TILE_TURNS[tile]
    return total
