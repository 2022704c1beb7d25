"""Crazymino as a decider: `start`, `decide` and `evolve`.

Automatic draws, skipped turns and the blocked end have no command of their own: they follow
from the command that ends the turn before, so `decide` emits them along with it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import cast

from msgspec.structs import replace

from domain.chance import Dice
from domain.crazymino.board import (
    TILE_COLOUR,
    TILE_CORNERS,
    TILE_SUM,
    any_placing,
    check,
    lay,
    score,
)
from domain.crazymino.errors import BadRotation, NotYourTile, OffBoard, PileEmpty
from domain.crazymino.fits import (
    TURN_CORNERS,
    fits_elsewhere,
    fits_somewhere,
    hand_fits_near,
    hand_turns,
    open_turns,
    remembered,
)
from domain.crazymino.geometry import ROTATIONS, SIZE, cell_index, on_board
from domain.crazymino.model import (
    VERSIONS,
    Bonus,
    Command,
    DrawAndPass,
    Event,
    GameEnded,
    GameStarted,
    Placement,
    PlaceTile,
    State,
    TileDrawn,
    TilePlaced,
    TurnPassed,
    TurnSkipped,
)
from domain.crazymino.tables import START_CELLS, TILES
from domain.errors import GameOverError, TurnError
from domain.game import Setup

HAND_SIZE = 20
MIN_SEATS, MAX_SEATS = 2, 4


def start(setup: Setup) -> list[Event]:
    """Shuffle seats and tiles from the seed, deal 20 each, lay the start tile, begin a turn."""
    seats = len(setup.players)
    dice = Dice(setup.seed)
    order = tuple(dice.shuffled(range(seats)))
    tiles = dice.shuffled(range(len(TILES)))
    hands = tuple(tuple(tiles[s * HAND_SIZE : (s + 1) * HAND_SIZE]) for s in range(seats))
    start_tile = tiles[seats * HAND_SIZE]
    pile = tuple(tiles[seats * HAND_SIZE + 1 :])
    row, col = START_CELLS[TILE_COLOUR[start_tile]]
    started = GameStarted(
        players=tuple(setup.players),
        order=order,
        hands=hands,
        hand_sizes=tuple(len(h) for h in hands),
        start_tile=start_tile,
        start_row=row,
        start_col=col,
        pile=pile,
        pile_size=len(pile),
        seed=setup.seed,
        rules=VERSIONS.current,
    )
    events: list[Event] = [started]
    _begin_turn(evolve(State(), started), events)
    return events


def decide(state: State, seat: int | None, command: Command) -> list[Event]:
    """The events of a seat's command, or the `RuleError` that forbids it."""
    if state.ended is not None:
        raise GameOverError("The game is over.")
    kind = type(command)  # (`isinstance` of another Struct type is slow: the usual two first)
    if seat is None or not state.order or seat != state.order[state.turn]:  # `seat_to_play`
        raise TurnError("It is not your turn.")
    events: list[Event] = []
    if kind is PlaceTile or (kind is not DrawAndPass and isinstance(command, PlaceTile)):
        placing = cast(PlaceTile, command)
        before = state
        laid = _placed(state, seat, placing)
        events.append(laid)
        after = _placed_on(state, laid)  # `evolve` of a TilePlaced
        if not after.hands[seat]:
            after = _emit(after, events, _last_tile(after, seat))
        else:
            after = _begin_turn(after, events, (cell_index(placing.row, placing.col), before))
        _remember(before, events, after)
        return events
    if not state.pile:
        raise PileEmpty("The pile is empty: you cannot draw.")
    after = _emit(state, events, TileDrawn(seat, state.pile[0], automatic=False))
    after = _emit(after, events, TurnPassed(seat))
    _remember(state, events, _begin_turn(after, events))
    return events


