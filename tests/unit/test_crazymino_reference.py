"""`legal`, `decide` and `evolve` against a slow reference that follows the rules page, on
random positions and on whole seeded games, for the fast paths of the rules engine: the frontier
remembered per board, the cells next to the tile just laid asked first, the `PlaceTile` memo,
the flood-fill bridge check and the short way through a legal placement's check.

Each command is decided twice, on a board whose frontier the rules remember (after `legal`)
and on a copy of it made of new tuples (nothing remembered), and both must equal the reference:
the same events, or the same error for an illegal command. Replays of seeded games are pinned
to a digest taken with the code before the fast paths (commit 5075578).
"""

from __future__ import annotations

import hashlib
import random

import msgspec
import pytest
from msgspec.structs import replace
from test_crazymino_fast_paths import (
    DIAGONALS,
    EDGES,
    POSITIONS,
    grown,
    laid_of,
    reference_groups,
    reference_open_cells,
    reference_placings,
    reference_total,
    reference_turn_begins,
)

from domain.chance import Dice
from domain.crazymino import errors
from domain.crazymino.board import (
    CELL_COLOUR,
    CELL_MULTIPLIER,
    TILE_COLOUR,
    TILE_CORNERS,
    joined,
    lay,
)
from domain.crazymino.fits import FITS, fits_elsewhere, fits_near, frontier, hand_turns
from domain.crazymino.frontier import corner_key
from domain.crazymino.game import CRAZYMINO
from domain.crazymino.geometry import ROTATIONS, SIZE, cell_index, rotate
from domain.crazymino.model import (
    Bonus,
    Command,
    DrawAndPass,
    Event,
    GameEnded,
    Placement,
    PlaceTile,
    Score,
    State,
    TileDrawn,
    TilePlaced,
    TurnPassed,
)
from domain.crazymino.tables import TILES
from domain.errors import GameOverError, RuleError, TurnError
from domain.game import Setup

# -- the reference ---------------------------------------------------------------------------


def reference_legal(state: State, seat: int) -> list[Command]:
    if seat != state.seat_to_play:
        return []
    found: list[Command] = [
        PlaceTile(t, r, *divmod(cell, SIZE))
        for t, r, cell in reference_placings(state, state.hands[seat])
    ]
    return [*found, DrawAndPass()] if state.pile else found


def reference_error(state: State, seat: int, command: PlaceTile) -> type[RuleError] | None:
    """The error the rules page gives for a placement, checked in the order it lists them."""
    if command.rotation not in ROTATIONS:
        return errors.BadRotation
    if not (0 <= command.row < SIZE and 0 <= command.col < SIZE):
        return errors.OffBoard
    if command.tile not in state.hands[seat]:
        return errors.NotYourTile
    laid, row, col = laid_of(state), command.row, command.col
    if (row, col) in laid:
        return errors.CellOccupied
    tile = rotate(TILE_CORNERS[command.tile], command.rotation)
    edges = diagonals = 0
    for (dr, dc), pairs in EDGES.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            edges += 1
            if any(tile[mine] != other[theirs] for mine, theirs in pairs):
                return errors.EdgeMismatch
    for (dr, dc), (mine, theirs) in DIAGONALS.items():
        other = laid.get((row + dr, col + dc))
        if other is not None:
            diagonals += 1
            if tile[mine] != other[theirs]:
                return errors.DiagonalMismatch
    if not edges and diagonals < 2:
        return errors.NotConnected
    return None


