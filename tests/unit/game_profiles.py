"""What the conformance test needs to know of each game beyond the common interface.

Every registered game must have a profile here, so no game escapes the conformance test.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from msgspec.structs import replace

from domain.chance import Dice
from domain.crazymino.model import GameStarted, State, TileDrawn


@dataclass(frozen=True)
class Profile:
    seat_counts: Sequence[int]
    #: A state equal to the given one for `viewer`, with everything hidden from it scrambled.
    scramble: Callable[[Any, int | None, int], Any]
    #: What a redacted event shows that the viewer may not see (empty when nothing).
    event_leaks: Callable[[Any, int | None], list[str]]
    #: Each seat's score rebuilt from the score details recorded in the log.
    scores_from_log: Callable[[Any], tuple[int, ...]]


def _crazymino_scramble(state: State, viewer: int | None, seed: int) -> State:
    hidden = [s for s in range(len(state.hands)) if s != viewer]
    pool = Dice(seed).shuffled([t for s in hidden for t in state.hands[s]] + list(state.pile))
    hands = list(state.hands)
    for s in hidden:
        hands[s], pool = tuple(pool[: len(hands[s])]), pool[len(hands[s]) :]
    return replace(state, hands=tuple(hands), pile=tuple(pool), seed=None)


def _crazymino_event_leaks(event: Any, viewer: int | None) -> list[str]:
    leaks = []
    if isinstance(event, GameStarted):
        if event.pile is not None or event.seed is not None:
            leaks.append("pile order or seed")
        leaks += [
            f"hand of seat {s}" for s, h in enumerate(event.hands) if h is not None and s != viewer
        ]
    if isinstance(event, TileDrawn) and event.seat != viewer and event.tile is not None:
        leaks.append(f"tile drawn by seat {event.seat}")
    return leaks


def _crazymino_scores(state: State) -> tuple[int, ...]:
    scores = [0] * len(state.players)
    for placed in state.placements:
        if placed.seat is not None and placed.score is not None:
            scores[placed.seat] += placed.score.total
    if state.ended is not None and state.ended.seat is not None:
        scores[state.ended.seat] += sum(b.points for b in state.ended.bonus)
    return tuple(scores)


PROFILES: dict[str, Profile] = {
    "crazymino": Profile(
        seat_counts=(2, 3, 4),
        scramble=_crazymino_scramble,
        event_leaks=_crazymino_event_leaks,
        scores_from_log=_crazymino_scores,
    ),
}
