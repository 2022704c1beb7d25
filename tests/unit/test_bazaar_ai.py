"""AI policies: pure functions of their own seat's view; `easy` random, `normal` one step
ahead (a trade that brings a ware closer than a draw, else a draw), `hard` a planner over draws
and trades (whose outlook tables are checked by hand)."""

from __future__ import annotations

import pytest
from bazaar_builders import midgame, position, started, ware_id
from game_profiles import PROFILES
from msgspec.structs import replace

from domain.bazaar import ai, planner
from domain.bazaar.game import BAZAAR
from domain.bazaar.model import Buy, ChooseColour, Draw, EndTurn, Trade
from domain.bazaar.outlook import blended_prices, outlook
from domain.bazaar.stones import counts

LEVELS = sorted(BAZAAR.policies)


def test_three_levels() -> None:
    assert LEVELS == ["easy", "hard", "normal"]


@pytest.mark.parametrize("level", LEVELS)
def test_policies_decide_from_the_seats_view_alone_and_always_legally(level: str) -> None:
    policy = BAZAAR.policies[level]
    scramble = PROFILES["bazaar"].scramble
    for seed in range(12):
        state = midgame(seed, steps=7 * seed)
        (seat,) = BAZAAR.to_act(state)
        twin = scramble(state, seat, seed)
        assert twin.stalls != state.stalls and twin.seed != state.seed
        for entropy in (0, 5, 77):
            mine = policy(BAZAAR.view(state, seat), entropy, 0)
            assert mine == policy(BAZAAR.view(twin, seat), entropy, 0)
            assert mine in BAZAAR.legal(state, seat)


def test_the_legal_commands_worked_out_from_a_view_are_the_rules() -> None:
    for seed in range(10):
        state = midgame(seed, steps=11 * seed)
        for seat in range(3):
            assert ai.legal_from_view(BAZAAR.view(state, seat)) == BAZAAR.legal(state, seat)


def test_easy_plays_any_legal_command() -> None:
    state = position("RGBWYRGBWY", "", phase="draw_or_trade")
    picks = {ai.random_legal(BAZAAR.view(state, 0), e) for e in range(60)}
    assert len(picks) > 3 and picks <= set(BAZAAR.legal(state, 0))


def test_normal_trades_when_a_trade_makes_a_ware_affordable_and_then_buys_it() -> None:
    """Red for green + blue + yellow (the rules' example) makes GBYYY out of RYY."""
    stalls = tuple((ware_id(w), 40) for w in ("GBYYY", "RRRRR", "WWWWW", "BBBBB"))
    state = position("RYY", "", stalls=stalls, phase="draw_or_trade")
    command = ai.greedy(BAZAAR.view(state, 0))
    assert command == Trade(1, "left_to_right")
    after = BAZAAR.fold(state, BAZAAR.decide(state, 0, command))
    assert ai.greedy(BAZAAR.view(after, 0)) == Buy(0)


def test_normal_trades_when_a_trade_brings_a_ware_closer_than_a_draw() -> None:
    """W alone lacks 4 stones of every ware; white for red + green + blue leaves GBBBB 3 short,
    where a draw leaves 4 less a third on average."""
    stalls = tuple((ware_id(w), 40) for w in ("RRRRR", "GGGGY", "GBBBB", "RRWWW"))
    state = position("W", "", stalls=stalls, phase="draw_or_trade")
    assert ai.greedy(BAZAAR.view(state, 0)) == Trade(6, "left_to_right")


def test_normal_draws_when_no_trade_beats_a_draw() -> None:
    """RRRR lacks one red for RRRRR: a draw buys it one time in three; the best trade (two reds
    for white + white + yellow) still leaves RRWWW a stone short."""
    stalls = tuple((ware_id(w), 40) for w in ("RRRRR", "GGGGY", "GBBBB", "RRWWW"))
    state = position("RRRR", "", stalls=stalls, phase="draw_or_trade")
    assert len(BAZAAR.legal(state, 0)) > 1
    assert ai.greedy(BAZAAR.view(state, 0)) == Draw()


def test_normal_draws_when_it_holds_a_ware_already() -> None:
    stalls = tuple((ware_id(w), 40) for w in ("RRRRR", "GGGGY", "GBBBB", "RRWWW"))
    state = position("RRRRRG", "", stalls=stalls, phase="draw_or_trade")
    assert len(BAZAAR.legal(state, 0)) > 1
    assert ai.greedy(BAZAAR.view(state, 0)) == Draw()


def test_normal_trades_in_seeded_games_against_easy() -> None:
    trades = 0
    for seed in range(6):
        state = started(seed)
        while not BAZAAR.is_over(state):
            (seat,) = BAZAAR.to_act(state)
            level = "normal" if seat == seed % 2 else "easy"
            command = BAZAAR.policies[level](BAZAAR.view(state, seat), seed + state.draws, 0)
            events = BAZAAR.decide(state, seat, command)
            trades += level == "normal" and isinstance(command, Trade)
            state = BAZAAR.fold(state, events)
    assert trades >= 6 * 3


def test_normal_buys_the_affordable_ware_that_scores_most_else_ends_its_turn() -> None:
    stalls = tuple((ware_id(w),) for w in ("RRRBB", "RRRRR", "GGGGG", "RRBWY"))
    state = position("RRRRRBB", "", stalls=stalls)
    # RRRBB leaves 2 (cheap: 2 points), RRRRR leaves 2 (precious: 3 points)
    assert ai.greedy(BAZAAR.view(state, 0)) == Buy(1)
    poor = position("RRRB", "", stalls=stalls)
    assert ai.greedy(BAZAAR.view(poor, 0)) == EndTurn()


