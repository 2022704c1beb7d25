"""Bazaar positions for known-answer tests, built without playing a whole game, and positions
reached by seeded random play."""

from __future__ import annotations

import random

from domain.bazaar.game import BAZAAR
from domain.bazaar.model import Phase, State
from domain.bazaar.stones import Stones, counts
from domain.bazaar.tables import WARES
from domain.bazaar.wares import STALLS, WARES_PER_STALL
from domain.game import Setup

#: Four stalls of six wares: ids 0-5, 6-11, 12-17, 18-23.
FULL_STALLS = tuple(
    tuple(range(s * WARES_PER_STALL, (s + 1) * WARES_PER_STALL)) for s in range(STALLS)
)


def ware_id(letters: str) -> int:
    """The catalogue id of the ware written as letters (``"RRRRW"``)."""
    return WARES.index(letters)


def position(
    *carpets: str,
    stalls: tuple[tuple[int, ...], ...] = FULL_STALLS,
    phase: Phase = "buy_or_end",
    cards: tuple[int, ...] = (0, 1),
    turn: int = 0,
    seed: int = 0,
) -> State:
    """A running game: one carpet per seat (letters), seats playing in seat order, seat
    `turn` to play in `phase`."""
    seats = len(carpets)
    piles: tuple[Stones, ...] = tuple(counts(c) for c in carpets)
    return State(
        players=tuple(f"P{s}" for s in range(seats)),
        order=tuple(range(seats)),
        turn=turn,
        cards=cards,
        stalls=stalls,
        carpets=piles,
        scores=(0,) * seats,
        phase=phase,
        seed=seed,
    )


def started(seed: int, seats: int = 2) -> State:
    """A new game from the seed."""
    return BAZAAR.replay(
        BAZAAR.start(Setup(seed=seed, players=tuple(f"P{s}" for s in range(seats))))
    )


def midgame(seed: int, seats: int = 3, steps: int = 60) -> State:
    """The game of `seats` from the seed after `steps` random legal commands."""
    rng = random.Random(seed)
    state = started(seed, seats)
    for _ in range(steps):
        (seat,) = BAZAAR.to_act(state)
        command = rng.choice(BAZAAR.legal(state, seat))
        state = BAZAAR.fold(state, BAZAAR.decide(state, seat, command))
    return state
