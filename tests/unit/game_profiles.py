"""What the conformance test needs to know of each game beyond the common interface.

Every registered game must have a profile here, so no game escapes the conformance test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from msgspec.structs import replace

from domain.bazaar import model as bazaar
from domain.bazaar.tables import WARES
from domain.chance import Dice
from domain.crazymino.model import GameStarted, State, TileDrawn
from domain.game import AnyGame
from domain.mondo import model as mondo
from domain.mondo.scoring import Score as MondoScore
from domain.registry import GAMES
from tests.games import dice_race

#: Every registered game, and the test suite's timed game.
ALL_GAMES: dict[str, AnyGame] = {**GAMES, dice_race.DICE_RACE.name: dice_race.DICE_RACE}
T0 = 1_800_000_000_000  # ms: a server time in 2027


@dataclass(frozen=True)
class Profile:
    seat_counts: Sequence[int]
    #: A state equal to the given one for `viewer`, with everything hidden from it scrambled.
    scramble: Callable[[Any, int | None, int], Any]
    #: What a redacted event shows that the viewer may not see (empty when nothing).
    event_leaks: Callable[[Any, int | None], list[str]]
    #: Each seat's score rebuilt from the score details recorded in the log.
    scores_from_log: Callable[[Any], tuple[int, ...]]
    #: Options for a random game.
    options: Callable[[random.Random], dict[str, Any]] = field(default=lambda rng: {})


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


def _bazaar_scramble(state: bazaar.State, viewer: int | None, seed: int) -> bazaar.State:
    """Every ware under a top and every ware never dealt, shuffled back into the stalls; a
    new seed (the bag)."""
    tops = {stall[0] for stall in state.stalls if stall}
    sold = {sale.ware.id for sale in state.sales}
    dice = Dice(seed)
    pool = dice.shuffled([w for w in range(len(WARES)) if w not in tops | sold])
    stalls = []
    for stall in state.stalls:
        hidden = max(len(stall) - 1, 0)
        stalls.append(stall[:1] + tuple(pool[:hidden]))
        pool = pool[hidden:]
    return replace(state, stalls=tuple(stalls), seed=dice.below(1 << 62))


def _bazaar_event_leaks(event: Any, viewer: int | None) -> list[str]:
    if isinstance(event, bazaar.GameStarted):
        return [n for n, v in (("stalls", event.stalls), ("seed", event.seed)) if v is not None]
    return []


def _bazaar_scores(state: bazaar.State) -> tuple[int, ...]:
    scores = [0] * len(state.players)
    for sale in state.sales:
        scores[sale.seat] += sale.price.points
    return tuple(scores)


def _race_scramble(state: dice_race.State, viewer: int | None, seed: int) -> dice_race.State:
    rng = random.Random(seed)
    totals = tuple(t if s == viewer else rng.randrange(40) for s, t in enumerate(state.totals))
    return replace(state, totals=totals, seed=rng.randrange(1 << 30))


def _race_event_leaks(event: Any, viewer: int | None) -> list[str]:
    if isinstance(event, dice_race.RaceStarted) and event.seed is not None:
        return ["seed"]
    if isinstance(event, dice_race.Rolled) and event.seat != viewer and event.face is not None:
        return [f"roll of seat {event.seat}"]
    return []


def _race_options(rng: random.Random) -> dict[str, Any]:
    return {"round_seconds": rng.choice([1, 2.5, 5]), "rounds": rng.randint(1, 3)}


def _mondo_scramble(state: mondo.State, viewer: int | None, seed: int) -> mondo.State:
    return replace(state, seed=random.Random(seed).randrange(1 << 30))


def _mondo_event_leaks(event: Any, viewer: int | None) -> list[str]:
    return ["seed"] if isinstance(event, mondo.GameStarted) and event.seed is not None else []


def _mondo_scores(state: mondo.State) -> tuple[int, ...]:
    def lines(s: MondoScore) -> int:
        board = s.animals + s.landscapes + s.empty_spaces + s.closure_errors
        return board + s.bonus + s.volcanoes + s.special + sum(t.points for t in s.tasks)

    return tuple(
        sum(lines(scores[seat]) for scores in state.results) for seat in range(len(state.players))
    )


def _mondo_options(rng: random.Random) -> dict[str, Any]:
    """Short rounds, so that a random game stays well under a second; some boards still fill."""
    return {
        "round_seconds": rng.choice([10, 30, 60]),
        "break_seconds": rng.choice([0, 5]),
        "advanced": rng.random() < 0.4,
        "expert": rng.random() < 0.4,
        "backside": rng.random() < 0.5,
    }


PROFILES: dict[str, Profile] = {
    "dice_race": Profile(
        seat_counts=(1, 2, 3, 4),
        scramble=_race_scramble,
        event_leaks=_race_event_leaks,
        scores_from_log=lambda state: state.scores,
        options=_race_options,
    ),
    "crazymino": Profile(
        seat_counts=(2, 3, 4),
        scramble=_crazymino_scramble,
        event_leaks=_crazymino_event_leaks,
        scores_from_log=_crazymino_scores,
    ),
    "bazaar": Profile(
        seat_counts=(1, 2, 3, 4, 5, 6),
        scramble=_bazaar_scramble,
        event_leaks=_bazaar_event_leaks,
        scores_from_log=_bazaar_scores,
    ),
    "mondo": Profile(
        seat_counts=(1, 2, 3, 4),
        scramble=_mondo_scramble,
        event_leaks=_mondo_event_leaks,
        scores_from_log=_mondo_scores,
        options=_mondo_options,
    ),
}
