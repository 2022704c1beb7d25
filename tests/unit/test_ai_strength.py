"""The AI levels' public strength (`app/people/ai_strength.json`, written by
`bench/games/ai_strength.py`): every hosted title's levels, each with its rating and games, in
the order of their strength, as the leaderboards serve them."""

from __future__ import annotations

from pathlib import Path

from app.people.records import AI_STRENGTH, AiLevel, ai_levels
from bench.games.ai_strength import Played, as_result
from domain.registry import TABLES


def test_every_title_has_each_of_its_levels_rated_strongest_last() -> None:
    found = ai_levels()
    assert set(found) == set(TABLES)
    for title, levels in found.items():
        assert [lv.level for lv in levels] == list(TABLES[title].policies), title
        assert all(lv.games >= 100 for lv in levels), levels
        ratings = [lv.rating for lv in levels]
        assert ratings == sorted(ratings) and len(set(ratings)) == len(ratings), (title, levels)


def test_the_file_names_the_command_that_made_it() -> None:
    text = AI_STRENGTH.read_text()
    assert '"command": ".venv/bin/python -m bench.games.ai_strength' in text
    assert '"date": "' in text


def test_without_the_file_no_title_has_levels(tmp_path: Path) -> None:
    assert ai_levels(tmp_path / "none.json") == {}
    assert AiLevel("hard", 1500, 200).rating == 1500


def test_a_level_at_several_seats_takes_part_once_by_its_mean_place() -> None:
    played = Played("bazaar", 7, ("hard", "easy", "hard", "normal"), (9, 5, 3, 1), (1, 2, 3, 4))
    result = as_result(played)
    assert [(s.player, s.place, s.score) for s in result.seats] == [
        ("easy", 1, 5),  # place 2, as the hard seats' mean: a shared first place
        ("normal", 3, 1),
        ("hard", 1, 6),
    ]
    assert result.rated and result.ended == 7