def reference_score(state: State, tile: int, row: int, col: int) -> Score:
    """The whole breakdown, with every group labelled first (as the rules page words it)."""
    laid = laid_of(state)
    labels = reference_groups(laid)
    active, touching = 0, set()
    for dr, dc in ((-1, -1), (-1, 1), (1, 1), (1, -1)):
        around = [(row + dr, col), (row, col + dc), (row + dr, col + dc)]
        tiles = [labels[c] for c in around if c in laid]
        if tiles:
            active += 1
            touching |= set(tiles)
    bridged = active == 2 and len(touching) >= 2
    multiplier = 2 if bridged else {0: 1, 1: 1, 2: 1, 3: 3, 4: 5}[active]
    colour, corners = TILES[tile]
    cell = cell_index(row, col)
    bonus = 10 if colour == CELL_COLOUR[cell] else 0
    total = (sum(corners) + bonus) * multiplier * CELL_MULTIPLIER[cell]
    assert total == reference_total(laid, tile, row, col)
    return Score(sum(corners), bonus, active, bridged, multiplier, CELL_MULTIPLIER[cell], total)


def reference_placed(state: State, placed: TilePlaced) -> State:
    """The state after a placement, built field by field."""
    seat, cell = placed.seat, cell_index(placed.row, placed.col)
    cells = list(state.cells)
    cells[cell] = placed.tile
    points = list(state.points)
    r, c = placed.row, placed.col
    corners_at = (r * (SIZE + 1) + c, r * (SIZE + 1) + c + 1)
    corners_at += ((r + 1) * (SIZE + 1) + c + 1, (r + 1) * (SIZE + 1) + c)
    for point, number in zip(corners_at, placed.corners, strict=True):
        points[point] = number
    hands = [list(h) for h in state.hands]
    hands[seat] = [t for t in hands[seat] if t != placed.tile]
    scores = list(state.scores)
    scores[seat] += placed.score.total
    placement = Placement(
        placed.tile,
        placed.row,
        placed.col,
        placed.rotation,
        placed.colour,
        placed.corners,
        seat,
        placed.score,
    )
    return replace(
        state,
        cells=tuple(cells),
        points=tuple(points),
        hands=tuple(tuple(h) for h in hands),
        scores=tuple(scores),
        placements=(*state.placements, placement),
        turn=(state.turn + 1) % len(state.order),
    )


def reference_decide(state: State, seat: int | None, command: Command) -> list[Event] | type:
    """The events of a command, or the class of the error that forbids it."""
    if state.ended is not None:
        return GameOverError
    if seat is None or seat != state.seat_to_play:
        return TurnError
    if isinstance(command, DrawAndPass):
        if not state.pile:
            return errors.PileEmpty
        drawn: list[Event] = [TileDrawn(seat, state.pile[0], automatic=False), TurnPassed(seat)]
        after = CRAZYMINO.fold(state, drawn)
        assert after.hands[seat] == (*state.hands[seat], state.pile[0])
        return [*drawn, *reference_turn_begins(after)]
    assert isinstance(command, PlaceTile)
    error = reference_error(state, seat, command)
    if error is not None:
        return error
    corners = rotate(TILE_CORNERS[command.tile], command.rotation)
    placed = TilePlaced(
        seat,
        command.tile,
        command.row,
        command.col,
        command.rotation,
        TILE_COLOUR[command.tile],
        corners,
        reference_score(state, command.tile, command.row, command.col),
    )
    after = reference_placed(state, placed)
    assert CRAZYMINO.evolve(state, placed) == after
    if not after.hands[seat]:
        bonus = tuple(
            Bonus(o, sum(sum(TILE_CORNERS[t]) for t in after.hands[o]))
            for o in range(len(state.players))
            if o != seat
        )
        return [placed, GameEnded(reason="last_tile", seat=seat, bonus=bonus)]
    return [placed, *reference_turn_begins(after)]


def outcome(state: State, seat: int | None, command: Command) -> list[Event] | type:
    try:
        return CRAZYMINO.decide(state, seat, command)
    except RuleError as error:
        return type(error)


def fresh(state: State) -> State:
    """The same position on a board of new tuples: nothing is remembered about it."""
    return replace(state, cells=tuple(list(state.cells)), points=tuple(list(state.points)))


