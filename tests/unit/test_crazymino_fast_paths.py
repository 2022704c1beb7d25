"""The fast paths (open cells from integer masks, fitting turns by corner key, the group search
of a single bridge) against a slow reference that follows the rules page word for word.

Boards are grown at random by the reference alone (a random tile, turned at random, laid on a
random cell the reference accepts), so they do not depend on the code under test; they run
from the start tile to a crowded board with holes.
"""

from __future__ import annotations

import random

import pytest
from msgspec.structs import replace

from domain.crazymino.board import (
    CELL_COLOUR,
    CELL_MULTIPLIER,
    TILE_COLOUR,
    TILE_CORNERS,
    any_placing,
    groups,
    lay,
    placings,
    score,
)
from domain.crazymino.fits import open_turns
from domain.crazymino.frontier import open_cells
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import ROTATIONS, SIZE, cell_index, rotate
from domain.crazymino.model import (
    EMPTY_CELLS,
    EMPTY_POINTS,
    DrawAndPass,
    Event,
    GameEnded,
    Placement,
    PlaceTile,
    State,
    TileDrawn,
    TilePlaced,
    TurnSkipped,
)
from domain.crazymino.tables import START_CELLS, TILES

Laid = dict[tuple[int, int], tuple[int, int, int, int]]
AROUND_CORNER = ((-1, -1), (-1, 1), (1, 1), (1, -1))  # NW, NE, SE, SW: the diagonal step
STEPS = ((-1, 0), (0, 1), (1, 0), (0, -1), (-1, -1), (-1, 1), (1, 1), (1, -1))


# -- the reference ---------------------------------------------------------------------------


def laid_of(state: State) -> Laid:
    return {(p.row, p.col): p.corners for p in state.placements}


EDGES = {  # a neighbour's step: pairs (my corner, its corner) along the shared edge
    (-1, 0): ((0, 3), (1, 2)),
    (0, 1): ((1, 0), (2, 3)),
    (1, 0): ((2, 1), (3, 0)),
    (0, -1): ((3, 2), (0, 1)),
}
DIAGONALS = {(-1, -1): (0, 2), (-1, 1): (1, 3), (1, 1): (2, 0), (1, -1): (3, 1)}


def allows(laid: Laid, tile: tuple[int, int, int, int], row: int, col: int) -> bool:
    """The rule as the seed words it: edges match, diagonal corners match, and it connects."""
    if (row, col) in laid:
        return False
    edges = diagonals = 0
    for (dr, dc), pairs in EDGES.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            edges += 1
            if any(tile[mine] != other[theirs] for mine, theirs in pairs):
                return False
    for (dr, dc), (mine, theirs) in DIAGONALS.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            diagonals += 1
            if tile[mine] != other[theirs]:
                return False
    return edges >= 1 or diagonals >= 2


def near_a_tile(laid: Laid, row: int, col: int) -> bool:
    return any((row + dr, col + dc) in laid for dr, dc in STEPS)


def reference_placings(state: State, hand: tuple[int, ...]) -> list[tuple[int, int, int]]:
    """Every (tile, rotation, cell) the seed's wording allows: each tile, turn and cell tried."""
    laid = laid_of(state)
    near = [(r, c) for r in range(SIZE) for c in range(SIZE) if near_a_tile(laid, r, c)]
    found = []
    for tile in hand:
        for rotation in ROTATIONS:
            turned = rotate(TILE_CORNERS[tile], rotation)
            for row, col in near:
                if allows(laid, turned, row, col):
                    found.append((tile, rotation, cell_index(row, col)))
    return sorted(found)


def reference_open_cells(laid: Laid) -> list[tuple[int, tuple[int, ...]]]:
    """Empty cells with an edge neighbour or two diagonal ones, with the number at each corner
    (0 where no tile touches it), read from the tiles around."""
    found = []
    for row in range(SIZE):
        for col in range(SIZE):
            if (row, col) in laid:
                continue
            edges = sum((row + dr, col + dc) in laid for dr, dc in STEPS[:4])
            diagonals = sum((row + dr, col + dc) in laid for dr, dc in STEPS[4:])
            if edges or diagonals >= 2:
                found.append((cell_index(row, col), reference_corners(laid, row, col)))
    return found


