"""Folding one event into the state. Trusts the event: it was decided before it was stored."""

from __future__ import annotations

from msgspec.structs import replace

from domain.mondo.model import (
    EMPTY_BOARD,
    VERSIONS,
    Board,
    BonusTaken,
    Event,
    GameEnded,
    GameStarted,
    Grace,
    PlacedLifted,
    PlacedTurned,
    Placement,
    Player,
    RoundEnded,
    RoundStarted,
    State,
    TaskTaken,
    TilePlaced,
    TileReturned,
    TileTaken,
)

GRACE_MS = 5_000


def chips_for(players: int) -> tuple[int, ...]:
    """The bonus chips of a round, top first: 4, 3, ... down to 5 - players."""
    return tuple(range(4, 4 - players, -1))


def _seat(state: State, seat: int, player: Player) -> State:
    seats = (*state.seats[:seat], player, *state.seats[seat + 1 :])
    return replace(state, seats=seats)


def _laid(board: Board, space: int, placed: Placement | None) -> Board:
    return (*board[:space], placed, *board[space + 1 :])


def evolve(state: State, event: Event) -> State:
    """The state after one event; never validates, never raises."""
    match event:
        case TileTaken(seat=seat, tile=tile):
            me = state.seats[seat]
            return _seat(state, seat, replace(me, held=tile, grace=None, moves=me.moves + 1))
        case TileReturned(seat=seat):
            me = state.seats[seat]
            return _seat(state, seat, replace(me, held=None, moves=me.moves + 1))
        case TilePlaced(seat=seat, tile=tile, space=space, face=face, rotation=rotation, at=at):
            me = state.seats[seat]
            board = _laid(me.board, space, Placement(tile, face, rotation))
            grace = Grace(tile, space, at + GRACE_MS)
            return _seat(
                state, seat, replace(me, board=board, held=None, grace=grace, moves=me.moves + 1)
            )
        case PlacedTurned(seat=seat, rotation=rotation):
            me = state.seats[seat]
            if me.grace is None:
                return state
            placed = me.board[me.grace.space]
            turned = None if placed is None else replace(placed, rotation=rotation)
            board = _laid(me.board, me.grace.space, turned)
            return _seat(state, seat, replace(me, board=board, moves=me.moves + 1))
        case PlacedLifted(seat=seat, tile=tile):
            me = state.seats[seat]
            if me.grace is None:
                return state
            board = _laid(me.board, me.grace.space, None)
            lifted = replace(me, board=board, held=tile, grace=None, moves=me.moves + 1)
            return _seat(state, seat, lifted)
        case BonusTaken(seat=seat, chip=chip, lowest=lowest):
            me = state.seats[seat]
            left = replace(me, chip=chip, held=None, grace=None, moves=me.moves + 1)
            chips = state.chips[:-1] if lowest else state.chips[1:]
            return replace(_seat(state, seat, left), chips=chips)
        case TaskTaken(seat=seat, task=task):
            me = state.seats[seat]
            return _seat(state, seat, replace(me, tasks=(*me.tasks, task), moves=me.moves + 1))
        case RoundStarted():
            return replace(
                state,
                round=event.round,
                running=True,
                deadline=event.deadline,
                variable=frozenset(event.variable),
                special=event.special,
                specials=state.specials + ((event.special,) if event.special else ()),
                tasks=event.tasks,
                chips=chips_for(len(state.players)),
                seats=tuple(Player(board=EMPTY_BOARD) for _ in state.players),
            )
        case RoundEnded(at=at, scores=scores):
            seats = tuple(replace(p, held=None, grace=None) for p in state.seats)
            return replace(
                state, running=False, ended_at=at, seats=seats, results=(*state.results, scores)
            )
        case GameEnded():
            return replace(state, over=True)
        case GameStarted():
            return State(
                players=event.players,
                seed=event.seed or 0,
                round_ms=event.round_ms,
                break_ms=event.break_ms,
                advanced=event.advanced,
                expert=event.expert,
                backside=event.backside,
                rounds=event.rounds,
                rules=VERSIONS.of(event.rules),
            )
    return state
