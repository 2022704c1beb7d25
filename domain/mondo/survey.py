"""What a world board shows: its landscapes, closure errors, empty spaces, animals, volcanoes.

A landscape is a set of tile regions of one landscape joined across shared edges. An edge where
two tiles show different landscapes is one closure error, and so is a tile edge on the border
that differs from the border's landscape. An edge next to an empty space is no error, but the
landscape reaching it is not closed. A landscape is closed and error-free when every edge of it
meets the same landscape (a tile's or the border's).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from domain.mondo.board import BORDER, NEIGHBOURS, OPPOSITE, SPACES
from domain.mondo.faces import ACTIVE, INACTIVE, Four, Oriented

#: A board as the survey reads it: each space's face as laid, or None.
Laid = Sequence[Oriented | None]


class Landscape(NamedTuple):
    """One landscape of a board: regions of one kind joined across shared edges."""

    kind: int
    tiles: int  # how many tiles it spreads over (not its area)
    species: tuple[int, ...]  # the animals standing in it
    closed: bool  # no edge of it faces an empty space
    flawless: bool  # no edge of it meets another landscape (a tile's or the border's)
    on_border: bool  # some edge of it lies on the board's border
    openings: tuple[int, ...]  # the empty space each of its open edges faces

    @property
    def complete(self) -> bool:
        """Closed and error-free: what the scorings count."""
        return self.closed and self.flawless


class Survey(NamedTuple):
    landscapes: tuple[Landscape, ...]
    #: labels[space][region]: the index in `landscapes` of the landscape that region is part of.
    labels: tuple[tuple[int, ...], ...]
    errors: int
    empty: int
    species: tuple[int, ...]  # every animal on the board
    active: int  # active volcanoes
    inactive: int  # inactive volcanoes

    @property
    def full(self) -> bool:
        return self.empty == 0


def _find(parent: list[int], node: int) -> int:
    while parent[node] != node:
        parent[node] = parent[parent[node]]
        node = parent[node]
    return node


def survey(laid: Laid, border: Four) -> Survey:
    """Everything the scorings need to know about one board."""
    base = [0] * SPACES  # the first node number of each space's regions
    count = 0
    for space, face in enumerate(laid):
        base[space] = count
        count += len(face.kinds) if face else 0
    parent = list(range(count))
    errors = 0
    open_to: list[list[int]] = [[] for _ in range(count)]
    faulty = [False] * count
    on_border = [False] * count
    for space, face in enumerate(laid):
        if face is None:
            continue
        for side in range(4):
            node = base[space] + face.region_of[side]
            landscape = face.edges[side]
            other = NEIGHBOURS[space][side]
            if other == BORDER:
                on_border[node] = True
                if border[side] != landscape:
                    errors += 1
                    faulty[node] = True
                continue
            neighbour = laid[other]
            if neighbour is None:
                open_to[node].append(other)
            elif neighbour.edges[OPPOSITE[side]] != landscape:
                errors += side < 2  # each shared edge counted once, from its north or east tile
                faulty[node] = True
            else:
                a = _find(parent, node)
                b = _find(parent, base[other] + neighbour.region_of[OPPOSITE[side]])
                if a != b:
                    parent[b] = a
    return _gather(laid, base, parent, open_to, faulty, on_border, errors)


def _gather(
    laid: Laid,
    base: list[int],
    parent: list[int],
    open_to: list[list[int]],
    faulty: list[bool],
    on_border: list[bool],
    errors: int,
) -> Survey:
    index: dict[int, int] = {}
    kind: list[int] = []
    spaces: list[set[int]] = []
    species: list[list[int]] = []
    openings: list[list[int]] = []
    flawed: list[bool] = []
    bordered: list[bool] = []
    labels: list[tuple[int, ...]] = []
    animals: list[int] = []
    active = inactive = empty = 0
    for space, face in enumerate(laid):
        if face is None:
            labels.append(())
            empty += 1
            continue
        row = []
        for region in range(len(face.kinds)):
            node = base[space] + region
            root = _find(parent, node)
            if root not in index:
                index[root] = len(kind)
                kind.append(face.kinds[region])
                spaces.append(set())
                species.append([])
                openings.append([])
                flawed.append(False)
                bordered.append(False)
            at = index[root]
            row.append(at)
            spaces[at].add(space)
            openings[at] += open_to[node]
            flawed[at] = flawed[at] or faulty[node]
            bordered[at] = bordered[at] or on_border[node]
            if face.animal_region == region:
                species[at].append(face.animal)
        labels.append(tuple(row))
        if face.animal >= 0:
            animals.append(face.animal)
        active += face.volcano == ACTIVE
        inactive += face.volcano == INACTIVE
    landscapes = tuple(
        Landscape(
            kind[i],
            len(spaces[i]),
            tuple(species[i]),
            not openings[i],
            not flawed[i],
            bordered[i],
            tuple(openings[i]),
        )
        for i in range(len(kind))
    )
    return Survey(landscapes, tuple(labels), errors, empty, tuple(animals), active, inactive)