def commands(state: State, rng: random.Random) -> list[Command]:
    """Legal placements, near misses and plain illegal commands for the seat to play."""
    seat = state.order[state.turn]
    hand = state.hands[seat]
    legal = reference_placings(state, hand)
    chosen = rng.sample(legal, min(3, len(legal)))
    found: list[Command] = [PlaceTile(t, r, *divmod(c, SIZE)) for t, r, c in chosen]
    laid = laid_of(state)
    near = sorted({(r + dr, c + dc) for r, c in laid for dr in (-1, 0, 1) for dc in (-1, 0, 1)})
    for _ in range(6):  # around the tiles: mismatches, occupied cells, lone corners
        row, col = rng.choice(near)
        tile = rng.choice(hand) if hand else rng.randrange(len(TILES))
        found.append(PlaceTile(tile, rng.choice(ROTATIONS), row, col))
    found.append(PlaceTile(rng.randrange(len(TILES)), 0, rng.randrange(SIZE), 3))
    found.append(PlaceTile(hand[0] if hand else 0, 45, 3, 3))
    found.append(PlaceTile(hand[0] if hand else 0, 90, SIZE, 0))
    found.append(PlaceTile(hand[0] if hand else 0, 0, 0, -1))
    found.append(DrawAndPass())
    return found


# -- random positions ------------------------------------------------------------------------


@pytest.fixture(scope="module", params=POSITIONS[::2], ids=lambda p: f"seed{p[0]}-tiles{p[1]}")
def position(request: pytest.FixtureRequest) -> State:
    seed, tiles, seats = request.param
    return grown(seed, tiles, seats)


def test_legal_equals_the_reference_with_and_without_a_remembered_board(position: State) -> None:
    for seat in range(len(position.players)):
        expected = reference_legal(position, seat)
        assert CRAZYMINO.legal(fresh(position), seat) == expected
        assert CRAZYMINO.legal(position, seat) == expected
        assert CRAZYMINO.legal(position, seat) == expected  # remembered now


def test_decide_equals_the_reference_legal_or_not(position: State) -> None:
    rng = random.Random(len(position.placements))
    seat = position.order[position.turn]
    CRAZYMINO.legal(position, seat)  # the board's frontier is remembered, as after a command
    for command in commands(position, rng):
        expected = reference_decide(position, seat, command)
        assert outcome(position, seat, command) == expected, command
        assert outcome(fresh(position), seat, command) == expected, command
    other = (seat + 1) % len(position.players)
    assert outcome(position, other, DrawAndPass()) is TurnError


def test_the_frontier_is_the_open_cells_where_a_turn_fits(position: State) -> None:
    expected = tuple(
        (FITS[corner_key(*numbers)], cell)
        for cell, numbers in reference_open_cells(laid_of(position))
        if FITS[corner_key(*numbers)]
    )
    assert frontier(list(position.cells), list(position.points)) == expected
    assert frontier(fresh(position).cells, fresh(position).points) == expected
    assert frontier(position.cells, position.points) == expected
    assert frontier(position.cells, position.points) is frontier(position.cells, position.points)


def test_near_then_elsewhere_is_whether_a_hand_fits_after_a_placement(position: State) -> None:
    rng = random.Random(7 * len(position.placements))
    everything = tuple(range(len(TILES)))
    options = reference_placings(position, everything)
    for tile, rotation, cell in rng.sample(options, min(4, len(options))):
        corners = rotate(TILE_CORNERS[tile], rotation)
        cells, points = lay(position.cells, position.points, tile, cell, corners)
        row, col = divmod(cell, SIZE)
        placed = Placement(tile, row, col, rotation, TILE_COLOUR[tile], corners)
        after = replace(
            position, cells=cells, points=points, placements=(*position.placements, placed)
        )
        before = frontier(position.cells, position.points)
        for size in (1, 2, 5, 20):
            hand = tuple(rng.sample([t for t in everything if t != tile], size))
            turns = hand_turns(hand)
            expected = bool(reference_placings(after, hand))
            near = fits_near(cells, points, cell, turns)
            assert (near or fits_elsewhere(before, cell, turns)) == expected