def test_normal_takes_the_joker_colour_that_brings_a_ware_closest() -> None:
    stalls = tuple((ware_id(w),) for w in ("RRRBB", "RRRRR", "GGGGG", "RRBWY"))
    state = position("GGGG", "", stalls=stalls, phase="choose_colour")
    assert ai.greedy(BAZAAR.view(state, 0)) == ChooseColour("green")


def test_hard_buys_a_ware_it_holds_exactly() -> None:
    stalls = tuple((ware_id(w), 40) for w in ("RRRBB", "RRRRR", "GGGGG", "RRBWY"))
    for carpet, stall in (("RRRBB", 0), ("GGGGG", 2), ("RRBWY", 3)):
        state = position(carpet, "", stalls=stalls)
        assert planner.plan(BAZAAR.view(state, 0)) == Buy(stall)


def test_hard_trades_into_a_ware_exactly_and_then_buys_it() -> None:
    """Red for green + blue + yellow (the rules' example) makes GBYYY out of RYY."""
    stalls = tuple((ware_id(w), 40) for w in ("GBYYY", "RRRRR", "WWWWW", "BBBBB"))
    state = position("RYY", "", stalls=stalls, phase="draw_or_trade")
    command = planner.plan(BAZAAR.view(state, 0))
    assert command == Trade(1, "left_to_right")
    after = BAZAAR.fold(state, BAZAAR.decide(state, 0, command))
    assert after.carpets[0] == counts("GBYYY")
    assert planner.plan(BAZAAR.view(after, 0)) == Buy(0)


def test_hard_prefers_a_precious_ware_to_a_cheap_one() -> None:
    """Red makes RRRRW with one stone over (precious: 5 points), blue RRRBB (cheap: 3)."""
    stalls = tuple((ware_id(w), 40) for w in ("RRRBB", "RRRRW", "GGGGG", "WWWWW"))
    state = position("RRRBW", "", stalls=stalls, phase="choose_colour")
    assert planner.plan(BAZAAR.view(state, 0)) == ChooseColour("red")
    after = BAZAAR.fold(state, BAZAAR.decide(state, 0, ChooseColour("red")))
    assert planner.plan(BAZAAR.view(after, 0)) == Buy(1)


def test_hard_is_deterministic_and_ignores_the_entropy() -> None:
    state = midgame(3, steps=40)
    (seat,) = BAZAAR.to_act(state)
    view = BAZAAR.view(state, seat)
    assert len({planner.plan(view, e, 0) for e in range(5)}) == 1


def test_hard_searches_within_its_node_budget() -> None:
    state = position("RRGGBBWWYYRGBWY", "", phase="draw_or_trade")
    search = planner.Planner(BAZAAR.view(state, 0))
    assert search.decide("draw_or_trade") in BAZAAR.legal(state, 0)
    assert 0 < search.nodes <= planner.NODES + 1


def test_hard_falls_back_to_a_shallower_search_when_the_nodes_run_out(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = position("RRGGBBWWYYRGBWY", "", phase="draw_or_trade")
    monkeypatch.setattr(planner, "NODES", 50)
    search = planner.Planner(BAZAAR.view(state, 0))
    assert search.decide("draw_or_trade") in BAZAAR.legal(state, 0)
    assert search.nodes == 51  # it stopped at the first node over the budget


# -- the outlook tables ----------------------------------------------------------------------


def test_an_outlook_knows_its_prices() -> None:
    ware = counts("RRRBB")
    assert blended_prices(False, 0.0) == (5, 3, 2, 1)
    assert blended_prices(True, 1.0) == (12, 8, 5, 3)
    assert blended_prices(False, 0.5) == (6.5, 4, 2.5, 1.5)
    table = outlook(ware, False, 0.9, 0.0)
    nothing = (0, 0, 0, 0, 0)
    # complete at the start of a turn: the turn's draw leaves one stone over, then it buys
    assert table[nothing, 0] == 3 and table[nothing, 2] == 1 and table[nothing, 3] == 1


def test_one_stone_short_is_a_third_of_a_chance_each_turn() -> None:
    """Lacking one red: red or the joker (2 faces in 6) buys with nothing left over."""
    ware, red = counts("RRRBB"), counts("R")
    no_future = outlook(ware, False, 0.0, 0.0)
    assert no_future[red, 0] == pytest.approx(2 / 6 * 5)
    # with no discount and 3 spare stones, a miss changes nothing: the red comes, for 1 point
    patient = outlook(ware, False, 1.0, 0.0)
    assert patient[red, 3] == pytest.approx(1)
    # two spare stones: a hit now pays 2, a miss leaves 3 spare stones (1 point later)
    assert patient[red, 2] == pytest.approx(2 / 6 * 2 + 4 / 6 * 1)


def test_the_outlook_grows_with_what_the_carpet_holds() -> None:
    ware = counts("GGGWY")
    table = outlook(ware, False, 0.85, 0.25)
    assert table[counts("GGGWY"), 0] < table[counts("GGWY"), 0] < table[counts("W"), 0]
    assert table[counts("W"), 3] < table[counts("W"), 0]


def test_hard_sells_the_last_ware_only_to_win_or_share_the_win() -> None:
    stalls = ((), (ware_id("RRRBB"),), (), ())
    state = position("RRRBB", "", stalls=stalls)  # 8 points: a stall is empty
    assert planner.plan(BAZAAR.view(replace(state, scores=(0, 20)), 0)) == EndTurn()
    assert planner.plan(BAZAAR.view(replace(state, scores=(12, 20)), 0)) == Buy(1)
    assert planner.plan(BAZAAR.view(replace(state, scores=(30, 20)), 0)) == Buy(1)
    solo = position("RRRBB", stalls=stalls)
    assert planner.plan(BAZAAR.view(solo, 0)) == Buy(1)
