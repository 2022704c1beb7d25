"""The domain calls of one command as the service makes them (`decide`, then `fold` of its
events, `describe` for each seat), played without `legal` between commands: the memos on that
path (`rules.folded`, `Crazymino.describe`) and the cells asked first (`rules._fits_recent`)
change no event, state or word."""

from __future__ import annotations

import random
from typing import Any

import msgspec
import pytest
from msgspec.structs import replace

from domain.crazymino import rules, words
from domain.crazymino.fits import fits_near, frontier, hand_fits_near, hand_turns
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.model import TurnPassed
from domain.game import Setup
from domain.seating import seated
from domain.seating import words as table_words
from domain.seating.model import ClockSet

GAME = seated(CRAZYMINO)
PLAYERS = ("Ann", "Bob")


def _plain_fold(state: Any, events: list[Any]) -> Any:
    for event in events:
        state = GAME.evolve(state, event)
    return state


def _copy(events: list[Any]) -> list[Any]:
    """The same events as new objects (as decoded from the stream)."""
    return msgspec.json.decode(msgspec.json.encode(events), type=list[GAME.event_type])


def _fresh(state: Any) -> Any:
    """The state with a board made of new tuples: nothing about it is remembered."""
    game = replace(
        state.game, cells=tuple(list(state.game.cells)), points=tuple(list(state.game.points))
    )
    return replace(state, game=game)


@pytest.mark.parametrize("options", [{}, {"turn_seconds": 60}])
@pytest.mark.parametrize("seed", range(6))
def test_service_path_is_plain_decide_and_evolve(seed: int, options: dict[str, Any]) -> None:
    setup = Setup(seed=seed, players=PLAYERS, options=options)
    log = GAME.start(setup, 0)
    state = GAME.fold(GAME.initial(), log)
    choose = random.Random(seed)
    now = 0
    while not GAME.is_over(state):
        (seat,) = GAME.to_act(state)
        now += 1_000
        # what `legal` lists is chosen on a copy: the played board is never listed
        command = choose.choice(GAME.legal(_fresh(state), seat, now))
        events = GAME.decide(state, seat, command, now)
        # the same events when the board before is remembered (no cell asked first)
        remembered = _fresh(state)
        frontier(remembered.game.cells, remembered.game.points)
        assert GAME.decide(remembered, seat, command, now) == events
        log += events
        after = GAME.fold(state, events)
        assert after == _plain_fold(state, events)
        assert GAME.fold(state, _copy(events)) == after  # equal events, not the same objects
        assert GAME.fold(_fresh(state), events) == after  # an equal state, not the same one
        assert GAME.fold(state, iter(events)) == after
        for viewer in (0, 1):
            for event in events:
                shown = GAME.redact(event, viewer)
                for names in (list(PLAYERS), ["Bob", "Ann"], ["Ann"]):
                    text = GAME.describe(shown, names)
                    assert text == GAME.describe(shown, tuple(names))
                    said = table_words if isinstance(shown, ClockSet) else words
                    assert text == said.describe(shown, names)
        state = after
    assert state == GAME.replay(_copy(log)) == _plain_fold(GAME.initial(), log)


def test_fold_of_no_event_is_the_state_itself() -> None:
    state = GAME.fold(GAME.initial(), GAME.start(Setup(seed=1, players=PLAYERS), 0))
    assert GAME.fold(state, []) is state
    assert CRAZYMINO.fold(state.game, []) is state.game


def test_folded_knows_only_what_decide_made_on_that_very_state() -> None:
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=2, players=PLAYERS)))
    seat = state.seat_to_play
    assert seat is not None
    command = CRAZYMINO.legal(state, seat)[0]
    events = CRAZYMINO.decide(state, seat, command)
    after = rules.folded(state, events)
    plain = state
    for event in events:
        plain = rules.evolve(plain, event)
    assert after is not None and after == plain
    assert rules.folded(replace(state, cells=tuple(list(state.cells))), events) is None
    assert rules.folded(state, [*events[:-1], TurnPassed(seat)]) is None
    assert rules.folded(state, []) is None


@pytest.mark.parametrize("seed", range(4))
def test_hand_fits_near_is_fits_near_of_the_hands_turns(seed: int) -> None:
    choose = random.Random(seed)
    state = CRAZYMINO.replay(CRAZYMINO.start(Setup(seed=seed, players=PLAYERS)))
    while not CRAZYMINO.is_over(state):
        for cell in range(14 * 14):
            for size in (0, 1, 3, 20):
                hand = tuple(choose.sample(range(120), size))
                expected = fits_near(state.cells, state.points, cell, hand_turns(hand))
                assert hand_fits_near(state.cells, state.points, cell, hand) == expected
        seat = state.seat_to_play
        assert seat is not None
        state = CRAZYMINO.fold(
            state, CRAZYMINO.decide(state, seat, choose.choice(CRAZYMINO.legal(state, seat)))
        )
