"""The `hard` Mondo AI: it plans its board a tile beyond the greedy gain, plays the round's
special scoring and tasks, and leaves with the chip only when staying would bring less.

Every placing of the tiles it may take (the free display tiles by the face they show, as a
person sees them; the tile in hand by both faces) in every turn and open space is first judged
by its own gain, as `normal` judges it (`gain.change`: the space filled, closure errors,
landscapes other than water closed without error, the animal, the volcano by the majority rule,
and a quarter point per side that meets its own landscape). The best `SCREEN` distinct placings
are then laid on a copy of the board and judged again, with:

- the outlook of the open spaces they leave: for each open space, the best gain a tile of the
  display could still make there (its sides as they would be), against that of a space with
  nothing around it. A placing that leaves a space no display tile fits well (a corner between
  three landscapes) loses by it, weighted `LOOK`; one that leaves a landscape a display tile
  would close gains, weighted `LOOK_GAIN` (less: the tile is counted for every space, and
  another seat may take it); filling such a space turns its outlook into points.
- the special scoring (advanced): the change of the seat's +4 / −4 at the counts shown now,
  weighted `SPECIAL_WEIGHT`, plus `SPECIAL_STEP` per unit of the measure gained (the others will
  gain too before the round ends).
- the tasks (expert): a placing that fulfils a free task is worth its points, and the AI takes
  the task (up to two, with three tiles placed) just before it lays that tile, so a task it takes
  is one its board is about to fulfil, never one that could cost its points. That includes the
  board-filling tasks when the tile in hand fills the board (first to finish: while the top chip
  is 4).

It leaves by the common rule (`leaving`). It acts every `PACE` seconds: 2 s, a quick human's
pace (taking and turning a tile, then laying it: 4 s a tile, 24 tiles in about 100 s of a 5 to 7
minute round), against 3 s for `normal`. A decision takes some 10 to 30 ms (the outlooks cost
the most; the `change` of a space's sides and a shape is remembered across decisions), so the
pace, not the thinking, is what limits it; at `normal`'s pace it still wins
(docs/benchmarks.md). It reads its own view only and draws no chance: the same view and time
give the same command.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import NamedTuple

from domain.mondo.faces import FACES, LANDSCAPES, ORIENTED, SPECIES, WATER, Oriented
from domain.mondo.gain import EMPTY, MATCH, SHAPE, Frontier, Summary, change, face_extra, matches
from domain.mondo.leaving import commands_left, stays
from domain.mondo.model import Command, PlaceTile, TakeBonus, TakeTask, TakeTile
from domain.mondo.outlook import borders, free_tiles, laid, seat_of, volcano_worth
from domain.mondo.specials import MEASURES, special_points
from domain.mondo.survey import Survey
from domain.mondo.tasks import CARDS, MOST_TASKS, TILES_BEFORE_TASKS, Finish, Task
from domain.mondo.views import MondoView

PACE = 2.0
SCREEN = 16  # placings judged with the look-ahead, the best by their own gain
LOOK = 0.5  # weight of an open space's outlook below that of a free space (a spot hard to fill)
LOOK_GAIN = 0.25  # and above it (an opening a display tile would close: uncertain, shared)
SPECIAL_WEIGHT = 0.5  # weight of the special scoring's +4 / -4 at the counts shown now
SPECIAL_STEP = 1.0  # worth of one unit of the special scoring's measure
_FREE: Summary = ((EMPTY,), (EMPTY,), (EMPTY,), (EMPTY,))  # a space with nothing round it

#: change() of (summary, shape) pairs, shared by decisions (a pure function); cleared when full.
_CHANGES: dict[tuple[Summary, int], float] = {}
#: 0.1 to 0.2 KB an entry (tracemalloc: 94,000 entries after six games, 10 to 20 MB), so a
#: worker process holds at most some 10 to 20 MB of it.
_CHANGES_MAX = 100_000


def _change(summary: Summary, shape: int) -> float:
    key = (summary, shape)
    value = _CHANGES.get(key)
    if value is None:
        if len(_CHANGES) >= _CHANGES_MAX:
            _CHANGES.clear()
        value = _CHANGES[key] = change(summary, shape)
    return value


def _turns(face: Oriented) -> int:
    return 4 if face.kinds[1:] else 1


class Choice(NamedTuple):
    """A placing judged: `points` what it gains the board, `value` with the look-ahead."""

    value: float
    points: float
    tile: int
    face: int
    quarters: int
    space: int
    tasks: tuple[Task, ...]  # free tasks it fulfils (to take before laying it)


class Planner:
    """One decision's judge: the seat's board, the display's supply, the scorings in play."""

    def __init__(self, view: MondoView, seat: int) -> None:
        self.view, self.seat = view, seat
        self.me = view.seats[seat]
        self.laid = laid(view, seat)
        self.border = borders(view)
        self.frontier = Frontier(self.laid, self.border)
        self.volcano = volcano_worth(view, seat)
        self.supply = self._supply()
        self._outlooks: dict[Summary, float] = {}
        self.free = self._outlook(_FREE)
        self.outlook = self._board_outlook(self.frontier)
        self.rivals = [s.score_now.special_count for s in view.seats if s.seat != seat]
        self.free_tasks: tuple[Task, ...] = ()
        if len(self.me.board) >= TILES_BEFORE_TASKS and len(self.me.tasks) < MOST_TASKS:
            self.free_tasks = tuple(t.task for t in view.tasks if t.taken_by is None)
        self.wanted = _wanted_species(self.free_tasks + self.me.tasks)

    def _supply(self) -> list[tuple[int, float]]:
        """Each shape the free display tiles offer, with the best bonus (space filled, animal,
        volcano) of a face of that shape."""
        best: dict[int, float] = {}
        for tile, (face,) in free_tiles(self.view):
            shape = ORIENTED[tile][face][0]
            bonus = 1 + face_extra(shape, self.volcano)
            for quarters in range(_turns(shape)):
                number = SHAPE[tile][face][quarters]
                if best.get(number, -99.0) < bonus:
                    best[number] = bonus
        return list(best.items())

    def _outlook(self, summary: Summary) -> float:
        """The best gain a display tile could make on a space with these sides."""
        value = self._outlooks.get(summary)
        if value is None:
            value = max((_change(summary, s) + b for s, b in self.supply), default=0.0)
            self._outlooks[summary] = value
        return value

    def _board_outlook(self, frontier: Frontier) -> float:
        total = 0.0
        for summary in frontier.summaries:
            lead = self._outlook(summary) - self.free
            total += LOOK * lead if lead < 0 else LOOK_GAIN * lead
        return total

    def choose(self, tiles: Sequence[tuple[int, tuple[int, ...]]]) -> Choice | None:
        """The best placing of one of `tiles` (each with the faces it may show)."""
        screened = heapq.nlargest(SCREEN, self._screen(tiles))
        judged = [self._judge(points, *rest) for points, *rest in screened]
        return max(judged, default=None)

    def _screen(
        self, tiles: Sequence[tuple[int, tuple[int, ...]]]
    ) -> list[tuple[float, int, int, int, int]]:
        """Every placing by its own gain, one of each (shape, animal, volcano, space)."""
        frontier = self.frontier
        seen: dict[tuple[int, int, int, int], tuple[float, int, int, int, int]] = {}
        for tile, faces in tiles:
            for face in faces:
                shape = ORIENTED[tile][face][0]
                bonus = 1 + face_extra(shape, self.volcano) + self._hint(shape)
                shapes = SHAPE[tile][face]
                for at, space in enumerate(frontier.spaces):
                    summary = frontier.summaries[at]
                    for quarters in range(_turns(shape)):
                        key = (shapes[quarters], shape.animal, shape.volcano, space)
                        if key in seen:
                            continue
                        gain = _change(summary, shapes[quarters]) + bonus
                        seen[key] = (gain, -tile, face, quarters, space)
        return list(seen.values())

    def _hint(self, face: Oriented) -> float:
        """A small pull toward animals the scorings in play want (sea animals, task species)."""
        hint = 0.0
        if face.animal >= 0:
            if face.animal in self.wanted:
                hint += 0.5
            if self.view.special == "most_sea_animals" and face.animal // 4 == WATER:
                hint += SPECIAL_STEP
        return hint

    def _judge(self, points: float, neg_tile: int, face: int, quarters: int, space: int) -> Choice:
        tile = -neg_tile
        at = self.frontier.spaces.index(space)
        matched = matches(self.frontier.summaries[at], SHAPE[tile][face][quarters])
        points -= MATCH * matched
        laid = list(self.laid)
        laid[space] = ORIENTED[tile][face][quarters]
        after = Frontier(laid, self.border)
        points -= self._hint(ORIENTED[tile][face][0])
        points += self._special(after.board)
        fulfils, task_points = self._tasks(after.board)
        points += task_points
        look = self._board_outlook(after) - self.outlook + MATCH * matched
        return Choice(points + look, points, tile, face, quarters, space, fulfils)

    def _special(self, board: Survey) -> float:
        special = self.view.special
        if special is None or not self.rivals:
            return 0.0
        now = self.me.score_now.special_count
        then = MEASURES[special](board)
        if then == now:
            return 0.0
        before = special_points([now, *self.rivals])[0]
        after = special_points([then, *self.rivals])[0]
        return SPECIAL_WEIGHT * (after - before) + SPECIAL_STEP * (then - now)

    def _tasks(self, board: Survey) -> tuple[tuple[Task, ...], float]:
        """The free tasks this board would fulfil (as many as may still be taken), and what
        it gains on tasks: a free one fulfilled its points, one of the seat's twice them."""
        if not self.free_tasks and not self.me.tasks:
            return (), 0.0
        chip = self.view.chips[0] if board.full and self.view.chips else 0
        before, after = Finish(self.frontier.board, 0), Finish(board, chip)
        gained = 0.0
        for task in self.me.tasks:
            card = CARDS[task]
            if card.fulfilled(after) and not card.fulfilled(before):
                gained += 2 * card.points
        room = MOST_TASKS - len(self.me.tasks)
        fulfils = sorted(
            (t for t in self.free_tasks if CARDS[t].fulfilled(after)),
            key=lambda t: -CARDS[t].points,
        )[:room]
        return tuple(fulfils), gained + sum(CARDS[t].points for t in fulfils)


