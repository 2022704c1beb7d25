"""AI policies: pure functions of the seat's own view, the entropy drawn outside, and the time.

An AI seat acts every few seconds (its level's pace, `PACE`, which the service reads through
`ai_delay`). Not holding a tile, it takes the display tile whose best placement gains its board
the most, or the bonus chip when staying would bring less than the chip (`leaving`: never while
a tile would pay and there is time for it). A display tile is judged by the face it shows, as a
person sees it; once in hand, `normal` weighs both faces. Holding a tile, the AI lays it the
best way. `easy` and `normal` never turn or lift a placed tile and take no tasks (a task risks
its points).

- `easy` looks at a dozen display tiles picked by the entropy (at all of them only when none of
  those would pay), lays the face it took, and acts every 6 seconds;
- `normal` looks at every free tile, every turn and open space, and acts every 3 seconds;
- `hard` (`domain/mondo/hard.py`) plans with a look-ahead, the special scoring and the tasks,
  and acts every 2 seconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from domain.mondo import hard
from domain.mondo.faces import FACES, ORIENTED, face_index
from domain.mondo.gain import Frontier, Placing, face_extra
from domain.mondo.leaving import stays
from domain.mondo.model import Command, PlaceTile, TakeBonus, TakeTile
from domain.mondo.outlook import borders, free_tiles, laid, seat_of, volcano_worth
from domain.mondo.views import MondoView

#: Seconds between an AI's commands, by level (a tile takes two: take it, place it).
PACE: dict[str, float] = {"easy": 6.0, "normal": 3.0, "hard": hard.PACE}
#: Below these points the best of `easy`'s dozen tiles is not enough: it looks at every tile.
WORTH = 0.5
EASY_LOOKS = 12


def _choose(
    view: MondoView, seat: int, tiles: Sequence[tuple[int, tuple[int, ...]]]
) -> tuple[Placing, float] | None:
    """The best placing among `tiles` (each with the faces considered; the first on ties),
    with its gain in points."""
    frontier = Frontier(laid(view, seat), borders(view))
    volcano = volcano_worth(view, seat)
    best: Placing | None = None
    for tile, faces in tiles:
        extra = [face_extra(ORIENTED[tile][f][0], volcano) for f in range(2)]
        found = frontier.best(tile, faces, extra)
        if found is not None and (best is None or found.gain > best.gain):
            best = found
    return None if best is None else (best, frontier.points(best))


def _place(placing: Placing) -> PlaceTile:
    return PlaceTile(placing.tile, placing.space, FACES[placing.face], placing.quarters * 90)


def _policy(level: str) -> Callable[[MondoView, int, int], Command]:
    pace_ms = round(PACE[level] * 1000)

    def policy(view: MondoView, entropy: int, now: int) -> Command:
        seat = seat_of(view)
        me = view.seats[seat]
        if me.held is not None:
            faces = (0, 1) if level == "normal" else (face_index(me.held.shown),)
            held = _choose(view, seat, [(me.held.tile, faces)])
            if held and stays(view, seat, held[1], now, pace_ms, holding=True):
                return _place(held[0])
            return TakeBonus()
        free = free_tiles(view)
        found = None
        if level == "easy":  # a dozen tiles first; all of them only when none of those pays
            start = entropy % max(len(free), 1)
            found = _choose(view, seat, (free[start:] + free[:start])[:EASY_LOOKS])
        if found is None or found[1] < WORTH:
            found = _choose(view, seat, free)
        if found is None or not stays(view, seat, found[1], now, pace_ms):
            return TakeBonus()
        return TakeTile(found[0].tile)

    policy.__name__ = level
    policy.__doc__ = f"The `{level}` AI: see the module's docstring."
    return policy


POLICIES: dict[str, Callable[[MondoView, int, int], Command]] = {
    **{level: _policy(level) for level in ("easy", "normal")},
    "hard": hard.policy,
}
