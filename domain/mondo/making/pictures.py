"""Pictures for the rules page: tiles, both world board sides and the seed's worked example, as
SVG text made from the game's own data (so they show what the code plays).

Regenerate them from the project root with::

    for name in tiles board-standard board-back example; do
        python -m domain.mondo.making.pictures $name > docs/rules/mondo-$name.svg
    done

Each face is drawn as four triangles, one per edge in its landscape's colour, meeting in the
centre; a region that runs from one edge to the opposite one is drawn as a band through the
centre; thin white lines part different regions. An animal is a white disc with the first two
letters of its species in its region; a volcano is a triangle in the centre, red when active and
grey when inactive.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

from domain.mondo.board import COLUMNS, ROWS, SPACES, border
from domain.mondo.faces import ACTIVE, LANDSCAPES, ORIENTED, SPECIES, Oriented

COLOURS = ("#3f88c5", "#2d6a4f", "#e9c46a", "#a7c957")  # water, forest, desert, steppe
SIZE = 60  # a space, in pixels
FRAME = 18  # the border's width
CORNERS = ((0, 0), (1, 0), (1, 1), (0, 1))  # NW, NE, SE, SW as fractions of a side
#: Each side's two corners, clockwise: north runs NW to NE, and so on.
SIDE_CORNERS = ((0, 1), (1, 2), (2, 3), (3, 0))
#: The example of the seed (see tests/unit/test_mondo_worked_example.py): space -> tile, turns.
EXAMPLE = {
    1: (61, 0),
    2: (77, 1),
    3: (60, 1),
    6: (29, 2),
    7: (119, 0),
    8: (74, 2),
    9: (78, 0),
    10: (85, 0),
    15: (53, 1),
    16: (36, 1),
    21: (132, 2),
    22: (118, 0),
}
SHOWN_TILES = (7, 10, 1, 36, 6, 132)  # a few tiles, both faces, for the rules page


def _point(x: float, y: float, corner: int, size: float) -> str:
    cx, cy = CORNERS[corner]
    return f"{x + cx * size:g},{y + cy * size:g}"


def face_svg(face: Oriented, x: float, y: float, size: float = SIZE) -> list[str]:
    """The SVG elements of a face laid at (x, y)."""
    mid = f"{x + size / 2:g},{y + size / 2:g}"
    parts = []
    for side in range(4):
        a, b = SIDE_CORNERS[side]
        points = f"{_point(x, y, a, size)} {_point(x, y, b, size)} {mid}"
        colour = COLOURS[face.edges[side]]
        parts.append(f'<polygon points="{points}" fill="{colour}" stroke="{colour}"/>')
    for side in range(4):
        after = (side + 1) % 4
        if face.region_of[side] != face.region_of[after]:
            corner = SIDE_CORNERS[side][1]
            parts.append(
                f'<line x1="{x + size / 2:g}" y1="{y + size / 2:g}" '
                f'x2="{_point(x, y, corner, size).split(",")[0]}" '
                f'y2="{_point(x, y, corner, size).split(",")[1]}" stroke="#fff" stroke-width="1"/>'
            )
    for region, sides in enumerate(face.sides):
        colour = COLOURS[face.kinds[region]]
        if {0, 2} <= set(sides):
            parts.append(_rect(x + size * 0.3, y, size * 0.4, size, colour))
        if {1, 3} <= set(sides):
            parts.append(_rect(x, y + size * 0.3, size, size * 0.4, colour))
    if face.volcano:
        fill = "#d62828" if face.volcano == ACTIVE else "#8d8d8d"
        h = size * 0.18
        cx, cy = x + size / 2, y + size / 2
        points = f"{cx - h:g},{cy + h * 0.8:g} {cx + h:g},{cy + h * 0.8:g} {cx:g},{cy - h:g}"
        parts.append(f'<polygon points="{points}" fill="{fill}" stroke="#222" stroke-width="1"/>')
    if face.animal >= 0:
        side = face.sides[face.animal_region][0]
        dx, dy = ((0, -1), (1, 0), (0, 1), (-1, 0))[side]
        ax, ay = x + size / 2 + dx * size * 0.3, y + size / 2 + dy * size * 0.3
        parts.append(f'<circle cx="{ax:g}" cy="{ay:g}" r="{size * 0.13:g}" fill="#fff"/>')
        parts.append(
            f'<text x="{ax:g}" y="{ay + size * 0.06:g}" font-size="{size * 0.16:g}" '
            f'text-anchor="middle">{SPECIES[face.animal][:2].title()}</text>'
        )
    parts.append(
        f'<rect x="{x:g}" y="{y:g}" width="{size:g}" height="{size:g}" '
        'fill="none" stroke="#222" stroke-width="1"/>'
    )
    return parts


def _rect(x: float, y: float, w: float, h: float, fill: str) -> str:
    return f'<rect x="{x:g}" y="{y:g}" width="{w:g}" height="{h:g}" fill="{fill}"/>'


def _svg(width: float, height: float, parts: Sequence[str]) -> str:
    head = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:g}" height="{height:g}" '
        f'viewBox="0 0 {width:g} {height:g}" font-family="sans-serif">'
    )
    return "\n".join([head, *parts, "</svg>"]) + "\n"


def board_svg(backside: bool, laid: dict[int, Oriented] | None = None) -> str:
    """A world board with its border (and the faces `laid` on it); spaces carry their numbers."""
    width, height = COLUMNS * SIZE + 2 * FRAME, ROWS * SIZE + 2 * FRAME
    outer = ((0, 0), (width, 0), (width, height), (0, height))
    inner = (
        (FRAME, FRAME),
        (width - FRAME, FRAME),
        (width - FRAME, height - FRAME),
        (FRAME, height - FRAME),
    )
    parts = []
    for side, landscape in enumerate(border(backside)):
        a, b = SIDE_CORNERS[side]
        corners = (outer[a], outer[b], inner[b], inner[a])
        points = " ".join(f"{px:g},{py:g}" for px, py in corners)
        parts.append(f'<polygon points="{points}" fill="{COLOURS[landscape]}"/>')
    for space in range(SPACES):
        row, col = divmod(space, COLUMNS)
        x, y = FRAME + col * SIZE, FRAME + row * SIZE
        face = (laid or {}).get(space)
        if face is not None:
            parts += face_svg(face, x, y)
            continue
        parts.append(
            f'<rect x="{x:g}" y="{y:g}" width="{SIZE}" height="{SIZE}" fill="#f4f1ea" '
            'stroke="#bbb" stroke-width="1"/>'
        )
        parts.append(
            f'<text x="{x + SIZE / 2:g}" y="{y + SIZE / 2 + 5:g}" font-size="14" '
            f'text-anchor="middle" fill="#888">{space}</text>'
        )
    return _svg(width, height, parts)


def tiles_svg(tiles: Sequence[int] = SHOWN_TILES) -> str:
    """A few tiles, each with its plain face above its variable face, captioned."""
    gap = 24
    width = len(tiles) * (SIZE + gap) + gap
    height = 2 * SIZE + 3 * gap + 30
    parts = [
        f'<text x="4" y="{gap + SIZE / 2:g}" font-size="11">plain</text>',
        f'<text x="4" y="{2 * gap + 1.5 * SIZE:g}" font-size="11">variable</text>',
    ]
    for n, tile in enumerate(tiles):
        x = gap + n * (SIZE + gap) + 40
        parts += face_svg(ORIENTED[tile][0][0], x, gap)
        parts += face_svg(ORIENTED[tile][1][0], x, 2 * gap + SIZE)
        parts.append(
            f'<text x="{x + SIZE / 2:g}" y="{3 * gap + 2 * SIZE + 4:g}" font-size="12" '
            f'text-anchor="middle">tile {tile}</text>'
        )
    legend = [
        f'<rect x="{gap + 130 * i:g}" y="{height - 18:g}" width="12" height="12" fill="{c}"/>'
        f'<text x="{gap + 130 * i + 16:g}" y="{height - 8:g}" font-size="11">{name}</text>'
        for i, (c, name) in enumerate(zip(COLOURS, LANDSCAPES, strict=True))
    ]
    return _svg(width + 40, height, [*parts, *legend])


def example_svg() -> str:
    """The seed's worked example: her board, plain water on every space not listed."""
    from domain.mondo.tiles import TILES

    used = {tile for tile, _ in EXAMPLE.values()}
    water = iter(t for t, tile in enumerate(TILES) if tile[0] == "w" and t not in used)
    laid = {
        space: ORIENTED[EXAMPLE[space][0]][1][EXAMPLE[space][1]]
        if space in EXAMPLE
        else ORIENTED[next(water)][0][0]
        for space in range(SPACES - 1)
    }
    return board_svg(False, laid)


PICTURES = {
    "tiles": tiles_svg,
    "board-standard": lambda: board_svg(False),
    "board-back": lambda: board_svg(True),
    "example": example_svg,
}


if __name__ == "__main__":
    print(PICTURES[sys.argv[1]](), end="")
