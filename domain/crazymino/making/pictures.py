"""Pictures for the rules page, as SVG text made from the game's own data and rules, so that
they show what the code plays.

Regenerate them from the project root with::

    for name in board scoring; do
        python -m domain.crazymino.making.pictures $name > docs/rules/crazymino-$name.svg
    done

`board`: the 14×14 map, each colour also drawn with its own shape (pink ●, green ▲, yellow ■,
blue ◆), the ×3/×4/×5 cells and the four start cells (★). `scoring`: the rules page's example,
its score worked out by the rules themselves.
"""

from __future__ import annotations

import math
import sys
from collections.abc import Callable

from domain.crazymino.board import CELL_COLOUR, TILE_COLOUR, groups, lay, score
from domain.crazymino.geometry import SIZE, cell_index, rotate
from domain.crazymino.model import EMPTY_CELLS, EMPTY_POINTS, Score
from domain.crazymino.tables import MULTIPLIERS, START_CELLS, TILES

CELL = 36
MARGIN = 22
LIGHT = {"pink": "#fbd3e4", "green": "#d3eed0", "yellow": "#fcefb4", "blue": "#d3e3f8"}
DARK = {"pink": "#ad1457", "green": "#2e7d32", "yellow": "#7a5d00", "blue": "#1559b0"}
TILE = {"pink": "#f48fb1", "green": "#81c784", "yellow": "#ffd54f", "blue": "#64b5f6"}
#: The rules page's example: blue tile 114 turned 180° on (4, 11), between two groups.
EXAMPLE_TILE, EXAMPLE_ROTATION, EXAMPLE_CELL = 114, 180, (4, 11)
EXAMPLE_LAID = {(3, 10): (5, 6, 2, 4), (5, 12): (1, 3, 6, 5)}


def shape(colour: str, x: float, y: float, r: float, fill: str) -> str:
    """A colour's own shape, centred on (x, y)."""
    if colour == "pink":
        return f'<circle cx="{x:.1f}" cy="{y:.1f}" r="{r:.1f}" fill="{fill}"/>'
    if colour == "green":
        points = [(x, y - r), (x + r, y + r * 0.8), (x - r, y + r * 0.8)]
    elif colour == "yellow":
        s = r * 0.85
        points = [(x - s, y - s), (x + s, y - s), (x + s, y + s), (x - s, y + s)]
    else:
        points = [(x, y - r), (x + r, y), (x, y + r), (x - r, y)]
    text = " ".join(f"{a:.1f},{b:.1f}" for a, b in points)
    return f'<polygon points="{text}" fill="{fill}"/>'


def star(x: float, y: float, r: float) -> str:
    points = []
    for i in range(10):
        radius = r if i % 2 == 0 else r * 0.45
        angle = math.pi / 5 * i - math.pi / 2
        points.append(f"{x + radius * math.cos(angle):.1f},{y + radius * math.sin(angle):.1f}")
    return f'<polygon points="{" ".join(points)}" fill="#e0a800" stroke="#3d2b00"/>'


def cell_svg(row: int, col: int, x: float, y: float) -> list[str]:
    colour = CELL_COLOUR[cell_index(row, col)]
    out = [
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{LIGHT[colour]}" '
        'stroke="#ffffff"/>',
        shape(colour, x + 7, y + 7, 4, DARK[colour]),
    ]
    if (row, col) in MULTIPLIERS:
        out.append(
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 5}" text-anchor="middle" '
            f'font-size="14" font-weight="800">×{MULTIPLIERS[row, col]}</text>'
        )
    if (row, col) in START_CELLS.values():
        out.append(star(x + CELL / 2, y + CELL / 2, 10))
    return out


def tile_svg(colour: str, corners: tuple[int, int, int, int], x: float, y: float) -> list[str]:
    pad = CELL * 0.22
    spots = [(x + pad, y + pad), (x + CELL - pad, y + pad)]
    spots += [(x + CELL - pad, y + CELL - pad), (x + pad, y + CELL - pad)]
    out = [
        f'<rect x="{x + 1}" y="{y + 1}" width="{CELL - 2}" height="{CELL - 2}" rx="3" '
        f'fill="{TILE[colour]}" stroke="#222" stroke-width="1.5"/>',
        shape(colour, x + CELL / 2, y + CELL / 2, CELL * 0.14, "#00000055"),
    ]
    for (sx, sy), number in zip(spots, corners, strict=True):
        out.append(
            f'<text x="{sx:.1f}" y="{sy + 4:.1f}" text-anchor="middle" font-size="11" '
            f'font-weight="800">{number}</text>'
        )
    return out


