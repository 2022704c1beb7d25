"""Expert game: the twelve tasks. Each round 2 × (number of players) of them are shown; a task
taken gains its points at the round's end when fulfilled, and loses them when not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Literal, NamedTuple, get_args

from domain.mondo.faces import DESERT, FOREST, SPECIES, STEPPE
from domain.mondo.survey import Survey

Task = Literal[
    "three_buffalo",
    "three_elephant",
    "three_panda",
    "three_parrot",
    "three_snake",
    "three_scorpion",
    "four_steppe",
    "four_forest",
    "four_desert",
    "error_free_board",
    "finished_in_time",
    "first_to_finish",
]
TASKS: tuple[Task, ...] = get_args(Task)
TASKS_PER_PLAYER = 2  # shown each round: twice the number of players
MOST_TASKS = 2  # that one player may take in a round
TILES_BEFORE_TASKS = 3  # placed on one's board before one may take a task
FIRST_CHIP = 4  # the chip of the first player to finish


class Finish(NamedTuple):
    """What a task looks at: the board, and the bonus chip taken (0 for none)."""

    board: Survey
    chip: int


def _three_of(species: int) -> Callable[[Finish], bool]:
    """Three of one species in one closed, error-free landscape."""

    def fulfilled(finish: Finish) -> bool:
        return any(x.complete and x.species.count(species) >= 3 for x in finish.board.landscapes)

    return fulfilled


def _four_in(kind: int) -> Callable[[Finish], bool]:
    """All four species of a landscape in one closed, error-free landscape."""
    wanted = set(range(kind * 4, kind * 4 + 4))

    def fulfilled(finish: Finish) -> bool:
        return any(
            x.complete and x.kind == kind and wanted <= set(x.species)
            for x in finish.board.landscapes
        )

    return fulfilled


class Card(NamedTuple):
    points: int
    fulfilled: Callable[[Finish], bool]


CARDS: dict[Task, Card] = {
    "three_buffalo": Card(9, _three_of(SPECIES.index("buffalo"))),
    "three_elephant": Card(9, _three_of(SPECIES.index("elephant"))),
    "three_panda": Card(9, _three_of(SPECIES.index("panda"))),
    "three_parrot": Card(9, _three_of(SPECIES.index("parrot"))),
    "three_snake": Card(9, _three_of(SPECIES.index("snake"))),
    "three_scorpion": Card(9, _three_of(SPECIES.index("scorpion"))),
    "four_steppe": Card(7, _four_in(STEPPE)),
    "four_forest": Card(7, _four_in(FOREST)),
    "four_desert": Card(7, _four_in(DESERT)),
    # The board full before the timer ran out (a full board leaves the round at once), and
    # no closure error.
    "error_free_board": Card(5, lambda f: f.board.full and f.board.errors == 0),
    "finished_in_time": Card(3, lambda f: f.board.full),
    "first_to_finish": Card(3, lambda f: f.chip == FIRST_CHIP),
}


def task_points(task: Task, finish: Finish) -> int:
    """The task's points when fulfilled, minus them when not."""
    card = CARDS[task]
    return card.points if card.fulfilled(finish) else -card.points
