"""Make Mondo's fixed data: the 136 two-faced tiles.

The output is the source of ``tiles.py``, which sits beside this script. Regenerate it from the
project root with::

    python domain/mondo/making/make_tiles.py > domain/mondo/tiles.py

Everything is deterministic (a fixed construction and a tiny inline SplitMix64, no ``random``),
so the command reproduces ``tiles.py`` byte for byte.

How the set is built (landscapes: w water, f forest, d desert, s steppe; sides N E S W):

- Variable faces by pattern, so that every landscape plays every part equally often and each
  landscape ends up on exactly 136 of the 544 variable edges:
  - 4 *whole* faces (one landscape, one region), one per landscape;
  - 84 faces of two landscapes, 14 per pair {a, b}: 3 *bays* of a in b and 3 of b in a
    (one edge against three), 4 *halves* (two edges each), 2 *straits* of a across b and 2 of b
    across a (a band from north to south between two regions of the other landscape);
  - 48 faces of three landscapes, 12 per trio: 6 *corners* (a pair of adjacent edges and two
    single edges), 3 *straits* between two different landscapes, 3 *islands* (four one-edge
    regions around a volcano in the centre).
- No two regions cross: a region holding north and south never meets one holding east and west.
  Two neighbouring edges of one landscape always belong to the same region.
- 64 animals, 4 of each of the 16 species, each in a region of its own landscape, at most one per
  face; 28 volcanoes, 14 active and 14 inactive (every island has one).
- No two tiles alike ("136 tuiles de paysages différentes"): no two variable faces are the same
  (edges, regions, animal and volcano) once one of them is turned. The patterns above repeat
  (3 bays of a in b, 4 halves, 2 straits of a across b), so their copies must differ by their
  animal or volcano: where the deal leaves two faces alike, the later one swaps its animal (or its
  lack of one) with a face tried from the last built back (the three-landscape faces first, which
  their pattern alone keeps apart), keeping every count above.
- Each face is turned by a random quarter turn; the plain face goes with the landscape the
  variable face shows most, as long as that landscape has plain faces left (34 each).
- The tiles are shuffled once, so that a tile's number tells nothing about it.
"""

from __future__ import annotations

LANDSCAPES = "wfds"  # water, forest, desert, steppe
SIDES = "NESW"
SPECIES: dict[str, tuple[str, ...]] = {
    "w": ("whale", "dolphin", "turtle", "octopus"),
    "f": ("panda", "parrot", "tiger", "gorilla"),
    "d": ("scorpion", "gecko", "snake", "ostrich"),
    "s": ("elephant", "zebra", "antelope", "buffalo"),
}
PLAIN_PER_LANDSCAPE = 34
ANIMALS_PER_SPECIES = 4
VOLCANOES = 28  # half of them active
SEED = 0x4D4F4E44_4F313336  # "MONDO136"

_MASK = (1 << 64) - 1

#: A face as built: its four edges (N, E, S, W) and its regions (each a set of side indices).
Build = tuple[str, tuple[tuple[int, ...], ...]]
#: A finished tile: plain landscape, edges, regions as (sides, animal), volcano.
Tile = tuple[str, str, tuple[tuple[str, str], ...], str]


class Mixer:
    """SplitMix64, the same generator as `domain.chance.Dice`, inlined to keep this a script."""

    def __init__(self, seed: int) -> None:
        self.state = seed & _MASK

    def below(self, n: int) -> int:
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
            z = self.state
            z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
            z ^= z >> 31
            if z < limit:
                return z % n

    def shuffled(self, items: list[int]) -> list[int]:
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def whole(a: str) -> Build:
    return a * 4, ((0, 1, 2, 3),)


def bay(a: str, b: str) -> Build:
    """`a` on the north edge only, `b` on the other three."""
    return a + b * 3, ((0,), (1, 2, 3))


def half(a: str, b: str) -> Build:
    return a * 2 + b * 2, ((0, 1), (2, 3))


def strait(a: str, b: str, c: str) -> Build:
    """A band of `a` from north to south, `b` on the east, `c` on the west."""
    return a + b + a + c, ((0, 2), (1,), (3,))


def corner(a: str, b: str, c: str) -> Build:
    """`a` on north and east, `b` on the south, `c` on the west."""
    return a + a + b + c, ((0, 1), (2,), (3,))


