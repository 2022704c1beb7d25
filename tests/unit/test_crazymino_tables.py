"""Crazymino's fixed data: the board map, the multiplier cells and the tile set."""

import math
from collections import Counter
from pathlib import Path

import pytest

from domain.crazymino import tables
from domain.crazymino.making import make_tables
from domain.crazymino.tables import BOARD, COLOURS, MULTIPLIERS, START_CELLS, TILES

LETTER = {"pink": "P", "green": "G", "yellow": "Y", "blue": "B"}
CELLS = [(r, c) for r in range(14) for c in range(14)]


def quarter_turn(cell: tuple[int, int]) -> tuple[int, int]:
    r, c = cell
    return c, 13 - r


def distance(cell: tuple[int, int]) -> float:
    return math.hypot(cell[0] - 6.5, cell[1] - 6.5)


def rotate(corners: tuple[int, int, int, int]) -> tuple[int, int, int, int]:
    nw, ne, se, sw = corners
    return sw, nw, ne, se


def rotation_class(corners: tuple[int, int, int, int]) -> frozenset[tuple[int, int, int, int]]:
    turns = [corners]
    for _ in range(3):
        turns.append(rotate(turns[-1]))
    return frozenset(turns)


def colour_at(cell: tuple[int, int]) -> str:
    return BOARD[cell[0]][cell[1]]


# --- board ---


def test_colours_in_cycle_order() -> None:
    assert COLOURS == ("pink", "green", "yellow", "blue")


def test_board_is_14_by_14_of_colour_letters() -> None:
    assert len(BOARD) == 14
    assert all(len(row) == 14 and set(row) <= set("PGYB") for row in BOARD)


def test_49_cells_of_each_colour() -> None:
    assert Counter("".join(BOARD)) == {"P": 49, "G": 49, "Y": 49, "B": 49}


def test_quarter_turn_maps_the_map_onto_itself_with_colours_cycled() -> None:
    assert quarter_turn((6, 6)) == (6, 7)
    following = {"P": "G", "G": "Y", "Y": "B", "B": "P"}
    for cell in CELLS:
        assert colour_at(quarter_turn(cell)) == following[colour_at(cell)], cell


def test_start_cells_and_their_colours() -> None:
    assert START_CELLS == {"pink": (6, 6), "green": (6, 7), "yellow": (7, 7), "blue": (7, 6)}
    for colour, cell in START_CELLS.items():
        assert colour_at(cell) == LETTER[colour]


# --- multipliers ---


def test_multiplier_counts() -> None:
    assert len(MULTIPLIERS) == 20
    assert Counter(MULTIPLIERS.values()) == {3: 8, 4: 8, 5: 4}
    assert all(0 <= r < 14 and 0 <= c < 14 for r, c in MULTIPLIERS)


def test_multipliers_unchanged_by_a_quarter_turn() -> None:
    for cell, factor in MULTIPLIERS.items():
        assert MULTIPLIERS.get(quarter_turn(cell)) == factor, cell


def test_no_multiplier_on_or_next_to_a_start_cell() -> None:
    for r, c in MULTIPLIERS:
        for sr, sc in START_CELLS.values():
            assert max(abs(r - sr), abs(c - sc)) > 1, (r, c)
        assert not (5 <= r <= 8 and 5 <= c <= 8)


@pytest.mark.parametrize(("lower", "higher"), [(3, 4), (4, 5), (3, 5)])
def test_further_out_means_higher(lower: int, higher: int) -> None:
    near = [distance(cell) for cell, f in MULTIPLIERS.items() if f == lower]
    far = [distance(cell) for cell, f in MULTIPLIERS.items() if f == higher]
    assert max(near) < min(far)


# --- tiles ---


def test_120_tiles_30_of_each_colour() -> None:
    assert len(TILES) == 120
    assert Counter(colour for colour, _ in TILES) == dict.fromkeys(COLOURS, 30)


def test_tile_numbers_are_four_corners_from_1_to_6() -> None:
    for colour, corners in TILES:
        assert colour in COLOURS
        assert len(corners) == 4
        assert all(isinstance(n, int) and 1 <= n <= 6 for n in corners)


@pytest.mark.parametrize("colour", ["pink", "green", "yellow", "blue"])
def test_each_number_on_20_corners_per_colour(colour: str) -> None:
    counts = Counter(n for c, corners in TILES if c == colour for n in corners)
    assert counts == dict.fromkeys(range(1, 7), 20)


@pytest.mark.parametrize("colour", ["pink", "green", "yellow", "blue"])
def test_no_two_tiles_of_a_colour_equal_up_to_rotation(colour: str) -> None:
    classes = [rotation_class(corners) for c, corners in TILES if c == colour]
    assert len(set(classes)) == len(classes) == 30


def test_rotation_follows_the_rules() -> None:
    assert rotate((1, 2, 3, 4)) == (4, 1, 2, 3)
    assert make_tables.rotate((1, 2, 3, 4)) == (4, 1, 2, 3)


@pytest.mark.parametrize("colour", ["pink", "green", "yellow", "blue"])
def test_tiles_mix_repeated_and_distinct_numbers(colour: str) -> None:
    distinct = Counter(len(set(corners)) for c, corners in TILES if c == colour)
    assert set(distinct) == {1, 2, 3, 4}
    assert distinct[4] < 15  # most tiles repeat a number, so corners match often enough


# --- the generator ---


def test_render_reproduces_tables_py_byte_for_byte() -> None:
    path = Path(tables.__file__).with_name("tables.py")
    assert path.read_bytes() == make_tables.render().encode()


def test_generator_functions_match_the_tables() -> None:
    assert make_tables.board_colours() == BOARD
    assert make_tables.multipliers() == MULTIPLIERS
    assert make_tables.tile_set() == TILES


def test_board_picture_shows_colours_multipliers_and_starts() -> None:
    lines = make_tables.board_picture().splitlines()
    starts = set(START_CELLS.values())
    for r in range(14):
        row = lines[1 + r].ljust(4 + 3 * 14)
        assert int(row[:3]) == r
        for c in range(14):
            token = row[4 + 3 * c : 7 + 3 * c]
            mark = "*" if (r, c) in starts else str(MULTIPLIERS.get((r, c), " "))
            assert token == f" {BOARD[r][c]}{mark}", (r, c)
    assert any("pink" in line for line in lines[15:])