def test_joined_is_one_group_of_the_reference(position: State) -> None:
    rng = random.Random(len(position.placements))
    laid = laid_of(position)
    labels = reference_groups(laid)
    tiles = sorted(laid)
    for _ in range(20):
        chosen = rng.sample(tiles, min(len(tiles), rng.randint(1, 3)))
        expected = len({labels[t] for t in chosen}) == 1
        assert joined(position.cells, [cell_index(*t) for t in chosen]) == expected
    assert joined(position.cells, []) is True


# -- whole games -----------------------------------------------------------------------------


def play(seed: int, policy: str, check: bool) -> tuple[list[Event], State]:
    """A seeded game; with `check`, each turn's `legal` and `decide` (the policy's command and
    some illegal ones) are compared with the reference on the way."""
    rng = random.Random(seed)
    dice = Dice(seed ^ 0xD1CE)
    seats = 2 + seed % 3
    events = CRAZYMINO.start(Setup(seed, tuple(f"P{s}" for s in range(seats))))
    state = CRAZYMINO.replay(events)
    while not CRAZYMINO.is_over(state):
        seat = state.seat_to_play
        assert seat is not None
        legal = CRAZYMINO.legal(state, seat)
        command = CRAZYMINO.policies[policy](CRAZYMINO.view(state, seat), dice.below(1 << 30), 0)
        new = CRAZYMINO.decide(state, seat, command)
        if check:
            assert legal == reference_legal(state, seat)
            assert new == reference_decide(state, seat, command)
            for wrong in rng.sample(commands(state, rng), 3):
                assert outcome(state, seat, wrong) == reference_decide(state, seat, wrong)
        events.extend(new)
        state = CRAZYMINO.fold(state, new)
    assert outcome(state, 0, DrawAndPass()) is GameOverError
    return events, state


@pytest.mark.parametrize("seed", range(4))
@pytest.mark.parametrize("policy", ["easy", "normal"])
def test_seeded_games_agree_with_the_reference_turn_by_turn(seed: int, policy: str) -> None:
    events, state = play(seed, policy, check=True)
    assert CRAZYMINO.replay(events) == state


def test_games_and_replays_are_those_of_the_code_before_the_fast_paths() -> None:
    """Games played by `easy` and `normal` (every `legal` on the way, their events and the
    replayed states) hash as they did at commit 5075578, before these fast paths."""
    digest = hashlib.sha256()
    for policy in ("easy", "normal"):
        for seed in range(6):
            seats = 2 + seed % 3
            dice = Dice(seed ^ 0xD1CE)
            events = CRAZYMINO.start(Setup(seed, tuple(f"P{s}" for s in range(seats))))
            state = CRAZYMINO.replay(events)
            while not CRAZYMINO.is_over(state):
                seat = state.seat_to_play
                assert seat is not None
                digest.update(msgspec.json.encode(CRAZYMINO.legal(state, seat)))
                view = CRAZYMINO.view(state, seat)
                command = CRAZYMINO.policies[policy](view, dice.below(1 << 30), 0)
                new = CRAZYMINO.decide(state, seat, command)
                events.extend(new)
                state = CRAZYMINO.fold(state, new)
            # as written before logs named their rules version (`docs/rules/versions.md`)
            written = msgspec.to_builtins(events)
            assert written[0].pop("rules") == 1
            digest.update(msgspec.json.encode(written))
            digest.update(msgspec.json.encode(CRAZYMINO.replay(events)))
            assert CRAZYMINO.replay(events) == state
    assert digest.hexdigest() == "18e366e63135ec305948f98dc5fbccc1ca11efbdcc38cb7066d4bd5b1e8bef50"