def _wanted_species(tasks: Sequence[Task]) -> set[int]:
    """The species that tasks of three of a kind or four in one ask for."""
    wanted: set[int] = set()
    for task in tasks:
        kind, _, name = task.partition("_")
        if kind == "three":
            wanted.add(SPECIES.index(name))
        elif kind == "four":
            start = LANDSCAPES.index(name) * 4
            wanted.update(range(start, start + 4))
    return wanted


def policy(view: MondoView, entropy: int, now: int) -> Command:
    """The `hard` AI: see the module's docstring. `entropy` is not used (it draws no chance)."""
    seat = seat_of(view)
    me = view.seats[seat]
    pace_ms = round(PACE * 1000)
    planner = Planner(view, seat)
    if me.held is not None:
        choice = planner.choose([(me.held.tile, (0, 1))])
        if choice is None:
            return TakeBonus()
        if choice.tasks and commands_left(view, now, pace_ms) >= 2:
            return TakeTask(choice.tasks[0])
        if not stays(view, seat, choice.points, now, pace_ms, holding=True):
            return TakeBonus()
        rotation = choice.quarters * 90
        return PlaceTile(choice.tile, choice.space, FACES[choice.face], rotation)
    choice = planner.choose(free_tiles(view))
    if choice is None or not stays(view, seat, choice.points, now, pace_ms):
        return TakeBonus()
    return TakeTile(choice.tile)