def corner_at(top: bool, left: bool) -> int:
    return {(True, True): 0, (True, False): 1, (False, False): 2, (False, True): 3}[top, left]


def reference_corners(laid: Laid, row: int, col: int) -> tuple[int, ...]:
    numbers = []
    for dr, dc in AROUND_CORNER:
        # the other three cells around this corner, and which of their corners is the point
        around = {
            (row + dr, col): corner_at(top=dr > 0, left=dc < 0),
            (row, col + dc): corner_at(top=dr < 0, left=dc > 0),
            (row + dr, col + dc): corner_at(top=dr > 0, left=dc > 0),
        }
        seen = {laid[c][corner] for c, corner in around.items() if c in laid}
        assert len(seen) <= 1, "a point with two numbers"
        numbers.append(seen.pop() if seen else 0)
    return tuple(numbers)


def reference_groups(laid: Laid) -> dict[tuple[int, int], int]:
    label: dict[tuple[int, int], int] = {}
    for start in sorted(laid):
        if start in label:
            continue
        label[start] = len(label)
        stack = [start]
        while stack:
            r, c = stack.pop()
            for dr, dc in STEPS[:4]:
                n = (r + dr, c + dc)
                if n in laid and n not in label:
                    label[n] = label[start]
                    stack.append(n)
    return label


def reference_total(laid: Laid, tile: int, row: int, col: int) -> int:
    """The score as the rules page words it, with every group labelled first."""
    labels = reference_groups(laid)
    active, touching = 0, set()
    for dr, dc in AROUND_CORNER:
        around = [(row + dr, col), (row, col + dc), (row + dr, col + dc)]
        tiles = [labels[c] for c in around if c in laid]
        if tiles:
            active += 1
            touching |= set(tiles)
    multiplier = {0: 1, 1: 1, 2: 2 if len(touching) >= 2 else 1, 3: 3, 4: 5}[active]
    colour, corners = TILES[tile]
    bonus = 10 if colour == CELL_COLOUR[cell_index(row, col)] else 0
    return (sum(corners) + bonus) * multiplier * CELL_MULTIPLIER[cell_index(row, col)]


# -- random positions ------------------------------------------------------------------------


def grown(seed: int, tiles: int, seats: int = 2) -> State:
    """A running game whose board the reference grew to `tiles` tiles; random hands and pile."""
    rng = random.Random(seed)
    order = rng.sample(range(len(TILES)), len(TILES))
    first = order.pop()
    row, col = START_CELLS[TILE_COLOUR[first]]
    state = State(
        players=tuple(f"P{s}" for s in range(seats)),
        order=tuple(rng.sample(range(seats), seats)),
        cells=EMPTY_CELLS,
        points=EMPTY_POINTS,
        scores=(0,) * seats,
    )
    state = laid_with(state, first, 0, row, col)
    for _ in range(40 * tiles):
        if len(state.placements) >= tiles:
            break
        tile, rotation = order[-1], rng.choice(ROTATIONS)
        laid = laid_of(state)
        row, col = rng.choice(sorted({(r + dr, c + dc) for r, c in laid for dr, dc in STEPS}))
        turned = rotate(TILE_CORNERS[tile], rotation)
        if 0 <= row < SIZE and 0 <= col < SIZE and allows(laid, turned, row, col):
            state = laid_with(state, order.pop(), rotation, row, col)
    sizes = [rng.randint(0, 20) for _ in range(seats)]
    hands = []
    for size in sizes:
        hands.append(tuple(order[:size]))
        order = order[size:]
    return State(
        players=state.players,
        order=state.order,
        hands=tuple(hands),
        pile=tuple(order[: rng.randint(0, len(order))]),
        cells=state.cells,
        points=state.points,
        placements=state.placements,
        scores=state.scores,
    )


def laid_with(state: State, tile: int, rotation: int, row: int, col: int) -> State:
    corners = rotate(TILE_CORNERS[tile], rotation)
    cells, points = lay(state.cells, state.points, tile, cell_index(row, col), corners)
    placed = Placement(tile, row, col, rotation, TILE_COLOUR[tile], corners)
    return State(
        players=state.players,
        order=state.order,
        cells=cells,
        points=points,
        placements=(*state.placements, placed),
        scores=state.scores,
    )


POSITIONS = [(seed, 1 + seed * 7 % 110, 2 + seed % 3) for seed in range(160)]


