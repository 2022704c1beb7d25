"""Mondo's 136 tiles: the properties the rules state, and the script that makes them."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from domain.mondo import tiles
from domain.mondo.faces import (
    FOREST,
    LANDSCAPES,
    ORIENTED,
    SPECIES,
    STEPPE,
    WATER,
    Oriented,
    oriented,
    turn,
)
from domain.mondo.making import make_tiles
from domain.mondo.tiles import TILES

VARIABLE = [faces[1][0] for faces in ORIENTED]


def test_the_script_reproduces_tiles_py_byte_for_byte() -> None:
    path = Path(tiles.__file__).with_name("tiles.py")
    assert path.read_bytes() == make_tiles.render().encode()
    assert make_tiles.tile_set() == TILES


def test_136_tiles_with_34_plain_faces_of_each_landscape() -> None:
    assert len(TILES) == 136
    assert Counter(plain for plain, *_ in TILES) == dict.fromkeys("wfds", 34)
    for faces in ORIENTED:
        plain = faces[0][0]
        assert len(set(plain.edges)) == 1 and plain.kinds == (plain.edges[0],)
        assert plain.animal == -1 and plain.volcano == 0


@pytest.mark.parametrize("tile", range(136))
def test_a_variable_face_is_well_formed(tile: int) -> None:
    face = VARIABLE[tile]
    assert 1 <= len(set(face.edges)) <= 3
    assert sorted(s for sides in face.sides for s in sides) == [0, 1, 2, 3]  # each side once
    for side in range(4):
        region = face.region_of[side]
        assert side in face.sides[region] and face.kinds[region] == face.edges[side]
        neighbour = (side + 1) % 4  # neighbouring edges of one landscape are one region
        if face.edges[neighbour] == face.edges[side]:
            assert face.region_of[neighbour] == region


@pytest.mark.parametrize("tile", range(136))
def test_no_two_regions_cross(tile: int) -> None:
    sides = [set(s) for s in VARIABLE[tile].sides]
    for one in sides:
        for other in sides:
            assert one is other or not ({0, 2} <= one and {1, 3} <= other)


def test_at_most_one_animal_and_in_a_region_of_its_own_landscape() -> None:
    for tile, (_, _, regions, _) in enumerate(TILES):
        assert sum(1 for _, animal in regions if animal) <= 1
        face = VARIABLE[tile]
        if face.animal >= 0:
            assert face.kinds[face.animal_region] == face.animal // 4
            assert SPECIES[face.animal] in dict(regions).values()


def test_animals_on_about_45_percent_of_faces_every_species_four_times() -> None:
    animals = Counter(SPECIES[f.animal] for f in VARIABLE if f.animal >= 0)
    assert sum(animals.values()) == 64  # 47 % of 136
    assert animals == dict.fromkeys(SPECIES, 4)


def test_volcanoes_on_about_a_fifth_of_faces_half_of_them_active() -> None:
    volcanoes = Counter(f.volcano for f in VARIABLE if f.volcano)
    assert volcanoes == {1: 14, 2: 14}  # 28: 21 % of 136


def test_every_landscape_on_a_quarter_of_the_variable_edges() -> None:
    assert Counter(e for f in VARIABLE for e in f.edges) == dict.fromkeys(range(4), 136)
    assert Counter(len(set(f.edges)) for f in VARIABLE) == {1: 4, 2: 84, 3: 48}


def drawn(face: Oriented) -> tuple[object, ...]:
    """What a face shows as laid: each edge's landscape, each region's sides and landscape with
    its animal, the volcano."""
    regions = sorted(
        (sides, kind, face.animal if r == face.animal_region else -1)
        for r, (sides, kind) in enumerate(zip(face.sides, face.kinds, strict=True))
    )
    return face.edges, tuple(regions), face.volcano


def test_no_two_tiles_alike_even_turned() -> None:
    """The seed: "136 tuiles de paysages différentes". Two tiles are alike when one's variable
    face, turned, shows what the other's shows: no two are, whatever their plain faces."""
    seen: dict[tuple[object, ...], int] = {}
    alike = []
    for tile, turns in enumerate(ORIENTED):
        for face in {drawn(f) for f in turns[1]}:
            if seen.setdefault(face, tile) != tile:
                alike.append((seen[face], tile))
    assert alike == []
    assert len({min(drawn(f) for f in turns[1]) for turns in ORIENTED}) == 136


def test_two_faces_turned_alike_are_alike_for_the_generator() -> None:
    face = make_tiles.bay("w", "f")  # regions: north (water), east-south-west (forest)
    turned = make_tiles.turned(face, 1)  # regions: north-south-west (forest), east (water)
    assert turned[1] == ((0, 2, 3), (1,))
    assert make_tiles.likeness(turned, (0, "panda"), "") == (
        make_tiles.likeness(face, (1, "panda"), "")
    )
    assert make_tiles.likeness(face, (1, "panda"), "") != make_tiles.likeness(face, None, "")
    assert make_tiles.likeness(face, None, "active") != make_tiles.likeness(face, None, "inactive")


def test_a_one_landscape_variable_face_is_never_a_plain_face() -> None:
    for face in VARIABLE:
        if len(face.kinds) == 1:
            assert face.animal >= 0 or face.volcano


def test_a_quarter_turn_moves_north_to_east() -> None:
    face = oriented(3, "variable", 0)  # tile 3: steppe north, forest east-west band, water south
    assert face.edges == (STEPPE, FOREST, WATER, FOREST)
    turned = oriented(3, "variable", 90)
    assert turned.edges == (FOREST, STEPPE, FOREST, WATER)
    assert turned.sides == ((1,), (0, 2), (3,)) and turned.kinds == face.kinds
    assert turned.animal == face.animal and turned.animal_region == face.animal_region
    assert turn(turned, 3) == face
    assert oriented(3, "variable", 270) == turn(face, 3)


def test_the_generator_turns_faces_like_the_rules() -> None:
    edges, regions = make_tiles.strait("w", "f", "d")  # a water band north-south
    assert (edges, regions) == ("wfwd", ((0, 2), (1,), (3,)))
    assert make_tiles.turned((edges, regions), 1) == ("dwfw", ((0,), (1, 3), (2,)))


def test_landscape_names() -> None:
    assert LANDSCAPES == ("water", "forest", "desert", "steppe")
    assert [s for s in SPECIES if SPECIES.index(s) // 4 == STEPPE] == [
        "elephant",
        "zebra",
        "antelope",
        "buffalo",
    ]
