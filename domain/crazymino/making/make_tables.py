"""Make Crazymino's fixed data: the 14x14 board map and the 120-tile set.

The output is the source of ``tables.py``, which sits beside this script. Regenerate it from the
project root with::

    python domain/crazymino/making/make_tables.py > domain/crazymino/tables.py

``python -m domain.crazymino.making.make_tables > domain/crazymino/tables.py`` gives the same,
but only while ``domain/crazymino/__init__.py`` imports nothing that imports ``tables.py``: ``-m``
imports the package first, after the shell has already emptied ``tables.py`` for the redirect.

Everything is deterministic: a fixed search order and a tiny inline pseudo-random generator (no
``random`` module), so the command reproduces ``tables.py`` byte for byte.
"""

from collections.abc import Iterator
from itertools import product

COLOURS: tuple[str, ...] = ("pink", "green", "yellow", "blue")
LETTERS = "PGYB"  # one letter per colour, in the same (cycle) order as COLOURS
SIZE = 14
HALF = SIZE // 2
START_CELLS: dict[str, tuple[int, int]] = {
    "pink": (6, 6),
    "green": (6, 7),
    "yellow": (7, 7),
    "blue": (7, 6),
}

# One representative cell of each multiplier orbit, all in the top-left quadrant; the quarter turn
# supplies the other three cells of each orbit.
_MULTIPLIER_SEEDS: dict[tuple[int, int], int] = {
    (3, 6): 3,
    (6, 3): 3,
    (2, 4): 4,
    (4, 2): 4,
    (2, 2): 5,
}

# How many tiles of each shape one colour gets (30 in all). A shape is the tile's pattern of equal
# corners, read clockwise from NW in the rotation that gives the smallest pattern.
_SHAPE_QUOTA: dict[str, int] = {
    "AAAA": 2,  # 5-5-5-5
    "AAAB": 3,  # 2-2-2-6
    "AABB": 4,  # 1-1-4-4
    "ABAB": 2,  # 3-6-3-6
    "AABC": 9,  # 2-2-5-1
    "ABAC": 4,  # 4-1-4-6
    "ABCD": 6,  # 1-3-6-2
}
TILES_PER_COLOUR = 30
CORNERS_PER_NUMBER = TILES_PER_COLOUR * 4 // 6  # 20
_SEEDS = (0x9E3779B9, 0x85EBCA6B, 0xC2B2AE35, 0x27D4EB2F)  # one generator seed per colour

Corners = tuple[int, int, int, int]


def quarter_turn(cell: tuple[int, int]) -> tuple[int, int]:
    """The cell that ``cell`` moves to under a quarter turn clockwise about the board's centre."""
    row, col = cell
    return col, SIZE - 1 - row


def _orbit(cell: tuple[int, int]) -> Iterator[tuple[int, int]]:
    for _ in range(4):
        yield cell
        cell = quarter_turn(cell)


def board_colours() -> tuple[str, ...]:
    """The map, one string of colour letters per row.

    In the top-left quadrant the colour depends only on the square ring around the centre: the
    centre cell alone, then rings two cells wide. Each quarter turn shifts the colour one step.
    """
    grid = [[""] * SIZE for _ in range(SIZE)]
    for row in range(HALF):
        for col in range(HALF):
            ring = max(HALF - 1 - row, HALF - 1 - col)  # 0 at the centre cell (6, 6)
            band = (ring + 1) // 2
            for step, (r, c) in enumerate(_orbit((row, col))):
                grid[r][c] = LETTERS[(band + step) % 4]
    return tuple("".join(line) for line in grid)


def multipliers() -> dict[tuple[int, int], int]:
    """The 20 multiplier cells and their factors, in row-major order."""
    cells = {cell: factor for seed, factor in _MULTIPLIER_SEEDS.items() for cell in _orbit(seed)}
    return dict(sorted(cells.items()))


def rotate(corners: Corners) -> Corners:
    """The corners after a 90° clockwise turn: SW→NW, NW→NE, NE→SE, SE→SW."""
    nw, ne, se, sw = corners
    return sw, nw, ne, se


def rotations(corners: Corners) -> list[Corners]:
    """The tile's corners turned by 0, 90, 180 and 270 degrees clockwise."""
    result = [corners]
    for _ in range(3):
        result.append(rotate(result[-1]))
    return result


def canonical(corners: Corners) -> Corners:
    """The smallest of the tile's four rotations: equal for tiles equal up to rotation."""
    return min(rotations(corners))


def shape(corners: Corners) -> str:
    """The pattern of equal corners, e.g. "AABC" for (2, 2, 5, 1), the same for every rotation."""

    def pattern(values: Corners) -> str:
        first_seen: dict[int, str] = {}
        return "".join(first_seen.setdefault(v, "ABCD"[len(first_seen)]) for v in values)

    return min(pattern(r) for r in rotations(corners))


