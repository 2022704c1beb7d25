"""Mondo as a decider: `start` and `decide`, judging every deadline from the command's time.

Everyone plays at once; the event stream's order decides who was first. A round ends when its
clock runs out (the system's `end_round`, sent by the timer) or when every player has taken a
bonus chip; the next round starts after the break (the system's `start_round`) or at once.
"""

from __future__ import annotations

from domain.chance import at_step
from domain.errors import GameOverError, RuleError, TurnError
from domain.game import Setup
from domain.mondo.board import SPACES, open_spaces, touches
from domain.mondo.errors import (
    AlreadyHolding,
    BadRotation,
    GraceOver,
    LeftRound,
    NoSuchTask,
    NoSuchTile,
    NotAdjacent,
    NotHolding,
    OffBoard,
    RoundOver,
    RoundRunning,
    SpaceTaken,
    TaskFulfilled,
    TaskNotFree,
    TaskNotYet,
    TileHeld,
    TileOnBoard,
    TooManyMoves,
    TwoTasks,
)
from domain.mondo.evolve import evolve
from domain.mondo.faces import ROTATIONS, TILE_COUNT
from domain.mondo.model import (
    VERSIONS,
    BonusTaken,
    Command,
    EndRound,
    Event,
    GameEnded,
    GameStarted,
    LiftPlaced,
    PlacedLifted,
    PlacedTurned,
    PlaceTile,
    Player,
    ReturnTile,
    RoundEnded,
    RoundStarted,
    StartRound,
    State,
    TakeBonus,
    TakeTask,
    TakeTile,
    TaskTaken,
    TilePlaced,
    TileReturned,
    TileTaken,
    TurnPlaced,
)
from domain.mondo.options import ROUNDS, MondoOptions
from domain.mondo.specials import SPECIALS
from domain.mondo.table import board_survey, grace_open, holders, scores_now
from domain.mondo.tasks import (
    CARDS,
    MOST_TASKS,
    TASKS,
    TASKS_PER_PLAYER,
    TILES_BEFORE_TASKS,
    Finish,
    Task,
)

MIN_SEATS, MAX_SEATS = 1, 4
#: The most moves a player makes in one round (from version 3 of the rules): every command of
#: theirs counts; beyond it only placing the tile in hand, a task and the chip are left, so
#: that a round's log is bounded (taking and putting back a tile could loop until the clock).
#: A round played to win takes about 2 moves a tile: under 100.
MOVES_PER_ROUND = 400
#: The commands that may repeat without end, and so stop at `MOVES_PER_ROUND`.
LOOPING = (TakeTile, ReturnTile, TurnPlaced, LiftPlaced)


def start(setup: Setup, options: MondoOptions, now: int) -> list[Event]:
    """The game's rules as chosen, and its first round."""
    started = GameStarted(
        players=tuple(setup.players),
        seed=setup.seed,
        round_ms=options.round_ms(),
        break_ms=options.break_seconds * 1000,
        advanced=options.advanced,
        expert=options.expert,
        backside=options.backside,
        rounds=ROUNDS,
        rules=VERSIONS.current,
    )
    return [started, deal(evolve(State(), started), now)]


def deal(state: State, now: int) -> RoundStarted:
    """The next round: each tile's face drawn at random, and the round's special scoring
    (advanced, never one already used) and tasks (expert), from the game's secret seed."""
    number = state.round + 1
    dice = at_step(state.seed, number)
    variable = tuple(tile for tile in range(TILE_COUNT) if dice.below(2))
    special = None
    if state.advanced:
        unused = [s for s in SPECIALS if s not in state.specials]
        special = unused[dice.below(len(unused))]
    tasks: tuple[Task, ...] = ()
    if state.expert:
        drawn = set(dice.shuffled(TASKS)[: TASKS_PER_PLAYER * len(state.players)])
        tasks = tuple(t for t in TASKS if t in drawn)
    return RoundStarted(number, now + state.round_ms, variable, special, tasks)


def decide(state: State, seat: int | None, command: Command, now: int) -> list[Event]:
    """The events of a command at server time `now`, or the `RuleError` that forbids it."""
    if state.over:
        if seat is None:
            return []
        raise GameOverError("The game is over.")
    if isinstance(command, EndRound | StartRound):
        if seat is not None:
            raise TurnError("Only the clock starts and ends rounds.")
        return _clock(state, command, now)
    if seat is None or not 0 <= seat < len(state.players):
        raise TurnError("Only a player of this game may do that.")
    if not state.running or now > state.deadline:
        raise RoundOver("The round is over.")
    me = state.seats[seat]
    if me.left:
        raise LeftRound("You have taken a bonus chip: your round is over.")
    if isinstance(command, LOOPING) and state.rules >= 3 and me.moves >= MOVES_PER_ROUND:
        raise TooManyMoves(
            f"You have made {MOVES_PER_ROUND} moves this round, the most a round allows: place"
            " the tile you hold, take a task or take the bonus chip."
        )
    match command:
        case TakeTile(tile=tile):
            return [_taken(state, seat, tile)]
        case ReturnTile(tile=tile):
            _holding(me, tile)
            return [TileReturned(seat, tile)]
        case PlaceTile():
            return _placed(state, seat, command, now)
        case TurnPlaced(rotation=rotation):
            tile, current = _in_grace(me, now)
            if rotation not in ROTATIONS or rotation == current:
                raise BadRotation("Turn the tile to 0, 90, 180 or 270 degrees, another than now.")
            return [PlacedTurned(seat, tile, rotation)]
        case LiftPlaced():
            tile, _ = _in_grace(me, now)
            return [PlacedLifted(seat, tile)]
        case TakeBonus():
            return _left(state, BonusTaken(seat, state.chips[0], full_board=False), now)
        case TakeTask(task=task):
            _may_take(state, seat, task)
            return [TaskTaken(seat, task)]
    raise TurnError("Unknown command.")


