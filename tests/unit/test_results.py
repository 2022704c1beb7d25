"""A finished game's places and ratings (`app.people.results`), without Redis."""

from __future__ import annotations

from app.people.results import NEW, GameResult, SeatResult, fold, places, rate, shown


def a_result(
    game_id: str, ended: int, ranked: list[tuple[str, int]], rated: bool = True
) -> GameResult:
    seats = [
        SeatResult(n, p, 10 * (5 - place), place, p.lower()) for n, (p, place) in enumerate(ranked)
    ]
    return GameResult(game_id, "crazymino", ended, rated, seats)


def test_places_follow_the_scores_and_equal_scores_share_a_place() -> None:
    assert places([30, 50, 30, 10], []) == [2, 1, 2, 4]


def test_a_seat_lost_to_timeouts_or_leaving_is_last_whatever_its_score() -> None:
    assert places([90, 50, 30, 10], [0]) == [4, 1, 2, 3]
    assert places([90, 50, 30, 10], [0, 2]) == [4, 1, 4, 2]


def test_a_new_player_shows_1000_and_a_winner_gains_what_a_loser_loses() -> None:
    assert shown(NEW) == 1000
    done = rate(a_result("g1", 1, [("Ann", 1), ("Bob", 2)]), {})
    ann, bob = done.seats
    assert ann.before == bob.before == NEW
    assert ann.after is not None and bob.after is not None
    assert ann.after.mu > NEW.mu > bob.after.mu
    assert ann.after.sigma < NEW.sigma and bob.after.sigma < NEW.sigma


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