def _shuffled(items: list[Corners], seed: int) -> list[Corners]:
    """Fisher-Yates with a 32-bit linear congruential generator (Numerical Recipes constants)."""
    state = seed
    result = list(items)
    for i in range(len(result) - 1, 0, -1):
        state = (1664525 * state + 1013904223) % 2**32
        j = state * (i + 1) >> 32  # the high bits: the good ones of an LCG
        result[i], result[j] = result[j], result[i]
    return result


def _feasible(need: dict[int, int], quota: dict[str, int]) -> bool:
    """Quick bounds: can the shapes still to place give every number the corners it needs?"""
    needs = list(need.values())
    tiles = sum(quota.values())
    # The most corners one tile of a shape gives a single number, and its count of distinct numbers.
    most = sum(left * max(kind.count(x) for x in kind) for kind, left in quota.items())
    distinct = sum(left * len(set(kind)) for kind, left in quota.items())
    return max(needs) <= most and sum(min(n, tiles) for n in needs) >= distinct


def _colour_tiles(seed: int) -> list[Corners]:
    """30 tiles, distinct up to rotation, each number on 20 corners, shapes as in _SHAPE_QUOTA.

    Depth-first search: the shapes in _SHAPE_QUOTA's order (the rigid ones first), and for each
    shape the candidates in a seeded shuffle, those with the most-needed numbers tried first.
    """
    every = {canonical((a, b, c, d)) for a, b, c, d in product(range(1, 7), repeat=4)}
    pool: dict[str, list[Corners]] = {kind: [] for kind in _SHAPE_QUOTA}
    for tile in _shuffled(sorted(every), seed):
        pool[shape(tile)].append(tile)
    chosen: list[Corners] = []
    need = dict.fromkeys(range(1, 7), CORNERS_PER_NUMBER)
    quota = dict(_SHAPE_QUOTA)

    def search() -> bool:
        kind = next((kind for kind, left in quota.items() if left), None)
        if kind is None:
            return True
        if not _feasible(need, quota):
            return False
        for tile in sorted(pool[kind], key=lambda t: -sum(need[n] for n in t)):
            if tile in chosen or any(need[n] < tile.count(n) for n in set(tile)):
                continue
            chosen.append(tile)
            quota[kind] -= 1
            for n in tile:
                need[n] -= 1
            if search():
                return True
            chosen.pop()
            quota[kind] += 1
            for n in tile:
                need[n] += 1
        return False

    if not search():
        raise RuntimeError("no tile set fits the quotas")
    return sorted(chosen, key=lambda t: (list(_SHAPE_QUOTA).index(shape(t)), t))


def tile_set() -> tuple[tuple[str, Corners], ...]:
    """All 120 tiles as (colour, (nw, ne, se, sw)), colour by colour; a tile's id is its index."""
    return tuple(
        (colour, tile)
        for colour, seed in zip(COLOURS, _SEEDS, strict=True)
        for tile in _colour_tiles(seed)
    )


def board_picture() -> str:
    """The board as monospace text: colour letter, then the multiplier or ``*`` for a start cell."""
    board = board_colours()
    factors = multipliers()
    starts = set(START_CELLS.values())
    lines = ["    " + "".join(f"{col:>3}" for col in range(SIZE))]
    for row in range(SIZE):
        tokens = []
        for col in range(SIZE):
            mark = "*" if (row, col) in starts else str(factors.get((row, col), " "))
            tokens.append(f" {board[row][col]}{mark}")
        lines.append(f"{row:>3} " + "".join(tokens).rstrip())
    lines += [
        "",
        "P pink, G green, Y yellow, B blue",
        "3, 4, 5: cell multiplier x3, x4, x5;  *: start cell of that colour",
    ]
    return "\n".join(lines) + "\n"


def render() -> str:
    """The full source text of tables.py."""
    out = [
        "# GENERATED by domain/crazymino/making/make_tables.py: do not edit by hand.",
        "# Regenerate from the project root with:",
        "#     python domain/crazymino/making/make_tables.py > domain/crazymino/tables.py",
        '"""Crazymino\'s fixed data: board map, multiplier cells, start cells and the 120 tiles.',
        "",
        "BOARD[row][col] is the colour letter of a cell (P pink, G green, Y yellow, B blue), row 0",
        "at the top. A tile is (colour, (nw, ne, se, sw)); a tile's id is its index in TILES.",
        '"""',
        "",
        "COLOURS: tuple[str, ...] = (" + ", ".join(f'"{c}"' for c in COLOURS) + ")",
        "",
        "BOARD: tuple[str, ...] = (",
        *(f'    "{line}",' for line in board_colours()),
        ")",
        "",
        "MULTIPLIERS: dict[tuple[int, int], int] = {",
        *(f"    ({r}, {c}): {factor}," for (r, c), factor in multipliers().items()),
        "}",
        "",
        "START_CELLS: dict[str, tuple[int, int]] = {",
        *(f'    "{colour}": ({r}, {c}),' for colour, (r, c) in START_CELLS.items()),
        "}",
        "",
        "TILES: tuple[tuple[str, tuple[int, int, int, int]], ...] = (",
        *(f'    ("{colour}", {corners}),' for colour, corners in tile_set()),
        ")",
    ]
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(render(), end="")