def _clock(state: State, command: EndRound | StartRound, now: int) -> list[Event]:
    """The timer's commands: a round's end, or the start of the next after the break; one that
    has nothing left to do (fired twice, or late) does nothing."""
    if isinstance(command, EndRound):
        if command.round != state.round or not state.running:
            return []
        if now < state.deadline:
            raise RoundRunning("The round's time is not up yet.")
        return _ended(state, now, timed_out=True)
    if command.round != state.round + 1 or state.running or state.round == 0:
        return []
    if now < state.ended_at + state.break_ms:
        raise RoundRunning("The break between rounds is not over yet.")
    return [deal(state, now)]


def _ended(state: State, now: int, timed_out: bool) -> list[Event]:
    ended = RoundEnded(state.round, now, timed_out, scores_now(state))
    events: list[Event] = [ended]
    after = evolve(state, ended)
    if state.round >= state.rounds:
        events.append(GameEnded(after.totals))
    elif state.break_ms == 0:
        events.append(deal(after, now))
    return events


def leave(state: State, seat: int, now: int) -> list[Event]:
    """A player who leaves the table during a round leaves the round too, with the lowest chip;
    the AI plays their seat from the next round on."""
    if state.over or not state.running or state.seats[seat].left or not state.chips:
        return []
    return _left(state, BonusTaken(seat, state.chips[-1], full_board=False, lowest=True), now)


def _left(state: State, chip: BonusTaken, now: int) -> list[Event]:
    """A player leaves the round with a chip; the last one to leave ends it."""
    after = evolve(state, chip)
    if all(p.left for p in after.seats):
        return [chip, *_ended(after, now, timed_out=False)]
    return [chip]


def _taken(state: State, seat: int, tile: int) -> TileTaken:
    if state.seats[seat].held is not None:
        raise AlreadyHolding("You are holding a tile already: place it or put it back.")
    if not 0 <= tile < TILE_COUNT:
        raise NoSuchTile(f"There is no tile {tile}.")
    where = holders(state).get(tile)
    if where is not None and state.seats[where].held == tile:
        raise TileHeld("Another player holds that tile.")
    if where is not None:
        raise TileOnBoard("That tile lies on a world board.")
    return TileTaken(seat, tile)


def _holding(me: Player, tile: int) -> None:
    if me.held != tile:
        raise NotHolding("You are not holding that tile.")


def _placed(state: State, seat: int, command: PlaceTile, now: int) -> list[Event]:
    me = state.seats[seat]
    _holding(me, command.tile)
    if command.rotation not in ROTATIONS:
        raise BadRotation("A tile turns by 0, 90, 180 or 270 degrees.")
    if not 0 <= command.space < SPACES:
        raise OffBoard("A world board has spaces 0 to 23.")
    taken = [p is not None for p in me.board]
    if taken[command.space]:
        raise SpaceTaken("That space holds a tile already.")
    if any(taken) and not touches(taken, command.space):
        raise NotAdjacent("A tile must share an edge with a tile on your board.")
    placed = TilePlaced(seat, command.tile, command.space, command.face, command.rotation, at=now)
    if sum(taken) + 1 < SPACES:
        return [placed]
    full = BonusTaken(seat, state.chips[0], full_board=True)
    return [placed, *_left(evolve(state, placed), full, now)]


def _in_grace(me: Player, now: int) -> tuple[int, int]:
    """The tile in grace and its rotation, else `GraceOver`."""
    if me.grace is None or not grace_open(me, now):
        raise GraceOver("The tile can no longer be turned or lifted.")
    placed = me.board[me.grace.space]
    return me.grace.tile, placed.rotation if placed else 0


def _may_take(state: State, seat: int, task: Task) -> None:
    me = state.seats[seat]
    if task not in state.tasks:
        raise NoSuchTask("That task is not shown this round.")
    if any(task in p.tasks for p in state.seats):
        raise TaskNotFree("That task has been taken.")
    if me.placed < TILES_BEFORE_TASKS:
        raise TaskNotYet(f"Place {TILES_BEFORE_TASKS} tiles before you take a task.")
    if len(me.tasks) >= MOST_TASKS:
        raise TwoTasks(f"You may take {MOST_TASKS} tasks a round.")
    if CARDS[task].fulfilled(Finish(board_survey(state, me.board), me.chip or 0)):
        raise TaskFulfilled("Your board fulfils that task already.")


def legal(state: State, seat: int, now: int) -> list[Command]:
    """Every command the seat may send at `now`."""
    if state.over or not state.running or now > state.deadline:
        return []
    me = state.seats[seat]
    if me.left:
        return []
    commands: list[Command] = []
    if me.held is not None:
        commands.append(ReturnTile(me.held))
        taken = [p is not None for p in me.board]
        commands += [
            PlaceTile(me.held, space, face, rotation)
            for space in open_spaces(taken)
            for face in ("plain", "variable")
            for rotation in ROTATIONS
        ]
    else:
        gone = holders(state)
        commands += [TakeTile(t) for t in range(TILE_COUNT) if t not in gone]
        if grace_open(me, now):
            _, current = _in_grace(me, now)
            commands += [TurnPlaced(r) for r in ROTATIONS if r != current]
            commands.append(LiftPlaced())
    commands.append(TakeBonus())
    for task in state.tasks:
        try:
            _may_take(state, seat, task)
        except RuleError:
            continue
        commands.append(TakeTask(task))
    if state.rules >= 3 and me.moves >= MOVES_PER_ROUND:
        return [c for c in commands if not isinstance(c, LOOPING)]
    return commands
