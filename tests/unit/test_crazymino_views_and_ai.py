"""What each viewer sees, and AI policies that decide from their own seat's view only."""

from __future__ import annotations

import random

from game_profiles import PROFILES
from msgspec.structs import replace

from domain.crazymino import ai
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.model import DrawAndPass, GameEnded, GameStarted, PlaceTile, State, TileDrawn
from domain.game import Setup


def midgame(seed: int, steps: int = 12) -> State:
    rng = random.Random(seed)
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=seed, players=("a", "b", "c"))))
    for _ in range(steps):
        (seat,) = CRAZYMINO.to_act(state)
        state = CRAZYMINO.fold(
            state, CRAZYMINO.decide(state, seat, rng.choice(CRAZYMINO.legal(state, seat)))
        )
    return state


def test_a_seat_sees_its_own_hand_and_only_sizes_of_the_others() -> None:
    state = midgame(1)
    shown = CRAZYMINO.view(state, 1)
    assert [s.hand is not None for s in shown.seats] == [False, True, False]
    assert [f.tile for f in shown.seats[1].hand or ()] == list(state.hands[1])
    assert [s.hand_size for s in shown.seats] == [len(h) for h in state.hands]
    assert shown.pile_size == len(state.pile) and not hasattr(shown, "pile")
    assert shown.to_play == state.seat_to_play and len(shown.board) == 14


def test_a_spectator_sees_no_hand_and_everyone_sees_all_hands_at_the_end() -> None:
    state = midgame(2)
    assert all(s.hand is None for s in CRAZYMINO.view(state, None).seats)
    over = CRAZYMINO.evolve(state, GameEnded(reason="blocked"))
    assert all(s.hand is not None for s in CRAZYMINO.view(over, None).seats)


def test_events_are_redacted_for_other_viewers() -> None:
    started = CRAZYMINO.start(Setup(seed=3, players=("a", "b")))[0]
    assert isinstance(started, GameStarted)
    for_one = CRAZYMINO.redact(started, 1)
    assert isinstance(for_one, GameStarted)
    assert (
        for_one.hands == (None, started.hands[1]) and for_one.pile is None and for_one.seed is None
    )
    assert for_one.hand_sizes == started.hand_sizes and for_one.pile_size == started.pile_size
    drawn = TileDrawn(seat=0, tile=17, automatic=False)
    assert CRAZYMINO.redact(drawn, 0) == drawn
    assert CRAZYMINO.redact(drawn, 1) == replace(drawn, tile=None)
    assert CRAZYMINO.redact(drawn, None) == replace(drawn, tile=None)


def test_normal_plays_the_highest_scoring_placement() -> None:
    for seed in range(8):
        state = midgame(seed, steps=seed * 3)
        (seat,) = CRAZYMINO.to_act(state)
        chosen = ai.best(CRAZYMINO.view(state, seat))
        totals = {}
        for command in CRAZYMINO.legal(state, seat):
            if isinstance(command, PlaceTile):
                totals[command] = CRAZYMINO.decide(state, seat, command)[0].score.total  # type: ignore[union-attr]
        assert chosen in totals and totals[chosen] == max(totals.values())


def test_policies_decide_from_the_seats_view_alone() -> None:
    state = midgame(5)
    (seat,) = CRAZYMINO.to_act(state)
    twin = PROFILES["crazymino"].scramble(state, seat, 99)
    assert twin.hands != state.hands  # others' tiles and the pile differ, the seat's view does not
    for level, policy in CRAZYMINO.policies.items():
        for entropy in (0, 7, 123):
            mine = policy(CRAZYMINO.view(state, seat), entropy)
            assert mine == policy(CRAZYMINO.view(twin, seat), entropy), level
            assert mine in CRAZYMINO.legal(state, seat)


def test_easy_plays_any_legal_command() -> None:
    state = midgame(6)
    (seat,) = CRAZYMINO.to_act(state)
    picks = {ai.random_legal(CRAZYMINO.view(state, seat), e) for e in range(50)}
    assert len(picks) > 1 and picks <= set(CRAZYMINO.legal(state, seat))


def test_normal_draws_when_nothing_fits() -> None:
    state = midgame(7)
    (seat,) = CRAZYMINO.to_act(state)
    nothing = replace(state, hands=tuple(() if s == seat else h for s, h in enumerate(state.hands)))
    assert ai.best(CRAZYMINO.view(nothing, seat)) == DrawAndPass()
