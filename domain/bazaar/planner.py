"""AI policy `hard`: a planner that decides from its own seat's view only.

It searches the next turns exactly: every trade of the table, and every face of the bag (six
equally likely: five colours and the joker, which takes the best colour), each followed by the
best purchase or none. Beyond the search it values a carpet by the outlook of the visible wares
(`outlook`: drawing alone toward one ware). Each ware's value is weighed by the price it would
fetch (stones left over, precious or cheap, and the chance that a stall is empty by then, from
the stalls' counts) and by the chance that it is still on its stall when the seat plays again
(from the other carpets: a seat that holds a ware's stones is likely to buy it). Selling the
last ware ends the game: against other seats it buys it only to win or share the win. The
search is bounded by a count of nodes, not by time.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import NamedTuple

from domain.bazaar.ai import seen
from domain.bazaar.exchange import moves
from domain.bazaar.model import Buy, ChooseColour, Command, Draw, EndTurn, Trade
from domain.bazaar.outlook import FACES, MOST_SPARE, Outlook, outlook
from domain.bazaar.prices import points
from domain.bazaar.stones import COLOURS, Stones, holds, is_precious, minus, missing, plus, stone
from domain.bazaar.views import BazaarView

#: How much a turn later is worth, against other seats and alone (nothing presses a solo game).
DISCOUNT, SOLO_DISCOUNT = 0.85, 0.97
#: Turns searched exactly: the turn being played and the next ones, while the nodes last.
DEPTH = 3
#: The most positions (carpets after a turn's draw or trade) one decision may value: a search
#: one turn deeper starts only if the one before it stayed under this, and stops when it runs
#: out (the deepest complete search decides).
NODES = 4_000
#: The chance that another seat buys a ware before our next turn, by the stones it lacks.
TAKEN = {0: 0.7, 1: 0.3, 2: 0.08}
TAKEN_OTHERWISE = 0.02
#: The chance that some stall is empty by the time of a purchase, by the fewest wares a stall
#: holds now.
EMPTY_SOON = {1: 0.5, 2: 0.25, 3: 0.1}
#: What selling the last ware is worth beyond its price, against other seats: the game ends,
#: won (or shared) or lost.
WON, LOST = 100.0, -100.0
ONE_STONE = tuple(stone(k) for k in range(len(COLOURS)))
WARE_SIZE = 5


class Target(NamedTuple):
    """A visible ware, as the planner weighs it."""

    stall: int
    stones: Stones
    precious: bool
    outlook: Outlook
    survives: float  # the chance it is still there at our next turn


class OutOfNodes(Exception):
    """The search used up its nodes."""


class Planner:
    """One decision's search. Values are points, discounted per turn."""

    def __init__(self, view: BazaarView) -> None:
        me = seen(view)
        self.carpet = me.carpet
        self.stall_empty = me.stall_empty
        self.discount = SOLO_DISCOUNT if len(view.seats) == 1 else DISCOUNT
        others = [
            (s.carpet.red, s.carpet.green, s.carpet.blue, s.carpet.white, s.carpet.yellow)
            for s in view.seats
            if s.seat != view.viewer
        ]
        fewest = min((n for n in me.counts if n), default=0)
        empty_share = 1.0 if me.stall_empty else EMPTY_SOON.get(fewest, 0.0)
        self.targets: list[Target] = []
        for stall, top in enumerate(me.tops):
            if top is None:
                continue
            survives = 1.0
            for carpet in others:
                survives *= 1 - TAKEN.get(sum(missing(carpet, top)), TAKEN_OTHERWISE)
            precious = is_precious(top)
            table = outlook(
                top, precious, round(self.discount * survives, 2), round(empty_share, 2)
            )
            self.targets.append(Target(stall, top, precious, table, survives))
        mine = view.seats[view.viewer].score if view.viewer is not None else 0
        best_other = max((s.score for s in view.seats if s.seat != view.viewer), default=None)
        self.final = (mine, best_other) if sum(me.counts) == 1 else None
        #: Each trade: its number and direction, what it pays, and what it changes on a carpet.
        self.trades = [(n, d, gave, minus(took, gave)) for n, d, gave, took in moves(me.cards)]
        self.memo: dict[tuple[Stones, int], float] = {}
        self.beyond_memo: dict[tuple[Stones, int], float] = {}
        self.nodes = 0
        self.budget: int | None = None

    # -- values ------------------------------------------------------------------------------

    def beyond(self, carpet: Stones, bought: int = -1) -> float:
        """A carpet's value at the start of our next turn, from the wares' outlooks (the ware
        of stall `bought` is gone)."""
        key = (carpet, bought)
        if key in self.beyond_memo:
            return self.beyond_memo[key]
        total = sum(carpet)
        best = 0.0
        for t in self.targets:
            if t.stall == bought:
                continue
            needed = missing(carpet, t.stones)
            spare = min(total - WARE_SIZE + sum(needed), MOST_SPARE)
            value = t.survives * t.outlook[needed, spare]
            if value > best:
                best = value
        self.beyond_memo[key] = best
        return best

    def purchase(self, carpet: Stones, target: Target) -> float:
        """Buy the target now: its price, and what the stones left are worth afterwards."""
        left = minus(carpet, target.stones)
        paid = points(target.precious, sum(left), self.stall_empty)
        if self.final is not None:  # the last ware: the game ends
            mine, best_other = self.final
            if best_other is None:
                return paid
            return paid + (WON if mine + paid >= best_other else LOST)
        return paid + self.discount * self.beyond(left, target.stall)

    def settled(self, carpet: Stones, depth: int) -> float:
        """After the turn's draw or trade: the best purchase, or the turn ends."""
        key = (carpet, -depth)
        if key in self.memo:
            return self.memo[key]
        self.nodes += 1
        if self.budget is not None and self.nodes > self.budget:
            raise OutOfNodes
        later = self.turn(carpet, depth - 1) if depth > 1 else self.beyond(carpet)
        best = self.discount * later
        for t in self.targets:
            if holds(carpet, t.stones):
                best = max(best, self.purchase(carpet, t))
        self.memo[key] = best
        return best

    def drawn(self, carpet: Stones, depth: int) -> float:
        """The expected value of a draw: five colours and the joker, equally likely."""
        faces = [self.settled(plus(carpet, one), depth) for one in ONE_STONE]
        return (sum(faces) + max(faces)) / FACES

    def turn(self, carpet: Stones, depth: int) -> float:
        """A turn's value with `depth` turns left to search: the best draw or trade."""
        key = (carpet, depth)
        if key in self.memo:
            return self.memo[key]
        best = self.drawn(carpet, depth)
        for _n, _d, gave, change in self.trades:
            if holds(carpet, gave):
                best = max(best, self.settled(plus(carpet, change), depth))
        self.memo[key] = best
        return best

    # -- decisions ---------------------------------------------------------------------------

    def decide(self, phase: str) -> Command:
        """The best command of the deepest search that fits in the nodes (depth 1 always)."""
        choose = {
            "choose_colour": self.colour,
            "draw_or_trade": self.action,
            "buy_or_end": self.purchase_or_end,
        }[phase]
        command = choose(1)
        for depth in range(2, DEPTH + 1):
            self.budget = NODES
            try:
                command = choose(depth)
            except OutOfNodes:
                break
        return command

    def colour(self, depth: int) -> Command:
        values = [self.settled(plus(self.carpet, one), depth) for one in ONE_STONE]
        return ChooseColour(COLOURS[_best(range(len(COLOURS)), values.__getitem__)])

    def action(self, depth: int) -> Command:
        options: list[tuple[Command, float]] = [(Draw(), self.drawn(self.carpet, depth))]
        for number, direction, gave, change in self.trades:
            if holds(self.carpet, gave):
                after = plus(self.carpet, change)
                options.append((Trade(number, direction), self.settled(after, depth)))
        return options[_best(range(len(options)), lambda i: options[i][1])][0]

    def purchase_or_end(self, depth: int) -> Command:
        options: list[tuple[Command, float]] = [
            (EndTurn(), self.discount * self.turn(self.carpet, depth))
        ]
        for t in self.targets:
            if holds(self.carpet, t.stones):
                options.append((Buy(t.stall), self.purchase(self.carpet, t)))
        return options[_best(range(len(options)), lambda i: options[i][1])][0]


def _best(indexes: range, value: Callable[[int], float]) -> int:
    """The index of the highest value, the first on ties."""
    return max(indexes, key=lambda i: (value(i), -i))


def plan(view: BazaarView, entropy: int = 0, now: int = 0) -> Command:
    """`hard`: the command the search values most (deterministic: no use of `entropy`)."""
    if view.phase not in ("choose_colour", "draw_or_trade", "buy_or_end"):
        return EndTurn()
    return Planner(view).decide(view.phase)
