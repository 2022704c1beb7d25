"""A finished game's places and ratings (`app.people.results`), without Redis."""

from __future__ import annotations

import random

import msgspec

from app.people.results import NEW, GameResult, SeatResult, Skill, fold, places, rate, shown
from domain.game import Setup
from domain.registry import TABLES
from domain.seating.model import Leave


def a_result(
    game_id: str, ended: int, ranked: list[tuple[str, int]], rated: bool = True
) -> GameResult:
    seats = [
        SeatResult(n, p, 10 * (5 - place), place, p.lower()) for n, (p, place) in enumerate(ranked)
    ]
    return GameResult(game_id, "crazymino", ended, rated, seats)


def test_places_are_the_games_standings_by_seat() -> None:
    game = TABLES["crazymino"]
    state = game.replay(game.start(Setup(seed=1, players=("Ann", "Bob", "Cy", "Di")), 0))
    assert places(game, state) == [1, 1, 1, 1]
    state = game.fold(state, game.decide(state, 2, Leave(), 0))
    assert places(game, state) == [1, 1, 4, 1]


def test_a_seat_lost_to_timeouts_or_leaving_is_last_whatever_its_score() -> None:
    game = TABLES["crazymino"]
    state = game.replay(game.start(Setup(seed=1, players=("Ann", "Bob", "Cy", "Di")), 0))
    scored = msgspec.structs.replace(state.game, scores=(90, 50, 30, 10))
    state = msgspec.structs.replace(state, game=scored)
    assert places(game, state) == [1, 2, 3, 4]
    for seat in (0, 2):
        state = game.fold(state, game.decide(state, seat, Leave(), 0))
    assert places(game, state) == [3, 1, 3, 2]


def test_a_new_player_shows_1000_and_a_winner_gains_what_a_loser_loses() -> None:
    assert shown(NEW) == 1000
    done = rate(a_result("g1", 1, [("Ann", 1), ("Bob", 2)]), {})
    ann, bob = done.seats
    assert ann.before == bob.before == NEW
    assert ann.after is not None and bob.after is not None
    assert ann.after.mu > NEW.mu > bob.after.mu
    assert ann.after.sigma < NEW.sigma and bob.after.sigma < NEW.sigma


def test_the_shown_rating_is_the_number_the_docs_give() -> None:
    """`docs/api.md`: 1000 + 40 × (mean − 3 × uncertainty), rounded (openskill's ordinal)."""
    chance = random.Random(5)
    for _ in range(2_000):
        skill = Skill(chance.uniform(-10, 60), chance.uniform(0.05, NEW.sigma))
        assert shown(skill) == round(1000 + 40 * (skill.mu - 3 * skill.sigma))
    assert [shown(Skill(25.0, 5.0)), shown(Skill(40.0, 2.0))] == [1400, 2360]


def test_a_shared_place_moves_both_players_alike() -> None:
    done = rate(a_result("g1", 1, [("Ann", 1), ("Bob", 1), ("Cy", 3)]), {})
    assert done.seats[0].after == done.seats[1].after


def test_games_are_rated_in_the_order_of_their_end_whatever_order_they_come_in() -> None:
    games = [
        a_result("b", 2, [("Ann", 2), ("Bob", 1)]),
        a_result("a", 2, [("Ann", 1), ("Bob", 2)]),
        a_result("c", 1, [("Bob", 1), ("Cy", 2)]),
    ]
    skills_one: dict = {}
    skills_two: dict = {}
    one = fold(games, skills_one)
    two = fold(list(reversed(games)), skills_two)
    assert [r.id for r in one] == ["c", "a", "b"]
    assert one == two and skills_one == skills_two
