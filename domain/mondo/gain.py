"""How much a face laid on a space would change a board's score, worked out incrementally.

The AI weighs every free tile, both faces, four turns and every open space: thousands of
placements per decision. Scoring each whole board would be far too slow, so the board is surveyed
once and each open space summed up by what meets each of its sides (nothing, the border, or a
landscape of a neighbouring tile that this placement might close). A placement's change then
depends only on that summary and the face's *shape* (its edges and regions): 376 shapes among the
1,088 turned faces, and a handful of distinct summaries, so each pair is worked out once and
remembered. Animals and volcanoes are added per face.

The change counted: the empty space filled (+1), closure errors made (-1 each), landscapes other
than water closed without error (+2 each), the animal (+1), the volcano (by the majority rule),
plus `MATCH` for each side that meets its own landscape: not points yet, but where a board that
fits together comes from.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.mondo.board import BORDER, NEIGHBOURS, OPPOSITE, open_spaces
from domain.mondo.faces import ORIENTED, WATER, Four, Oriented
from domain.mondo.survey import Laid, survey

MATCH = 0.25  # the worth of a side that meets its own landscape (a tie-breaker that looks ahead)
EMPTY, ON_BORDER, ON_TILE = 0, 1, 2

#: A side of an open space: (EMPTY,), (ON_BORDER, landscape) or
#: (ON_TILE, landscape, landscape number within the space, closable).
Side = tuple[int, ...]
Summary = tuple[Side, Side, Side, Side]

_shapes: dict[tuple[Four, Four], int] = {}
#: SHAPE[tile][face][quarters]: the number of the face's shape.
SHAPE: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(
        tuple(_shapes.setdefault((o.edges, o.region_of), len(_shapes)) for o in turns)
        for turns in faces
    )
    for faces in ORIENTED
)
SHAPES: tuple[tuple[Four, Four], ...] = tuple(_shapes)


class Placing(NamedTuple):
    gain: float
    tile: int
    face: int
    quarters: int
    space: int


def change(summary: Summary, shape: int) -> float:
    """The score change (and the MATCH look-ahead) of a shape laid where `summary` says, before
    its animal and volcano: -1 per error, +2 per landscape other than water it closes."""
    edges, region_of = SHAPES[shape]
    regions = max(region_of) + 1
    spoiled = [False] * regions  # open, or meeting another landscape: it cannot close now
    joins: list[list[int]] = [[] for _ in range(regions)]
    broken: set[int] = set()  # neighbouring landscapes this placement gives an error
    closable: dict[int, bool] = {}
    errors = matched = 0
    for side in range(4):
        meets, region, landscape = summary[side], region_of[side], edges[side]
        if meets[0] == EMPTY:
            spoiled[region] = True
        elif meets[1] != landscape:
            errors += 1
            spoiled[region] = True
            if meets[0] == ON_TILE:
                broken.add(meets[2])
        else:
            matched += 1
            if meets[0] == ON_TILE:
                joins[region].append(meets[2])
                closable[meets[2]] = bool(meets[3])
    closed = 0
    for group in _groups(joins):
        if any(spoiled[r] for r in group):
            continue
        touched = {n for r in group for n in joins[r]}
        if all(closable[n] and n not in broken for n in touched):
            closed += edges[region_of.index(group[0])] != WATER
    return 2 * closed - errors + MATCH * matched


def matches(summary: Summary, shape: int) -> int:
    """The sides of a shape laid where `summary` says that meet their own landscape: what
    `change` counts `MATCH` for (a look-ahead, not points)."""
    edges = SHAPES[shape][0]
    return sum(
        1 for side in range(4) if summary[side][0] != EMPTY and summary[side][1] == edges[side]
    )


def _groups(joins: list[list[int]]) -> list[list[int]]:
    """The face's regions, grouped when they join the same neighbouring landscape."""
    groups: list[list[int]] = []
    seen: list[set[int]] = []
    for region, landscapes in enumerate(joins):
        mine = set(landscapes)
        hit = [g for g, s in enumerate(seen) if s & mine]
        if not hit:
            groups.append([region])
            seen.append(mine)
            continue
        first = hit[0]
        groups[first].append(region)
        seen[first] |= mine
        for other in reversed(hit[1:]):
            groups[first] += groups.pop(other)
            seen[first] |= seen.pop(other)
    return groups


class Frontier:
    """A board's open spaces, each summed up by what meets its sides."""

    def __init__(self, laid: Laid, border: Four) -> None:
        self.board = board = survey(laid, border)
        self.spaces = open_spaces([face is not None for face in laid])
        self.summaries: list[Summary] = []
        for space in self.spaces:
            sides: list[Side] = []
            local: dict[int, int] = {}
            for side in range(4):
                other = NEIGHBOURS[space][side]
                face = laid[other] if other != BORDER else None
                if other == BORDER:
                    sides.append((ON_BORDER, border[side]))
                elif face is None:
                    sides.append((EMPTY,))
                else:
                    back = OPPOSITE[side]
                    number = board.labels[other][face.region_of[back]]
                    landscape = board.landscapes[number]
                    closable = landscape.flawless and all(o == space for o in landscape.openings)
                    n = local.setdefault(number, len(local))
                    sides.append((ON_TILE, face.edges[back], n, int(closable)))
            self.summaries.append((sides[0], sides[1], sides[2], sides[3]))
        self._memo: dict[tuple[Summary, int], float] = {}

    def change(self, at: int, shape: int) -> float:
        """The change of a shape laid on the `at`-th open space."""
        key = (self.summaries[at], shape)
        value = self._memo.get(key)
        if value is None:
            value = self._memo[key] = change(key[0], shape)
        return value

    def points(self, placing: Placing) -> float:
        """A placing's gain in points: without the `MATCH` look-ahead."""
        at = self.spaces.index(placing.space)
        shape = SHAPE[placing.tile][placing.face][placing.quarters]
        return placing.gain - MATCH * matches(self.summaries[at], shape)

    def best(self, tile: int, faces: Sequence[int], extra: Sequence[float]) -> Placing | None:
        """The best placing of a tile showing one of `faces` (`extra[face]`: its animal and
        volcano), on the first space, face and turn on ties."""
        best: Placing | None = None
        for face in faces:
            shapes = SHAPE[tile][face]
            bonus = 1 + extra[face]
            for at, space in enumerate(self.spaces):
                for quarters in range(4 if ORIENTED[tile][face][0].kinds[1:] else 1):
                    gain = self.change(at, shapes[quarters]) + bonus
                    if best is None or gain > best.gain:
                        best = Placing(gain, tile, face, quarters, space)
        return best


def face_extra(face: Oriented, volcano: Sequence[float]) -> float:
    """What a face's animal and volcano add: +1 for an animal, `volcano[kind]` for a volcano."""
    return (face.animal >= 0) + volcano[face.volcano]
