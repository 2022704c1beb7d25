"""A round's score, line by line, for every player at once (volcanoes and the special scoring
compare the boards).

- Each animal +1.
- Each closed, error-free landscape +2, water excepted.
- The bonus chip taken: its value.
- Volcanoes: active ones count; from round 2 the player(s) with the highest score of the round
  before count their inactive ones too. The player(s) with the highest count lose 1 point per
  counted volcano; nobody loses anything when that count is 0.
- Each empty space -1; each closure error -1 (an empty space is no error).
- Advanced: the round's special scoring, +4 / -4 (`specials`).
- Expert: each task taken, its points when fulfilled, minus them when not (`tasks`).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

import msgspec

from domain.mondo.faces import WATER
from domain.mondo.specials import MEASURES, Special, special_points
from domain.mondo.survey import Survey
from domain.mondo.tasks import Finish, Task, task_points

LANDSCAPE_POINTS = 2


class TaskScore(msgspec.Struct, frozen=True):
    """One task a player took, and what it gave."""

    task: Task
    fulfilled: bool
    points: int


class Score(msgspec.Struct, frozen=True):
    """Every line of one player's score for a round. Points lines first, then the counts behind
    the lines that are not plain counts."""

    animals: int  # +1 per animal
    landscapes: int  # +2 per closed, error-free landscape other than water
    bonus: int  # the bonus chip's value
    volcanoes: int  # minus the volcanoes counted, for the player(s) with the most
    empty_spaces: int  # -1 per empty space
    closure_errors: int  # -1 per closure error
    special: int  # advanced: +4, -4 or 0
    tasks: tuple[TaskScore, ...]  # expert: the tasks taken
    total: int
    volcano_count: int  # the volcanoes counted for this player
    special_count: int  # what the special scoring compares (0 without one)


class Seat(NamedTuple):
    """What a round's score needs to know of one player."""

    board: Survey
    chip: int  # 0 when the player took no bonus chip
    tasks: tuple[Task, ...] = ()
    leader: bool = False  # had the highest score of the round before (round 2 on)


def volcano_counts(seats: Sequence[Seat]) -> list[int]:
    """Active volcanoes, plus the inactive ones of the previous round's leaders."""
    return [s.board.active + (s.board.inactive if s.leader else 0) for s in seats]


def volcano_penalties(counts: Sequence[int]) -> list[int]:
    """Minus its count for every player with the highest count; nothing when that is 0."""
    most = max(counts)
    return [-c if c == most and most > 0 else 0 for c in counts]


def round_scores(seats: Sequence[Seat], special: Special | None = None) -> tuple[Score, ...]:
    """Each player's score, every line of it."""
    counts = volcano_counts(seats)
    penalties = volcano_penalties(counts)
    measures = [MEASURES[special](s.board) if special else 0 for s in seats]
    specials = special_points(measures) if special else (0,) * len(seats)
    scores = []
    for seat, count, penalty, measure, extra in zip(
        seats, counts, penalties, measures, specials, strict=True
    ):
        board = seat.board
        closed = sum(1 for x in board.landscapes if x.complete and x.kind != WATER)
        finish = Finish(board, seat.chip)
        tasks = tuple(
            TaskScore(task, points > 0, points)
            for task in seat.tasks
            for points in (task_points(task, finish),)
        )
        animals, landscapes = len(board.species), LANDSCAPE_POINTS * closed
        lines = animals + landscapes + seat.chip + penalty - board.empty - board.errors + extra
        scores.append(
            Score(
                animals=animals,
                landscapes=landscapes,
                bonus=seat.chip,
                volcanoes=penalty,
                empty_spaces=-board.empty,
                closure_errors=-board.errors,
                special=extra,
                tasks=tasks,
                total=lines + sum(t.points for t in tasks),
                volcano_count=count,
                special_count=measure,
            )
        )
    return tuple(scores)


def leaders(scores: Sequence[Score]) -> frozenset[int]:
    """The seats with the highest total of a round."""
    if not scores:
        return frozenset()
    best = max(s.total for s in scores)
    return frozenset(seat for seat, s in enumerate(scores) if s.total == best)
