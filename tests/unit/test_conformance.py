"""Random legal games of every registered game (and the test suite's timed game), to their end.

Time runs on a simulated clock: each step it moves on by up to two seconds (in timed games), then
a timer that is due fires its command as the system, or else a seat that may act sends one of
its legal commands; when nobody may act, the clock jumps to the next timer. Seats that act at
once are interleaved at random.

Each game checks: replaying its events rebuilds an equal state; every event survives encode and
decode; no view or redacted event shows a viewer what it may not see; the seats to act always
have a legal command; each score equals the sum of its recorded details; the log checks with
`domain.verify`. A failing game's seed is in the test id and in the message.
"""

from __future__ import annotations

import os
import random
from typing import Any

import msgspec
import pytest
from game_profiles import ALL_GAMES, PROFILES, T0

from domain.game import AnyGame, Record, Setup
from domain.verify import verify

GAMES_PER_RUN = int(os.environ.get("CONFORMANCE_GAMES", "500"))
MAX_STEPS = 5_000


def test_every_game_has_a_profile() -> None:
    assert set(ALL_GAMES) == set(PROFILES)


def check_hidden(game: AnyGame, state: Any, events: list[Any], seed: int) -> None:
    profile = PROFILES[game.name]
    players = len(game.scores(state))
    for viewer in [None, *range(players)]:
        twin = profile.scramble(state, viewer, seed)
        assert game.view(twin, viewer) == game.view(state, viewer), f"view of {viewer} leaks"
        for event in events:
            redacted = game.redact(event, viewer)
            assert not profile.event_leaks(redacted, viewer), (viewer, redacted)
            assert decode(game, msgspec.json.encode(redacted)) == redacted


_DECODERS: dict[str, msgspec.json.Decoder[Any]] = {}


def decode(game: AnyGame, data: bytes) -> Any:
    """An event of the game from JSON, with one decoder per game (made once)."""
    decoder = _DECODERS.get(game.name)
    if decoder is None:
        decoder = _DECODERS[game.name] = msgspec.json.Decoder(game.event_type)
    return decoder.decode(data)


def play(game: AnyGame, seed: int) -> None:
    rng = random.Random(seed)
    profile = PROFILES[game.name]
    players = tuple(f"p{i}" for i in range(rng.choice(profile.seat_counts)))
    setup = Setup(seed=seed, players=players, options=profile.options(rng))
    now = T0
    events = list(game.start(setup, now))
    records = [Record(now, None, e) for e in events]
    state = game.replay(events)
    steps = 0
    running = (state, list(events))
    while not game.is_over(state):
        running = (state, list(events))
        now += rng.randrange(0, 2_000) if game.shape.timed else 0
        actors = sorted(game.to_act(state))
        due = [t for t in game.timers(state) if t.due <= now]
        if not actors and not due:
            timers = game.timers(state)
            assert timers, "nobody may act in a running game and no timer will"
            now = min(t.due for t in timers)
            continue
        if due:  # the server fires a timer that is due before anything else happens
            seat, command = None, rng.choice(due).command
        else:
            for seat in actors:
                assert game.legal(state, seat, now), f"seat {seat} has no legal command"
            seat = rng.choice(actors)
            command = rng.choice(game.legal(state, seat, now))
        new = game.decide(state, seat, command, now)
        assert new, f"{command} produced no event"
        state = game.fold(state, new)
        if seat is None:  # a timer that fires twice, or late, changes nothing
            assert not game.decide(state, None, command, now + 1)
        events += new
        records += [Record(now, seat, e) for e in new]
        steps += 1
        assert steps < MAX_STEPS, "the game does not end"
        if steps % 25 == 0 and not game.is_over(state):
            check_hidden(game, state, events, seed)
    check_hidden(game, *running, seed)
    assert game.replay(events) == state
    for event in events:
        assert decode(game, msgspec.json.encode(event)) == event
    assert profile.scores_from_log(state) == game.scores(state)
    assert all(not game.legal(state, s, now) for s in range(len(players)))
    assert not game.timers(state), "a finished game asks for no timer"
    assert verify(game, setup, records) == state


@pytest.mark.parametrize("name", sorted(ALL_GAMES))
@pytest.mark.parametrize("seed", range(GAMES_PER_RUN))
def test_random_games_to_the_end(name: str, seed: int) -> None:
    try:
        play(ALL_GAMES[name], seed)
    except AssertionError as failure:
        raise AssertionError(f"{name} seed {seed}: {failure}") from failure
