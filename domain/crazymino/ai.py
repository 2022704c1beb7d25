"""AI policies: pure functions of one seat's own view, as a person at the table would play."""

from __future__ import annotations

from domain.crazymino.board import groups, placings, score
from domain.crazymino.geometry import CORNER_POINTS, cell_index
from domain.crazymino.model import EMPTY_CELLS, EMPTY_POINTS, Command, DrawAndPass, PlaceTile
from domain.crazymino.views import CrazyminoView


def _board(view: CrazyminoView) -> tuple[list[int], list[int]]:
    cells, points = list(EMPTY_CELLS), list(EMPTY_POINTS)
    for placed in view.placements:
        cell = cell_index(placed.row, placed.col)
        cells[cell] = placed.tile
        for k, p in enumerate(CORNER_POINTS[cell]):
            points[p] = placed.corners[k]
    return cells, points


def _hand(view: CrazyminoView) -> tuple[int, ...]:
    if view.viewer is None:
        return ()
    hand = view.seats[view.viewer].hand
    return tuple(face.tile for face in hand or ())


def _command(tile: int, rotation: int, cell: int) -> PlaceTile:
    row, col = divmod(cell, 14)
    return PlaceTile(tile=tile, rotation=rotation, row=row, col=col)


def legal_from_view(view: CrazyminoView) -> list[Command]:
    """The viewer's legal commands, worked out from what the viewer sees."""
    cells, points = _board(view)
    commands: list[Command] = [_command(*p) for p in placings(cells, points, _hand(view))]
    if view.pile_size:
        commands.append(DrawAndPass())
    return commands


def best(view: CrazyminoView, entropy: int = 0, now: int = 0) -> Command:
    """`normal`: the highest-scoring placement (lowest tile, rotation, cell on ties), else draw."""
    cells, points = _board(view)
    labels = groups(cells)
    options = placings(cells, points, _hand(view))
    if not options:
        return DrawAndPass()
    tile, rotation, cell = max(
        options, key=lambda p: (score(cells, points, p[0], p[2], labels).total, [-x for x in p])
    )
    return _command(tile, rotation, cell)


def random_legal(view: CrazyminoView, entropy: int, now: int = 0) -> Command:
    """`easy`: any legal command, chosen by the entropy the caller drew."""
    commands = legal_from_view(view)
    return commands[entropy % len(commands)] if commands else DrawAndPass()