def island(a: str, b: str, c: str) -> Build:
    """Four one-edge regions around a volcano: `a` north and south, `b` east, `c` west."""
    return a + b + a + c, ((0,), (1,), (2,), (3,))


def variable_faces() -> list[Build]:
    """The 136 variable faces, unturned, in the order of their construction."""
    faces = [whole(a) for a in LANDSCAPES]
    for i, a in enumerate(LANDSCAPES):
        for b in LANDSCAPES[i + 1 :]:
            faces += [bay(a, b)] * 3 + [bay(b, a)] * 3 + [half(a, b)] * 4
            faces += [strait(a, b, b)] * 2 + [strait(b, a, a)] * 2
    for left_out in LANDSCAPES:
        trio = [x for x in LANDSCAPES if x != left_out]
        for k, a in enumerate(trio):
            b, c = trio[(k + 1) % 3], trio[(k + 2) % 3]
            faces += [corner(a, b, c), corner(a, c, b), strait(a, b, c), island(a, b, c)]
    return faces


def turned(face: Build, quarters: int) -> Build:
    """The face turned clockwise by `quarters` quarter turns: side i moves to side i + q."""
    edges, regions = face
    new_edges = "".join(edges[(i - quarters) % 4] for i in range(4))
    new_regions = tuple(sorted(tuple(sorted((s + quarters) % 4 for s in r)) for r in regions))
    return new_edges, new_regions


def _volcanoes(faces: list[Build], mixer: Mixer) -> list[str]:
    """Every island gets a volcano; the others go to faces drawn at random; half are active."""
    chosen = [i for i, (_, regions) in enumerate(faces) if len(regions) == 4]
    others = [i for i in mixer.shuffled(list(range(len(faces)))) if i not in chosen]
    chosen += others[: VOLCANOES - len(chosen)]
    kinds = [""] * len(faces)
    for n, i in enumerate(mixer.shuffled(chosen)):
        kinds[i] = "active" if n % 2 == 0 else "inactive"
    return kinds


def _animals(faces: list[Build], mixer: Mixer) -> list[tuple[int, str] | None]:
    """4 of each species, each on a face with a region of its landscape (its largest region), at
    most one per face: the whole faces first (so that none equals a plain face), then faces in a
    random order; species are dealt in turn so that no landscape runs out of faces first."""
    wholes = [i for i, (_, regions) in enumerate(faces) if len(regions) == 1]
    order = wholes + [i for i in mixer.shuffled(list(range(len(faces)))) if i not in wholes]
    animals: list[tuple[int, str] | None] = [None] * len(faces)
    for _ in range(ANIMALS_PER_SPECIES):
        for k in range(4):
            for landscape in LANDSCAPES:
                species = SPECIES[landscape][k]
                for i in order:
                    edges, regions = faces[i]
                    homes = [r for r, sides in enumerate(regions) if edges[sides[0]] == landscape]
                    if animals[i] is None and homes:
                        home = max(homes, key=lambda r: (len(regions[r]), -r))
                        animals[i] = (home, species)
                        break
    return animals


#: What a variable face is, whichever way it is turned: the least of its four turns' (edges,
#: regions with their animals, volcano).
Likeness = tuple[str, tuple[tuple[tuple[int, ...], str], ...], str]


def likeness(face: Build, animal: tuple[int, str] | None, volcano: str) -> Likeness:
    """Two faces are alike when their likenesses are equal: the same edges, regions, animal and
    volcano once one of them is turned."""
    _, regions = face
    home = regions[animal[0]] if animal else None
    species = animal[1] if animal else ""
    turns = []
    for quarters in range(4):
        edges, turned_regions = turned(face, quarters)
        home_turned = tuple(sorted((s + quarters) % 4 for s in home)) if home else None
        named = tuple((sides, species if sides == home_turned else "") for sides in turned_regions)
        turns.append((edges, named, volcano))
    return min(turns)


def _home(face: Build, species: str) -> tuple[int, str] | None:
    """The animal on this face: in its largest region of the species' landscape, if it has one."""
    edges, regions = face
    landscape = next(x for x in LANDSCAPES if species in SPECIES[x])
    homes = [r for r, sides in enumerate(regions) if edges[sides[0]] == landscape]
    if not homes:
        return None
    return max(homes, key=lambda r: (len(regions[r]), -r)), species