@pytest.fixture(scope="module", params=POSITIONS, ids=lambda p: f"seed{p[0]}-tiles{p[1]}")
def position(request: pytest.FixtureRequest) -> State:
    seed, tiles, seats = request.param
    return grown(seed, tiles, seats)


# -- the fast paths agree --------------------------------------------------------------------


def test_open_cells_are_the_connected_empty_cells_with_their_corner_numbers(
    position: State,
) -> None:
    expected = [
        (cell, (nw << 3 | ne) << 8 | se << 3 | sw)
        for cell, (nw, ne, se, sw) in reference_open_cells(laid_of(position))
    ]
    assert list(open_cells(position.cells, position.points)) == expected


def test_placings_and_legal_agree_with_the_reference(position: State) -> None:
    seat = position.order[position.turn]
    hand = position.hands[seat]
    expected = reference_placings(position, hand)
    assert placings(position.cells, position.points, hand) == expected
    assert any_placing(position.cells, position.points, hand) == bool(expected)
    commands = [PlaceTile(t, r, cell // SIZE, cell % SIZE) for t, r, cell in expected]
    draw = [DrawAndPass()] if position.pile else []
    assert CRAZYMINO.legal(position, seat) == commands + draw


def test_every_tile_fits_where_the_reference_says(position: State) -> None:
    everything = tuple(range(len(TILES)))
    fits = set(placings(position.cells, position.points, everything))
    assert fits == set(reference_placings(position, everything))
    turns = open_turns(position.cells, position.points)
    assert {(t, r) for t, r, _ in fits} == {
        (t, r) for t in everything for k, r in enumerate(ROTATIONS) if turns >> (4 * t + k) & 1
    }


def test_scores_agree_with_the_reference(position: State) -> None:
    laid, labels = laid_of(position), groups(position.cells)
    everything = tuple(range(len(TILES)))
    for tile, _, cell in placings(position.cells, position.points, everything):
        row, col = divmod(cell, SIZE)
        expected = reference_total(laid, tile, row, col)
        assert score(position.cells, position.points, tile, cell).total == expected
        assert score(position.cells, position.points, tile, cell, labels).total == expected


def test_a_placement_decides_the_same_turn_as_the_reference(position: State) -> None:
    position = with_a_tile_that_fits(position)
    seat = position.order[position.turn]
    options = reference_placings(position, position.hands[seat])
    tile, rotation, cell = random.Random(len(options)).choice(options)
    events = CRAZYMINO.decide(position, seat, PlaceTile(tile, rotation, *divmod(cell, SIZE)))
    placed = events[0]
    assert isinstance(placed, TilePlaced)
    assert placed.score.total == reference_total(laid_of(position), tile, *divmod(cell, SIZE))
    after = CRAZYMINO.evolve(position, placed)
    if not after.hands[seat]:
        assert [type(e) for e in events[1:]] == [GameEnded]
    else:
        assert events[1:] == reference_turn_begins(after)


def with_a_tile_that_fits(state: State) -> State:
    """The position, with a tile that fits moved to the hand of the seat to play if none does."""
    seat = state.order[state.turn]
    if reference_placings(state, state.hands[seat]):
        return state
    elsewhere = [t for hand in state.hands for t in hand] + list(state.pile)
    tile = next(t for t, _, _ in reference_placings(state, tuple(sorted(elsewhere))))
    hands = tuple(
        (*hand, tile) if s == seat else tuple(t for t in hand if t != tile)
        for s, hand in enumerate(state.hands)
    )
    return replace(state, hands=hands, pile=tuple(t for t in state.pile if t != tile))


def reference_turn_begins(state: State) -> list[Event]:
    """The automatic events before a seat's turn, each hand tried with the reference."""
    events: list[Event] = []
    while True:
        seat = state.order[state.turn]
        if reference_placings(state, state.hands[seat]):
            return events
        while state.pile:
            drawn = TileDrawn(seat, state.pile[0], automatic=True)
            events.append(drawn)
            state = CRAZYMINO.evolve(state, drawn)
            if reference_placings(state, (drawn.tile or 0,)):
                return events
        if not any(reference_placings(state, hand) for hand in state.hands):
            return [*events, GameEnded(reason="blocked")]
        events.append(TurnSkipped(seat))
        state = CRAZYMINO.evolve(state, events[-1])
