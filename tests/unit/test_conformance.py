"""Random legal games of every registered game, played to their end.

Each game checks: replaying its events rebuilds an equal state; every event survives encode and
decode; no view or redacted event shows a viewer what it may not see; the seats to act always
have a legal command; each score equals the sum of its recorded details. A failing game's seed
is in the test id and in the message.
"""

from __future__ import annotations

import os
import random
from typing import Any

import msgspec
import pytest
from game_profiles import PROFILES

from domain.game import Game, Setup
from domain.registry import GAMES

GAMES_PER_RUN = int(os.environ.get("CONFORMANCE_GAMES", "500"))
MAX_STEPS = 5_000


def test_every_game_has_a_profile() -> None:
    assert set(GAMES) == set(PROFILES)


def check_hidden(game: Game[Any, Any, Any, Any], state: Any, events: list[Any], seed: int) -> None:
    profile = PROFILES[game.name]
    players = len(game.scores(state))
    for viewer in [None, *range(players)]:
        twin = profile.scramble(state, viewer, seed)
        assert game.view(twin, viewer) == game.view(state, viewer), f"view of {viewer} leaks"
        for event in events:
            redacted = game.redact(event, viewer)
            assert not profile.event_leaks(redacted, viewer), (viewer, redacted)
            assert decode(game, msgspec.json.encode(redacted)) == redacted


def decode(game: Game[Any, Any, Any, Any], data: bytes) -> Any:
    return msgspec.json.decode(data, type=game.event_type)


def play(game: Game[Any, Any, Any, Any], seed: int) -> None:
    rng = random.Random(seed)
    profile = PROFILES[game.name]
    players = tuple(f"p{i}" for i in range(rng.choice(profile.seat_counts)))
    events = list(game.start(Setup(seed=seed, players=players)))
    state = game.replay(events)
    steps = 0
    running = (state, list(events))
    while not game.is_over(state):
        running = (state, list(events))
        actors = sorted(game.to_act(state))
        assert actors, "nobody may act in a running game"
        for seat in actors:
            assert game.legal(state, seat), f"seat {seat} has no legal command"
        seat = rng.choice(actors)
        command = rng.choice(game.legal(state, seat))
        new = game.decide(state, seat, command)
        assert new, f"{command} produced no event"
        state = game.fold(state, new)
        events += new
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        if steps % 25 == 0 and not game.is_over(state):
            check_hidden(game, state, events, seed)
    check_hidden(game, *running, seed)
    assert game.replay(events) == state
    for event in events:
        assert decode(game, msgspec.json.encode(event)) == event
    assert profile.scores_from_log(state) == game.scores(state)
    assert all(not game.legal(state, s) for s in range(len(players)))


@pytest.mark.parametrize("name", sorted(GAMES))
@pytest.mark.parametrize("seed", range(GAMES_PER_RUN))
def test_random_games_to_the_end(name: str, seed: int) -> None:
    try:
        play(GAMES[name], seed)
    except AssertionError as failure:
        raise AssertionError(f"{name} seed {seed}: {failure}") from failure