#: How many decided commands `folded` remembers. The service folds a command's events into the
#: state it decided them on at once, and `decide` has just made that state: one entry per game
#: being played is plenty; beyond that the memo starts afresh.
DECIDED = 64
_DECIDED: dict[int, tuple[State, tuple[Event, ...], State]] = {}


def _remember(before: State, events: list[Event], after: State) -> None:
    """Remember that `events` fold `before` into `after` (by the identity of the objects; the
    memo keeps them alive, so an identity cannot be reused while it is remembered)."""
    if len(_DECIDED) >= DECIDED:
        _DECIDED.clear()
    _DECIDED[id(before)] = (before, tuple(events), after)


def folded(state: State, events: Sequence[Event]) -> State | None:
    """The state `events` fold `state` into if `decide` made these events on exactly this state
    (the same object), else None: what `decide` folded already is not folded again."""
    known = _DECIDED.get(id(state))
    if known is None or known[0] is not state or known[1] != tuple(events):
        return None  # (equal events, the same objects most often, fold the state alike)
    return known[2]


def has_placement(state: State, seat: int, hand: tuple[int, ...] | None = None) -> bool:
    """Whether the seat (or just `hand`) can lay a tile somewhere."""
    return any_placing(state.cells, state.points, state.hands[seat] if hand is None else hand)


def _placed(state: State, seat: int, command: PlaceTile) -> TilePlaced:
    if command.rotation not in ROTATIONS:
        raise BadRotation("A tile turns by 0, 90, 180 or 270 degrees.")
    tile, row, col = command.tile, command.row, command.col
    if not on_board(row, col):
        raise OffBoard("That cell is not on the 14×14 board.")
    if tile not in state.hands[seat]:
        raise NotYourTile("That tile is not in your hand.")
    cell = row * SIZE + col
    corners = TURN_CORNERS[tile << 2 | ROTATIONS.index(command.rotation)]
    cells, points = state.cells, state.points
    check(cells, points, corners, cell)
    return TilePlaced(
        seat,
        tile,
        row,
        col,
        command.rotation,
        TILE_COLOUR[tile],
        corners,
        score(cells, points, tile, cell),
    )


def _last_tile(state: State, seat: int) -> GameEnded:
    bonus = tuple(
        Bonus(opponent, sum(TILE_SUM[t] for t in state.hands[opponent]))
        for opponent in range(len(state.players))
        if opponent != seat
    )
    return GameEnded(reason="last_tile", seat=seat, bonus=bonus)


def _begin_turn(state: State, events: list[Event], laid: tuple[int, State] | None = None) -> State:
    """Draw for a stuck seat until it can play; skip it when the pile is out; end when all are.

    `laid` is the cell of the tile just laid and the state before it, if a tile was laid: the
    cells around it are asked first, then the other open cells, which the board before it
    already had (`frontier` remembers them when `legal` listed that board's placements).
    Returns the state after the events it emits.
    """
    hand = state.hands[state.order[state.turn]]
    cells, points = state.cells, state.points
    if laid is None:
        if remembered(cells, points) is None and _fits_recent(state, hand, 0):
            return state  # the usual case after a draw on a board nobody listed
        if fits_somewhere(cells, points, hand_turns(hand)):
            return state  # the usual case after a draw
    else:
        cell, before = laid
        if hand_fits_near(cells, points, cell, hand):
            return state  # the usual case after a placement: a tile fits next to the one just laid
        known = remembered(before.cells, before.points)  # as `legal` left it, most often
        if known is None:
            if _fits_recent(state, hand, 1) or fits_somewhere(cells, points, hand_turns(hand)):
                return state
        elif fits_elsewhere(known, cell, hand_turns(hand)):
            return state
    fits = open_turns(state.cells, state.points)  # the board stays as it is until a placement

    def can_place(hand: tuple[int, ...]) -> bool:
        return bool(fits & hand_turns(hand))

    while True:
        seat = state.order[state.turn]
        if can_place(state.hands[seat]):
            return state
        while state.pile:
            tile = state.pile[0]
            state = _emit(state, events, TileDrawn(seat, tile, automatic=True))
            if can_place((tile,)):
                return state
        if not any(can_place(hand) for hand in state.hands):
            return _emit(state, events, GameEnded(reason="blocked"))
        state = _emit(state, events, TurnSkipped(seat))


