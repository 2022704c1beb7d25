"""What a viewer sees: everything in Mondo is public but the game's seed (which decides the
display's faces, special scorings and tasks of later rounds).

A view carries all a table needs, so that a client never works out a rule: the display (each
tile's visible face, who holds it), every board (faces as laid, turned), each player's held tile
(both faces), the grace, the bonus chips, the round's clock, the special scoring and tasks, each
player's score if the round ended now (every line), the last round's scores, and the spaces where
the viewer's held tile may go.
"""

from __future__ import annotations

from msgspec import Struct
from msgspec.structs import replace

from domain.mondo.board import COLUMNS, BoardSide, border, open_spaces
from domain.mondo.faces import (
    FACES,
    FIRST_ORIENTED,
    LANDSCAPES,
    ORIENTED,
    SIDES,
    SPECIES,
    FaceName,
    LandscapeName,
    Oriented,
    SideName,
    Species,
    TileFaces,
    Volcano,
    face_index,
    tile_faces,
)
from domain.mondo.model import Event, GameStarted, Grace, State
from domain.mondo.scoring import Score
from domain.mondo.specials import Special
from domain.mondo.table import holders, scores_now
from domain.mondo.tasks import CARDS, Task


class RegionView(Struct, frozen=True):
    landscape: LandscapeName
    sides: tuple[SideName, ...]
    animal: Species | None = None


class FaceView(Struct, frozen=True):
    """One face of a tile as it lies (turned, on a board): what each edge shows, its regions,
    its volcano."""

    tile: int
    face: FaceName
    rotation: int
    edges: tuple[LandscapeName, LandscapeName, LandscapeName, LandscapeName]  # N, E, S, W
    regions: tuple[RegionView, ...]
    volcano: Volcano | None = None


class DisplayTile(Struct, frozen=True):
    """A tile of the display: the face it shows, and the seat holding it (None: free)."""

    shown: FaceView
    holder: int | None = None


class HeldTile(Struct, frozen=True):
    """A tile in a player's hand: both faces, unturned, and the face it showed when taken."""

    tile: int
    shown: FaceName
    plain: FaceView
    variable: FaceView


class PlacedTile(Struct, frozen=True):
    space: int
    row: int
    col: int
    face: FaceView


class TaskView(Struct, frozen=True):
    task: Task
    points: int
    taken_by: int | None = None


class SeatView(Struct, frozen=True):
    seat: int
    name: str
    board: tuple[PlacedTile, ...]
    held: HeldTile | None
    grace: Grace | None  # the tile just placed, which may be turned or lifted until `until`
    chip: int | None  # the bonus chip taken: the player has left the round
    tasks: tuple[Task, ...]
    score_now: Score  # the board's score if the round ended now, every line
    total: int  # the finished rounds' scores


class MondoView(Struct, frozen=True):
    viewer: int | None
    round: int
    rounds: int
    running: bool
    deadline: int  # the round's end in server time (ms since the epoch)
    next_round_at: int | None  # during a break: when the next round starts
    board_side: BoardSide
    border: tuple[LandscapeName, LandscapeName, LandscapeName, LandscapeName]  # N, E, S, W
    display: tuple[DisplayTile, ...]
    chips: tuple[int, ...]  # bonus chips left, top first
    special: Special | None
    tasks: tuple[TaskView, ...]
    seats: tuple[SeatView, ...]
    spaces: tuple[int, ...]  # where the viewer's held tile may go
    last_round: tuple[Score, ...] | None
    over: bool


_VOLCANOES: tuple[Volcano | None, ...] = (None, "active", "inactive")


def _face_view(tile: int, face: int, quarters: int, shape: Oriented) -> FaceView:
    regions = tuple(
        RegionView(
            LANDSCAPES[kind],
            tuple(SIDES[s] for s in shape.sides[r]),
            SPECIES[shape.animal] if shape.animal_region == r else None,
        )
        for r, kind in enumerate(shape.kinds)
    )
    north, east, south, west = (LANDSCAPES[e] for e in shape.edges)
    volcano = _VOLCANOES[shape.volcano]
    return FaceView(tile, FACES[face], quarters * 90, (north, east, south, west), regions, volcano)


