"""Mondo's log words call the special scorings and tasks by their names in the rules, never by
their ids, and the table (js/mondo-words.js) shows the very same names; an animal takes the
article its name needs ("an octopus", "a panda")."""

from __future__ import annotations

import re
from pathlib import Path

from domain.mondo.model import RoundEnded, RoundStarted, TaskTaken
from domain.mondo.scoring import Score, TaskScore
from domain.mondo.specials import SPECIALS
from domain.mondo.tasks import TASKS
from domain.mondo.words import SPECIAL_NAMES, TASK_NAMES, describe, face_words

NAMES = ["Ann", "Bob"]
TABLE_WORDS = Path(__file__).parents[2] / "app" / "web" / "static" / "js" / "mondo-words.js"


def test_every_special_and_task_has_a_name_and_no_name_is_an_id() -> None:
    assert set(SPECIAL_NAMES) == set(SPECIALS)
    assert set(TASK_NAMES) == set(TASKS)
    for name in [*SPECIAL_NAMES.values(), *TASK_NAMES.values()]:
        assert "_" not in name and name[0].isupper(), name
    assert len(set(TASK_NAMES.values())) == len(TASKS)


def test_a_round_start_names_its_special_scoring_and_tasks() -> None:
    event = RoundStarted(
        round=2,
        deadline=0,
        variable=(),
        special="largest_sea",
        tasks=("three_buffalo", "four_desert", "first_to_finish"),
    )
    assert describe(event, NAMES) == (
        "Round 2 begins; special scoring: The largest sea; tasks: Three of a kind: buffaloes, "
        "Four animals in one: desert, First to finish."
    )


def test_a_task_taken_and_scored_by_its_name() -> None:
    taken = TaskTaken(seat=1, task="error_free_board")
    assert describe(taken, NAMES) == "Bob takes the task Error-free board."
    task = TaskScore(task="finished_in_time", fulfilled=False, points=-3)
    score = Score(0, 0, 0, 0, -24, 0, 0, (task,), -27, 0, 0)
    ended = describe(RoundEnded(round=1, at=0, timed_out=True, scores=(score, score)), NAMES)
    assert "-3 for the task Finished in time (not fulfilled)" in ended
    assert "finished_in_time" not in ended


def test_the_table_shows_the_same_names() -> None:
    source = TABLE_WORDS.read_text(encoding="utf-8")
    table = dict(re.findall(r'^\s+(\w+): "([^"]+)",$', source, re.MULTILINE))
    assert table == {**SPECIAL_NAMES, **TASK_NAMES}


def test_an_animal_takes_the_article_its_name_needs() -> None:
    assert face_words(38, "variable") == "tile 38 (water and forest, an octopus)"
    elephant = "tile 9 (desert and steppe, an elephant, an inactive volcano)"
    assert face_words(9, "variable") == elephant
    faces = [face_words(tile, face) for tile in range(136) for face in ("plain", "variable")]
    assert not [words for words in faces if re.search(r"\ba [aeiou]", words)]
    assert any(", a panda" in words for words in faces)
