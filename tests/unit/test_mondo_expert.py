"""Expert game: the twelve tasks, what fulfils each, and what a task taken scores."""

from __future__ import annotations

import pytest
from mondo_builders import board, emptied, seat, survey_of

from domain.mondo.faces import DESERT, FOREST, SPECIES, STEPPE, WATER
from domain.mondo.scoring import TaskScore, round_scores
from domain.mondo.survey import Landscape, Survey
from domain.mondo.tasks import CARDS, TASKS, Finish, Task, task_points

FULL_SEA = board({}, fill="w")
#: A full board with one closure error: a forest bay (tile 85) facing the sea.
FULL_WITH_ERROR = board({8: (85, "variable", 0)}, fill="w")


def species(*names: str) -> tuple[int, ...]:
    return tuple(SPECIES.index(n) for n in names)


def one_landscape(kind: int, animals: tuple[int, ...], complete: bool = True) -> Finish:
    """A board that is one landscape holding these animals (closed and error-free or not)."""
    landscape = Landscape(kind, len(animals), animals, complete, True, False, ())
    return Finish(Survey((landscape,), (), 0, 24 - len(animals), animals, 0, 0), 0)


def test_twelve_tasks_and_their_points() -> None:
    assert len(TASKS) == 12
    assert {t: CARDS[t].points for t in TASKS} == {
        "three_buffalo": 9,
        "three_elephant": 9,
        "three_panda": 9,
        "three_parrot": 9,
        "three_snake": 9,
        "three_scorpion": 9,
        "four_steppe": 7,
        "four_forest": 7,
        "four_desert": 7,
        "error_free_board": 5,
        "finished_in_time": 3,
        "first_to_finish": 3,
    }


@pytest.mark.parametrize(
    ("task", "kind", "animal"),
    [
        ("three_buffalo", STEPPE, "buffalo"),
        ("three_elephant", STEPPE, "elephant"),
        ("three_panda", FOREST, "panda"),
        ("three_parrot", FOREST, "parrot"),
        ("three_snake", DESERT, "snake"),
        ("three_scorpion", DESERT, "scorpion"),
    ],
)
def test_three_of_a_kind_in_one_closed_error_free_landscape(
    task: Task, kind: int, animal: str
) -> None:
    fulfilled = CARDS[task].fulfilled
    assert fulfilled(one_landscape(kind, species(animal, animal, animal)))
    assert not fulfilled(one_landscape(kind, species(animal, animal)))
    assert not fulfilled(one_landscape(kind, species(animal, animal, animal), complete=False))


def test_three_of_a_kind_must_share_one_landscape() -> None:
    two = Landscape(STEPPE, 2, species("buffalo", "buffalo"), True, True, False, ())
    one = Landscape(STEPPE, 1, species("buffalo"), True, True, False, ())
    shown = Survey((two, one), (), 0, 21, species("buffalo") * 3, 0, 0)
    assert not CARDS["three_buffalo"].fulfilled(Finish(shown, 0))


@pytest.mark.parametrize(
    ("task", "kind", "animals"),
    [
        ("four_steppe", STEPPE, ("elephant", "zebra", "antelope", "buffalo")),
        ("four_forest", FOREST, ("panda", "parrot", "tiger", "gorilla")),
        ("four_desert", DESERT, ("scorpion", "gecko", "snake", "ostrich")),
    ],
)
def test_four_animals_of_a_landscape_in_one(
    task: Task, kind: int, animals: tuple[str, str, str, str]
) -> None:
    fulfilled = CARDS[task].fulfilled
    assert fulfilled(one_landscape(kind, species(*animals)))
    assert fulfilled(one_landscape(kind, species(*animals, animals[0])))
    assert not fulfilled(one_landscape(kind, species(*animals[:3], animals[0])))
    assert not fulfilled(one_landscape(kind, species(*animals), complete=False))
    assert not fulfilled(one_landscape(WATER, species(*animals)))


def test_error_free_board_and_finished_in_time() -> None:
    full, faulty = Finish(survey_of(FULL_SEA), 4), Finish(survey_of(FULL_WITH_ERROR), 4)
    gap = Finish(survey_of(emptied(FULL_SEA, 5)), 0)
    assert CARDS["error_free_board"].fulfilled(full)
    assert not CARDS["error_free_board"].fulfilled(faulty)
    assert not CARDS["error_free_board"].fulfilled(gap)
    assert CARDS["finished_in_time"].fulfilled(full)
    assert CARDS["finished_in_time"].fulfilled(faulty)
    assert not CARDS["finished_in_time"].fulfilled(gap)


def test_first_to_finish_took_the_bonus_chip_four() -> None:
    shown = survey_of(FULL_SEA)
    assert CARDS["first_to_finish"].fulfilled(Finish(shown, 4))
    assert not CARDS["first_to_finish"].fulfilled(Finish(shown, 3))
    assert not CARDS["first_to_finish"].fulfilled(Finish(shown, 0))


def test_a_task_gains_its_points_fulfilled_and_loses_them_not() -> None:
    shown = survey_of(FULL_WITH_ERROR)
    assert task_points("finished_in_time", Finish(shown, 3)) == 3
    assert task_points("error_free_board", Finish(shown, 3)) == -5


def test_the_task_lines_of_a_round_score() -> None:
    (score,) = round_scores(
        [seat(FULL_WITH_ERROR, 4, tasks=("finished_in_time", "error_free_board"))]
    )
    assert score.tasks == (
        TaskScore("finished_in_time", True, 3),
        TaskScore("error_free_board", False, -5),
    )
    assert score.total == 4 - 1 + 3 - 5  # chip, one error, the two tasks
