"""AI policies: pure functions of the seat's own view, the entropy drawn outside, and the time.

An AI seat acts every few seconds (its level's pace, `PACE`, which the service reads through
`ai_delay`). Not holding a tile, it takes the display tile whose best placement gains its board
the most, or the bonus chip when no tile would pay or when the clock leaves no time for another
tile and the chip after it. A display tile is judged by the face it shows, as a person sees it;
once in hand, `normal` weighs both faces. Holding a tile, the AI lays it the best way. It never
turns or lifts a placed tile and takes no tasks (a task risks its points).

- `easy` looks at a dozen display tiles picked by the entropy (at all of them only when none of
  those would pay), lays the face it took, and acts every 6 seconds;
- `normal` looks at every free tile, every turn and open space, and acts every 3 seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Literal

from domain.mondo.board import SPACES
from domain.mondo.faces import FACES, LANDSCAPES, ORIENTED, Oriented, face_index, oriented
from domain.mondo.gain import Frontier, Placing, face_extra
from domain.mondo.model import Command, PlaceTile, TakeBonus, TakeTile
from domain.mondo.views import MondoView

Level = Literal["easy", "normal"]
#: Seconds between an AI's commands, by level (a tile takes two: take it, place it).
PACE: dict[str, float] = {"easy": 6.0, "normal": 3.0}
#: Time kept in hand before the deadline for the last commands to arrive (ms).
MARGIN_MS = 2_000
#: Below this gain a tile is not worth taking: the chip is.
WORTH = 0.5
EASY_LOOKS = 12


def _laid(view: MondoView, seat: int) -> list[Oriented | None]:
    laid: list[Oriented | None] = [None] * SPACES
    for placed in view.seats[seat].board:
        face = placed.face
        laid[placed.space] = oriented(face.tile, face.face, face.rotation)
    return laid


def _volcano_worth(view: MondoView, seat: int) -> tuple[float, float, float]:
    """What one more volcano of each kind (none, active, inactive) would cost this seat now."""
    mine = view.seats[seat].score_now.volcano_count
    others = max((s.score_now.volcano_count for s in view.seats if s.seat != seat), default=0)
    leader = False
    if view.last_round and view.round > 1:
        best = max(s.total for s in view.last_round)
        leader = view.last_round[seat].total == best

    def penalty(count: int) -> int:
        return -count if count >= others and count > 0 else 0

    one_more = float(penalty(mine + 1) - penalty(mine))
    return 0.0, one_more, one_more if leader else 0.0


def _borders(view: MondoView) -> tuple[int, int, int, int]:
    n, e, s, w = (LANDSCAPES.index(x) for x in view.border)
    return n, e, s, w


def _choose(
    view: MondoView, seat: int, tiles: Sequence[tuple[int, tuple[int, ...]]]
) -> Placing | None:
    """The best placing among `tiles` (each with the faces considered); the first on ties."""
    frontier = Frontier(_laid(view, seat), _borders(view))
    volcano = _volcano_worth(view, seat)
    best: Placing | None = None
    for tile, faces in tiles:
        extra = [face_extra(ORIENTED[tile][f][0], volcano) for f in range(2)]
        found = frontier.best(tile, faces, extra)
        if found is not None and (best is None or found.gain > best.gain):
            best = found
    return best


def _place(placing: Placing) -> PlaceTile:
    return PlaceTile(placing.tile, placing.space, FACES[placing.face], placing.quarters * 90)


def _policy(level: Level) -> Callable[[MondoView, int, int], Command]:
    pace_ms = round(PACE[level] * 1000)

    def policy(view: MondoView, entropy: int, now: int) -> Command:
        seat = view.viewer if view.viewer is not None else 0
        me = view.seats[seat]
        if me.held is not None:
            faces = (0, 1) if level == "normal" else (face_index(me.held.shown),)
            placing = _choose(view, seat, [(me.held.tile, faces)])
            return _place(placing) if placing else TakeBonus()
        if now + 2 * pace_ms + MARGIN_MS > view.deadline:
            return TakeBonus()
        free = [
            (d.shown.tile, (face_index(d.shown.face),)) for d in view.display if d.holder is None
        ]
        placing = None
        if level == "easy":  # a dozen tiles first; all of them only when none of those pays
            start = entropy % max(len(free), 1)
            placing = _choose(view, seat, (free[start:] + free[:start])[:EASY_LOOKS])
        if placing is None or placing.gain < WORTH:
            placing = _choose(view, seat, free)
        if placing is None or placing.gain < WORTH:
            return TakeBonus()
        return TakeTile(placing.tile)

    policy.__name__ = level
    policy.__doc__ = f"The `{level}` AI: see the module's docstring."
    return policy


POLICIES: dict[str, Callable[[MondoView, int, int], Command]] = {
    level: _policy(level) for level in ("easy", "normal")
}
