"""The faces of the tiles, as laid: what each edge and each region of a turned face shows.

Inside the rules landscapes, species and sides are small whole numbers (fast to compare); their
names are what commands, events and views carry. A face turned by a quarter turn clockwise moves
what was on side `i` to side `i + 1` (north to east).
"""

from __future__ import annotations

from typing import Literal, NamedTuple, get_args

from domain.mondo.first_tiles import FIRST_TILES
from domain.mondo.tiles import TILES

LandscapeName = Literal["water", "forest", "desert", "steppe"]
Species = Literal[
    "whale", "dolphin", "turtle", "octopus",
    "panda", "parrot", "tiger", "gorilla",
    "scorpion", "gecko", "snake", "ostrich",
    "elephant", "zebra", "antelope", "buffalo",
]  # fmt: skip
FaceName = Literal["plain", "variable"]
Volcano = Literal["active", "inactive"]
SideName = Literal["north", "east", "south", "west"]

LANDSCAPES: tuple[LandscapeName, ...] = get_args(LandscapeName)
WATER, FOREST, DESERT, STEPPE = range(4)
#: Every species, four per landscape in the order of LANDSCAPES: species // 4 is its landscape.
SPECIES: tuple[Species, ...] = get_args(Species)
SIDES: tuple[SideName, ...] = get_args(SideName)
NORTH, EAST, SOUTH, WEST = range(4)
FACES: tuple[FaceName, ...] = get_args(FaceName)
ROTATIONS = (0, 90, 180, 270)
NO_VOLCANO, ACTIVE, INACTIVE = 0, 1, 2
TILE_COUNT = len(TILES)

_LETTER = {"w": WATER, "f": FOREST, "d": DESERT, "s": STEPPE}
_SIDE = {"N": NORTH, "E": EAST, "S": SOUTH, "W": WEST}
_VOLCANO = {"": NO_VOLCANO, "active": ACTIVE, "inactive": INACTIVE}


Four = tuple[int, int, int, int]


class Oriented(NamedTuple):
    """One face of a tile as laid, turned. Regions are numbered; every side belongs to one."""

    edges: Four  # the landscape on each side (north, east, south, west)
    region_of: Four  # the region on each side
    kinds: tuple[int, ...]  # each region's landscape
    sides: tuple[tuple[int, ...], ...]  # each region's sides
    animal: int  # the species on the face, or -1
    animal_region: int  # the region it stands in, or -1
    volcano: int  # NO_VOLCANO, ACTIVE or INACTIVE


def _four(values: list[int]) -> Four:
    return values[0], values[1], values[2], values[3]


def _plain(letter: str) -> Oriented:
    kind = _LETTER[letter]
    return Oriented((kind,) * 4, (0, 0, 0, 0), (kind,), ((0, 1, 2, 3),), -1, -1, NO_VOLCANO)


def _variable(edges: str, regions: tuple[tuple[str, str], ...], volcano: str) -> Oriented:
    sides = tuple(tuple(_SIDE[s] for s in letters) for letters, _ in regions)
    region_of = [0, 0, 0, 0]
    for number, members in enumerate(sides):
        for side in members:
            region_of[side] = number
    homes = [(n, SPECIES.index(animal)) for n, (_, animal) in enumerate(regions) if animal]
    region, animal = homes[0] if homes else (-1, -1)
    return Oriented(
        _four([_LETTER[e] for e in edges]),
        _four(region_of),
        tuple(_LETTER[edges[r[0]]] for r in sides),
        sides,
        animal,
        region,
        _VOLCANO[volcano],
    )


def turn(face: Oriented, quarters: int) -> Oriented:
    """The face turned clockwise by `quarters` quarter turns."""
    q = quarters % 4
    if q == 0:
        return face
    edges = _four([face.edges[(i - q) % 4] for i in range(4)])
    region_of = _four([face.region_of[(i - q) % 4] for i in range(4)])
    sides = tuple(tuple(sorted((s + q) % 4 for s in region)) for region in face.sides)
    return face._replace(edges=edges, region_of=region_of, sides=sides)


def _turns(face: Oriented) -> tuple[Oriented, ...]:
    return tuple(turn(face, q) for q in range(4))


#: A tile set's faces: [tile][face][quarters], face 0 plain, 1 variable, quarters = rotation // 90.
TileFaces = tuple[tuple[tuple[Oriented, ...], tuple[Oriented, ...]], ...]


def _tile_faces(tiles: tuple[tuple[str, str, tuple[tuple[str, str], ...], str], ...]) -> TileFaces:
    return tuple(
        (_turns(_plain(plain)), _turns(_variable(edges, regions, volcano)))
        for plain, edges, regions, volcano in tiles
    )


#: Today's tiles' faces (what the AI plans with); `FIRST_ORIENTED`, the first set's.
ORIENTED: TileFaces = _tile_faces(TILES)
FIRST_ORIENTED: TileFaces = _tile_faces(FIRST_TILES)


def tile_faces(rules: int) -> TileFaces:
    """The faces of the tiles a game played under version `rules` of the rules lays: the
    first set for version 1, today's since (`domain.mondo.model.VERSIONS`)."""
    return FIRST_ORIENTED if rules == 1 else ORIENTED


def face_index(face: FaceName) -> int:
    return 0 if face == "plain" else 1


def oriented(tile: int, face: FaceName, rotation: int, faces: TileFaces = ORIENTED) -> Oriented:
    """A tile's face turned clockwise by `rotation` degrees (0, 90, 180 or 270)."""
    return faces[tile][face_index(face)][rotation // 90]