#: How many of the tiles laid last `_fits_recent` looks around.
RECENT = 4


def _fits_recent(state: State, hand: tuple[int, ...], skip: int) -> bool:
    """Whether a tile of the hand fits an open cell next to one of the `RECENT` tiles laid last
    but `skip` (the cells the last moves numbered, the likeliest to take a tile): a few cells
    asked before all the open cells of the board are worked out. False says nothing."""
    cells, points = state.cells, state.points
    placed = state.placements
    for p in placed[max(0, len(placed) - skip - RECENT) : len(placed) - skip]:
        if hand_fits_near(cells, points, p.row * SIZE + p.col, hand):
            return True
    return False


def _emit(state: State, events: list[Event], event: Event) -> State:
    events.append(event)
    return evolve(state, event)


def _next_turn(state: State) -> int:
    return (state.turn + 1) % len(state.order)


def _without(hand: tuple[int, ...], tile: int) -> tuple[int, ...]:
    """The hand without `tile` (every copy of it; a dealt hand holds each tile once)."""
    try:
        at = hand.index(tile)
    except ValueError:
        return hand
    rest = hand[:at] + hand[at + 1 :]
    return tuple(t for t in rest if t != tile) if tile in rest else rest


def _with_hand(state: State, seat: int, hand: tuple[int, ...]) -> tuple[tuple[int, ...], ...]:
    return (*state.hands[:seat], hand, *state.hands[seat + 1 :])


def evolve(state: State, event: Event) -> State:
    """The state after one event. Trusts the event: it was decided before it was stored."""
    if isinstance(event, TilePlaced):  # the most common event, first and without a pattern
        return _placed_on(state, event)
    match event:
        case TileDrawn(seat=seat, tile=tile):
            hand = state.hands[seat] if tile is None else (*state.hands[seat], tile)
            return replace(state, hands=_with_hand(state, seat, hand), pile=state.pile[1:])
        case TurnPassed() | TurnSkipped():
            return replace(state, turn=_next_turn(state))
        case GameEnded(seat=seat, bonus=bonus):
            scores = list(state.scores)
            if seat is not None:
                scores[seat] += sum(b.points for b in bonus)
            return replace(state, scores=tuple(scores), ended=event)
        case GameStarted():
            return _started(event)
    return state


def _placed_on(state: State, event: TilePlaced) -> State:
    seat, tile, row, col = event.seat, event.tile, event.row, event.col
    corners, points = event.corners, event.score
    cells, grid = lay(state.cells, state.points, tile, row * SIZE + col, corners)
    scores = list(state.scores)
    scores[seat] += points.total
    placement = Placement(tile, row, col, event.rotation, event.colour, corners, seat, points)
    return replace(
        state,
        cells=cells,
        points=grid,
        hands=_with_hand(state, seat, _without(state.hands[seat], tile)),
        scores=tuple(scores),
        placements=(*state.placements, placement),
        turn=(state.turn + 1) % len(state.order),
    )


def _started(event: GameStarted) -> State:
    corners = TILE_CORNERS[event.start_tile]
    cells, points = lay(
        State().cells,
        State().points,
        event.start_tile,
        cell_index(event.start_row, event.start_col),
        corners,
    )
    start = Placement(
        event.start_tile,
        event.start_row,
        event.start_col,
        0,
        TILE_COLOUR[event.start_tile],
        corners,
    )
    return State(
        players=event.players,
        order=event.order,
        hands=tuple(hand or () for hand in event.hands),
        pile=event.pile or (),
        cells=cells,
        points=points,
        placements=(start,),
        scores=(0,) * len(event.players),
        seed=event.seed,
    )