def _distinct(
    faces: list[Build], volcanoes: list[str], animals: list[tuple[int, str] | None]
) -> list[tuple[int, str] | None]:
    """The animals moved so that no two faces are alike ("136 tuiles de paysages différentes").
    While two faces are alike, the later one (in the order of construction) swaps its species, or
    its lack of one, with a face tried from the last built back: the first with another species
    (or none), where each species finds a region of its landscape and after which neither face is
    alike any other; a one-landscape face keeps an animal (so that it never equals a plain face).
    Swaps keep every species' count; volcanoes do not move."""
    animals = list(animals)

    def species(i: int) -> str:
        animal = animals[i]
        return animal[1] if animal else ""

    def housed(i: int, name: str) -> tuple[int, str] | None:
        return _home(faces[i], name) if name else None

    def alike_of(i: int) -> Likeness:
        return likeness(faces[i], animals[i], volcanoes[i])

    while True:
        seen: dict[Likeness, int] = {}
        twin = next((i for i in range(len(faces)) if seen.setdefault(alike_of(i), i) != i), None)
        if twin is None:
            return animals
        for other in reversed(range(len(faces))):
            mine, theirs = species(twin), species(other)
            if mine == theirs or (len(faces[other][1]) == 1 and not mine):
                continue
            given, taken = housed(twin, theirs), housed(other, mine)
            if bool(given) != bool(theirs) or bool(taken) != bool(mine):
                continue  # a species with no region of its landscape on that face
            before = animals[twin], animals[other]
            animals[twin], animals[other] = given, taken
            rest = {alike_of(i) for i in range(len(faces)) if i not in (twin, other)}
            if alike_of(twin) != alike_of(other) and not {alike_of(twin), alike_of(other)} & rest:
                break
            animals[twin], animals[other] = before
        else:
            raise ValueError(f"face {twin} cannot be made different from the others")


def _plain(edges: str, left: dict[str, int]) -> str:
    """The landscape the face shows most (ties: the first in LANDSCAPES) that has faces left."""
    ranked = sorted(LANDSCAPES, key=lambda x: (-edges.count(x), LANDSCAPES.index(x)))
    landscape = next(x for x in ranked if left[x] > 0)
    left[landscape] -= 1
    return landscape


def tile_set() -> tuple[Tile, ...]:
    """The 136 tiles: (plain landscape, edges N E S W, ((region sides, animal or ""), ...),
    volcano "active", "inactive" or "")."""
    mixer = Mixer(SEED)
    faces = variable_faces()
    volcanoes = _volcanoes(faces, mixer)
    animals = _distinct(faces, volcanoes, _animals(faces, mixer))
    left = dict.fromkeys(LANDSCAPES, PLAIN_PER_LANDSCAPE)
    tiles: list[Tile] = []
    for face, volcano, animal in zip(faces, volcanoes, animals, strict=True):
        quarters = mixer.below(4)
        home = face[1][animal[0]] if animal else ()
        edges, regions = turned(face, quarters)
        home_turned = tuple(sorted((s + quarters) % 4 for s in home))
        named = tuple(
            (
                "".join(SIDES[s] for s in sides),
                animal[1] if animal and sides == home_turned else "",
            )
            for sides in regions
        )
        tiles.append((_plain(edges, left), edges, named, volcano))
    return tuple(tiles[i] for i in mixer.shuffled(list(range(len(tiles)))))


def render() -> str:
    """The source of ``tiles.py``."""
    lines = [
        "# GENERATED by domain/mondo/making/make_tiles.py: do not edit by hand.",
        "# Regenerate from the project root with:",
        "#     python domain/mondo/making/make_tiles.py > domain/mondo/tiles.py",
        '"""Mondo\'s 136 tiles, each with a plain face and a variable face.',
        "",
        "TILES[i] is tile i: (plain landscape, variable edges, variable regions, volcano).",
        "Landscapes are letters: w water, f forest, d desert, s steppe. The variable face's edges",
        'read north, east, south, west; each region is (its sides, its animal or ""), sides as',
        'letters N E S W; the volcano is "active", "inactive" or "" (none).',
        '"""',
        "",
        "TILES: tuple[tuple[str, str, tuple[tuple[str, str], ...], str], ...] = (",
    ]
    for number, (plain, edges, regions, volcano) in enumerate(tile_set()):
        entry = f"    {(plain, edges, regions, volcano)!r},  # {number}"
        lines.append(entry.replace("'", '"'))
    lines.append(")")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(render(), end="")