def _svg(width: float, height: float, body: list[str], title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" '
        f'width="{width}" height="{height}" font-family="sans-serif" role="img">\n'
        f"<title>{title}</title>\n" + "\n".join(body) + "\n</svg>\n"
    )


def board() -> str:
    """The whole map, with row and column numbers."""
    side = MARGIN * 2 + CELL * SIZE
    body = [f'<rect width="{side}" height="{side}" fill="#fff"/>']
    for n in range(SIZE):
        at = MARGIN + n * CELL + CELL / 2
        body.append(
            f'<text x="{at}" y="{MARGIN - 7}" text-anchor="middle" font-size="11">{n}</text>'
        )
        body.append(
            f'<text x="{MARGIN - 6}" y="{at + 4}" text-anchor="end" font-size="11">{n}</text>'
        )
    for row in range(SIZE):
        for col in range(SIZE):
            body += cell_svg(row, col, MARGIN + col * CELL, MARGIN + row * CELL)
    title = "The Crazymino board: colours, shapes, multipliers, start cells"
    return _svg(side, side, body, title)


def example_score() -> Score:
    """The example's score, as the rules work it out."""
    cells, points = EMPTY_CELLS, EMPTY_POINTS
    for (row, col), corners in EXAMPLE_LAID.items():
        cells, points = lay(cells, points, 0, cell_index(row, col), corners)
    return score(cells, points, EXAMPLE_TILE, cell_index(*EXAMPLE_CELL), groups(cells))


def scoring() -> str:
    """Rows 2–6, columns 9–13 around the example: the two tiles laid, the new tile outlined."""
    rows, cols = range(2, 7), range(9, 14)
    body = ['<rect width="100%" height="100%" fill="#fff"/>']
    for row in rows:
        for col in cols:
            x, y = MARGIN + (col - cols[0]) * CELL, MARGIN + (row - rows[0]) * CELL
            body += cell_svg(row, col, x, y)
            if (row, col) in EXAMPLE_LAID:
                body += tile_svg("green", EXAMPLE_LAID[row, col], x, y)
    row, col = EXAMPLE_CELL
    x, y = MARGIN + (col - cols[0]) * CELL, MARGIN + (row - rows[0]) * CELL
    turned = rotate(TILES[EXAMPLE_TILE][1], EXAMPLE_ROTATION)
    body += tile_svg(TILE_COLOUR[EXAMPLE_TILE], turned, x, y)
    body.append(
        f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="none" stroke="#000" '
        'stroke-width="3" stroke-dasharray="5 3"/>'
    )
    s = example_score()
    bridge = ", bridging two groups" if s.bridged else ""
    lines = [
        f"Blue tile {'-'.join(map(str, TILES[EXAMPLE_TILE][1]))} turned {EXAMPLE_ROTATION}° "
        f"on ({row}, {col}), a blue ×{s.cell_multiplier} cell,",
        f"touching two groups at two corners: ({s.sum} + {s.colour_bonus} colour bonus)",
        f"× {s.corner_multiplier} ({s.active_corners} corners{bridge}) × {s.cell_multiplier} "
        f"(cell) = {s.total} points",
    ]
    top = MARGIN * 2 + CELL * len(rows)
    for n, line in enumerate(lines):
        body.append(f'<text x="{MARGIN}" y="{top + 16 * n}" font-size="13">{line}</text>')
    width = max(MARGIN * 2 + CELL * len(cols), 480)
    return _svg(width, top + 16 * len(lines) + 8, body, "A scoring example")


PICTURES: dict[str, Callable[[], str]] = {"board": board, "scoring": scoring}

if __name__ == "__main__":
    sys.stdout.write(PICTURES[sys.argv[1]]())