FaceViews = tuple[tuple[tuple[FaceView, ...], ...], ...]


def _face_views(faces: TileFaces) -> FaceViews:
    """[tile][face][quarters] of one tile set, made once: views share them."""
    return tuple(
        tuple(
            tuple(_face_view(tile, face, q, turns[q]) for q in range(4))
            for face, turns in enumerate(both)
        )
        for tile, both in enumerate(faces)
    )


#: Today's tiles' views, and the first set's (`tile_faces`: which a game's rules lay).
FACE_VIEWS = _face_views(ORIENTED)
FIRST_FACE_VIEWS = _face_views(FIRST_ORIENTED)


def _face_views_of(state: State) -> FaceViews:
    return FIRST_FACE_VIEWS if tile_faces(state.rules) is FIRST_ORIENTED else FACE_VIEWS


def _laid_view(views: FaceViews, tile: int, face: FaceName, rotation: int) -> FaceView:
    return views[tile][face_index(face)][rotation // 90]


def _seat_view(state: State, seat: int, score: Score) -> SeatView:
    player, views = state.seats[seat], _face_views_of(state)
    board = tuple(
        PlacedTile(space, *divmod(space, COLUMNS), _laid_view(views, p.tile, p.face, p.rotation))
        for space, p in enumerate(player.board)
        if p is not None
    )
    held = None
    if player.held is not None:
        tile = player.held
        shown: FaceName = "variable" if tile in state.variable else "plain"
        held = HeldTile(tile, shown, views[tile][0][0], views[tile][1][0])
    return SeatView(
        seat=seat,
        name=state.players[seat],
        board=board,
        held=held,
        grace=player.grace,
        chip=player.chip,
        tasks=player.tasks,
        score_now=score,
        total=sum(r[seat].total for r in state.results),
    )


def view(state: State, viewer: int | None) -> MondoView:
    """The state as `viewer` (a seat, or None for a spectator) sees it."""
    if not state.players:
        raise ValueError("a game that has not started has no view")
    out = holders(state)
    on_boards = {p.tile for player in state.seats for p in player.board if p is not None}
    views = _face_views_of(state)
    display = tuple(
        DisplayTile(views[t][1 if t in state.variable else 0][0], out.get(t))
        for t in range(len(views))
        if t not in on_boards
    )
    scores = scores_now(state) if state.seats else ()
    seats = tuple(_seat_view(state, s, scores[s]) for s in range(len(state.seats)))
    owner = {task: s for s, p in enumerate(state.seats) for task in p.tasks}
    tasks = tuple(TaskView(t, CARDS[t].points, owner.get(t)) for t in state.tasks)
    me = state.seats[viewer] if viewer is not None and state.seats else None
    spaces: tuple[int, ...] = ()
    if me is not None and me.held is not None and state.running:
        spaces = tuple(open_spaces([p is not None for p in me.board]))
    edges = tuple(LANDSCAPES[e] for e in border(state.backside))
    return MondoView(
        viewer=viewer,
        round=state.round,
        rounds=state.rounds,
        running=state.running,
        deadline=state.deadline,
        next_round_at=None
        if state.running or state.over or not state.results
        else state.ended_at + state.break_ms,
        board_side="back" if state.backside else "standard",
        border=(edges[0], edges[1], edges[2], edges[3]),
        display=display,
        chips=state.chips,
        special=state.special,
        tasks=tasks,
        seats=seats,
        spaces=spaces,
        last_round=state.results[-1] if state.results else None,
        over=state.over,
    )


def redact(event: Event, viewer: int | None) -> Event:
    """An event as a viewer may see it while the game runs: everything but the seed."""
    if isinstance(event, GameStarted):
        return replace(event, seed=None)
    return event
