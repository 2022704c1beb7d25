"""`legal(state, seat, now)` agrees with `decide` at that `now`: every legal command is accepted,
and every other command of a wide superset is refused, in random positions at random times
(inside and after a grace, up to and past the deadline)."""

from __future__ import annotations

import random

import pytest
from mondo_builders import T0

from domain.errors import RuleError
from domain.game import Setup
from domain.mondo.faces import FACES
from domain.mondo.game import MONDO
from domain.mondo.model import (
    Command,
    LiftPlaced,
    PlaceTile,
    ReturnTile,
    State,
    TakeBonus,
    TakeTask,
    TakeTile,
    TurnPlaced,
)
from domain.mondo.tasks import TASKS

ROUND = 60_000


def superset(state: State, seat: int) -> list[Command]:
    """Every command worth trying for a seat: all tiles, spaces, faces, turns and tasks."""
    me = state.seats[seat]
    tiles = [me.held] if me.held is not None else []
    tiles += [0, 77, 135]
    commands: list[Command] = [TakeTile(t) for t in range(-1, 137)]
    commands += [ReturnTile(t) for t in tiles]
    commands += [
        PlaceTile(t, space, face, rotation)
        for t in tiles
        for space in range(-1, 25)
        for face in FACES
        for rotation in (0, 90, 180, 270, 45)
    ]
    commands += [TurnPlaced(r) for r in (0, 90, 180, 270, 360)]
    commands += [LiftPlaced(), TakeBonus()]
    commands += [TakeTask(t) for t in TASKS]
    return commands


def positions(seed: int) -> list[tuple[State, int]]:
    """States of a random game with a time for each, some inside a grace, some past a deadline."""
    rng = random.Random(seed)
    options = {"round_seconds": 60, "expert": seed % 2 == 0, "backside": seed % 3 == 0}
    setup = Setup(seed=seed, players=("a", "b", "c"), options=options)
    state = MONDO.replay(MONDO.start(setup, T0))
    now = T0
    found: list[tuple[State, int]] = []
    while not MONDO.is_over(state) and state.round == 1:
        now += rng.randrange(0, 2_500)
        due = [t for t in MONDO.timers(state) if t.due <= now]
        if due:
            break
        seat = rng.choice(sorted(MONDO.to_act(state)))
        legal = MONDO.legal(state, seat, now)
        placing = [c for c in legal if isinstance(c, PlaceTile)]
        choice = rng.choice(placing) if placing and rng.random() < 0.6 else rng.choice(legal)
        if isinstance(choice, TakeBonus) and rng.random() < 0.8:
            continue
        state = MONDO.fold(state, MONDO.decide(state, seat, choice, now))
        if rng.random() < 0.15:
            found.append((state, now + rng.choice([0, 1, 4_999, 5_000, 5_001, 9_000])))
    found.append((state, state.deadline))
    found.append((state, state.deadline + 1))
    return found


@pytest.mark.parametrize("seed", range(6))
def test_legal_is_what_decide_accepts(seed: int) -> None:
    for state, now in positions(seed):
        for seat in range(len(state.players)):
            legal = MONDO.legal(state, seat, now)
            for command in legal:
                assert MONDO.decide(state, seat, command, now), command
            allowed = set(map(repr, legal))
            for command in superset(state, seat):
                if repr(command) in allowed:
                    continue
                with pytest.raises(RuleError):
                    MONDO.decide(state, seat, command, now)
