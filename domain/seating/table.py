"""Any game at a table: turn clocks, leaving, taking a seat back, the AI playing for the absent.

`seated(game)` is the game as the service hosts it. Its state is the game's plus the table's;
its commands and events are the game's plus the table's own (`domain.seating.model`).

- A table with `turn_seconds` runs a clock for the person to act, once per turn: its due is
  set when the seat's turn begins and holds however many commands the turn takes (the game's
  `turn_key` says when a turn goes on). When it runs out, the system's `TimeOut` plays the
  seat's fallback after a `TimedOut` event: the `normal` AI, from the seat's own view, finishes
  the whole turn. One timeout is one strike; `timeouts_to_ai` in a row hand the seat to the AI.
  (Tables set before this, `TableSet.clock_per` `command`, ran a clock per command: their logs
  are decided as they were played.)
- `Leave` hands the seat to the AI at the table's `takeover_level`; the game may add what
  leaving means in it (`Game.leave`). `Rejoin` takes it back. Every time a seat goes to the
  AI counts (left, timed out or called): its player may leave only while the count is under
  `LEAVES`, and take the seat back only while it is at most `LEAVES` (`TooManyLeaves`), so
  that a game's log is bounded by its rules. Folding counts and never refuses: an older log
  with more still replays.
- The system's `Abandon` ends a game nobody has played for a long time, with the events the
  game's `abandoned` gives; the table also checks the number of seats of every setup.
- `Resign` and `Call` end a game for a seat before its end (`domain.seating.resigning`); a seat
  lost so, or away at the end, counts last in the standings.
- A timed-out seat is played the `least` move its rules allow (`Game.least`), never a good one;
  tables set before `TableSet.fallback` were played the normal AI's move, and replay so.
- The table never decides who is a person: the service asks `away` and `admit`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from msgspec.structs import replace

from domain.errors import GameOverError, OptionError, RuleError, SetupError, TurnError
from domain.game import Abandon, AnyGame, Game, Policy, Record, Setup, Standing, Timer
from domain.memo import Described
from domain.seating import resigning, words
from domain.seating.model import (
    AlreadyLeft,
    AlreadyResigned,
    Away,
    Call,
    CallAnswered,
    Called,
    CallRanOut,
    CallRunOut,
    Clock,
    ClockRunning,
    ClockSet,
    Leave,
    NotLeft,
    Rejoin,
    Resign,
    SeatAway,
    SeatCalled,
    SeatedState,
    Seating,
    SeatLeft,
    SeatRejoined,
    SeatResigned,
    TableEvent,
    TableSet,
    TableView,
    TimedOut,
    TimeOut,
    TooManyLeaves,
    union,
)
from domain.seating.model import TableCommand as _TableCommand

_TABLE_EVENTS = (
    TableSet,
    ClockSet,
    TimedOut,
    SeatLeft,
    SeatRejoined,
    SeatResigned,
    SeatCalled,
    CallAnswered,
    CallRanOut,
)
_TABLE_COMMANDS = (TimeOut, Leave, Rejoin, Abandon, Resign, Call, CallRunOut)
#: Whether each type of event met so far is one of the table's (`isinstance` of a type that is
#: not among several Struct types is slow: it is asked once per type).
_IS_TABLE_EVENT: dict[type, bool] = {}
#: How many of the table's events `Seated.describe` remembers the words of (by identity, the
#: event kept alive meanwhile, and the names given); beyond that the memo starts afresh.
DESCRIBED = 64
_DESCRIBED = Described(DESCRIBED)
#: What each type of command met so far is: one of the table's (`_TABLE_COMMANDS`), or the
#: game's own (None).
_TABLE_COMMAND: dict[type, type | None] = {}
#: The AI level whose move a timed-out seat of a table set before `TableSet.fallback` plays, and
#: the takeover level a table states only when it differs.
FALLBACK = "normal"
#: The most commands the fallback plays to finish a turn (a Bazaar turn takes three at most).
TURN_COMMANDS = 16
#: How many times a seat may go to the AI (for any reason) and still be left by its player;
#: one that has gone to it more often (a timeout or a call after that) stays the AI's.
LEAVES = 5


class Seated(Game[SeatedState[Any], Any, Any, Any, Any]):
    """`inner` at a table. Every question about the game itself goes to `inner`."""

    seating_type = TableView

    def __init__(self, inner: AnyGame) -> None:
        self.inner = inner
        self.name = inner.name
        self.title = inner.title
        self.min_seats = inner.min_seats
        self.max_seats = inner.max_seats
        self.shape = inner.shape
        self.command_type = union(inner.command_type, _TableCommand)
        self.event_type = union(inner.event_type, TableEvent)
        self.view_type = inner.view_type
        self.options_type = inner.options_type
        self.hint_type = inner.hint_type

    # A class variable in Game; here the inner game's: the AI plays from the game's own view.
    @property
    def policies(self) -> Mapping[str, Policy]:  # type: ignore[override]
        return self.inner.policies

    # -- beginning ------------------------------------------------------------------------

    def initial(self) -> SeatedState[Any]:
        return SeatedState(self.inner.initial())

    def start(self, setup: Setup, now: int) -> list[Any]:
        seats, inner = len(setup.players), self.inner
        if not inner.min_seats <= seats <= inner.max_seats:
            raise SetupError(
                f"{inner.title} takes {inner.min_seats} to {inner.max_seats} players, not {seats}."
            )
        options = self.inner.options(setup)
        level = getattr(options, "takeover_level", FALLBACK)
        if level not in self.inner.policies:
            levels = ", ".join(sorted(self.inner.policies))
            raise OptionError(
                "takeover_level", f"AI for a player who leaves must be one of: {levels}."
            )
        table = TableSet(
            getattr(options, "turn_seconds", None),
            getattr(options, "timeouts_to_ai", 3),
            level,
            tuple(sorted(setup.ai_seats)),
            clock_per="turn",
            fallback="least",
        )
        events: list[Any] = list(self.inner.start(setup, now))
        if table.turn_seconds is not None or level != FALLBACK:
            events.append(table)
        state = self.fold(self.initial(), events)
        return events + self._clock(state, now, state.table.strikes)

    def edition(self, opening: list[Any], recorded: Sequence[Any]) -> list[Any]:
        """A table set before `TableSet.fallback` (its timed-out seats played the normal AI's
        move), or before `TableSet.clock_per` too (its clock ran once per command), goes on
        deciding so: its log checks as it was played. So does the game's own rules version
        (`Game.edition`)."""
        recorded = list(recorded)
        opening = self.inner.edition(opening, recorded)
        for older in (
            {"fallback": "normal"},
            {"fallback": "normal", "clock_per": "command"},
        ):
            edition = [replace(e, **older) if type(e) is TableSet else e for e in opening]
            if edition != opening and recorded == edition:
                return edition
        return opening

    def readings(self, records: Sequence[Record[Any]]) -> list[list[Record[Any]]]:
        return self.inner.readings(records)

    # -- deciding -------------------------------------------------------------------------

    def decide(
        self, state: SeatedState[Any], seat: int | None, command: Any, now: int
    ) -> list[Any]:
        game, table = state.game, state.table
        own = _table_command(command)
        if own is TimeOut:
            return self._timed_out(state, seat, command, now)
        if own is None:
            events = list(self.inner.decide(game, seat, command, now))
            if table.called is not None:
                events += resigning.answered(self, state, seat, events)
            if table.turn_seconds is None or not events:  # no clock: `_clock_after` adds none
                return events
            strikes = table.strikes if seat is None else _strike(table, seat, 0)
            return events + self._clock_after(state, events, now, strikes)
        if own is Abandon:
            if seat is not None:
                raise TurnError("Only the service ends a game that nobody plays.")
            if self.abandon() is None:
                raise RuleError("This game cannot be abandoned.")
            if self.inner.is_over(game):
                raise GameOverError("The game is over.")
            ended = self.inner.abandoned(game)
            return ended + self._clock_after(state, ended, now, table.strikes)
        if own is CallRunOut:
            if self.inner.is_over(game):
                return []
            return resigning.call_run_out(state, seat, command)
        if seat is None:
            raise TurnError("Only a player leaves the table, resigns, calls or comes back.")
        if self.inner.is_over(game):
            raise GameOverError("The game is over.")
        if own is Resign:
            resigned = resigning.resign(self, state, seat, now)
            return resigned + self._clock_after(state, resigned, now, _strike(table, seat, 0))
        if own is Call:
            return resigning.call(self, state, seat, command, now)
        if own is Leave:
            if table.level_away(seat) is not None:
                raise AlreadyLeft("You have left the table already.")
            if table.leaves_of(seat) >= LEAVES:
                raise TooManyLeaves(f"Your seat has gone to the AI {LEAVES} times this game.")
            left: list[Any] = [SeatLeft(seat, table.takeover_level, "left")]
            left += self.inner.leave(game, seat, now)
            return left + self._clock_after(state, left, now, _strike(table, seat, 0))
        if seat in table.resigned:
            raise AlreadyResigned("You resigned: the AI plays your seat to the end.")
        if table.level_away(seat) is None:
            raise NotLeft("You have not left the table: your seat is yours.")
        if table.leaves_of(seat) > LEAVES:
            raise TooManyLeaves(
                f"Your seat has gone to the AI more than {LEAVES} times: it plays to the end."
            )
        back: list[Any] = [SeatRejoined(seat)]
        return back + self._clock_after(state, back, now, _strike(table, seat, 0))

    def _timed_out(
        self, state: SeatedState[Any], seat: int | None, command: TimeOut, now: int
    ) -> list[Any]:
        """The fallback move of a seat whose clock ran out; nothing if the clock has moved on."""
        if seat is not None:
            raise TurnError("Only the server's clock ends a turn.")
        game, table, who = state.game, state.table, command.seat
        clock = table.clock
        if clock is None or clock.seat != who or command.clock != table.clocks:
            return []
        if self.inner.is_over(game) or who not in self.inner.to_act(game):
            return []
        if now < clock.due:
            raise ClockRunning("The turn's time is not up yet.")
        strike = table.strikes_of(who) + 1
        events: list[Any] = [TimedOut(who, command.clock, strike)]
        events += self._fallback(game, who, table, now)
        strikes = _strike(table, who, strike)
        if strike >= table.timeouts_to_ai:
            events.append(SeatLeft(who, table.takeover_level, "timeouts"))
            strikes = _strike(table, who, 0)
        return events + self._clock_after(state, events, now, strikes, ran_out=True)

    def _fallback(self, game: Any, who: int, table: Seating, now: int) -> list[Any]:
        """The commands played for a seat whose time ran out: the `least` the rules allow
        (`Game.least`), or on a table set before `TableSet.fallback` the `normal` AI's, each
        decided from the seat's own view (its entropy fixed by the clock and the step, so that
        a replay decides alike); to the end of the turn, or one command on a table whose clock
        runs per command."""
        inner, policy = self.inner, self.inner.policies[FALLBACK]
        key = inner.turn_key(game) if table.clock_per == "turn" else None
        events: list[Any] = []
        for step in range(TURN_COMMANDS):
            if table.fallback == "least":
                move = inner.least(game, who, now)
            else:
                move = policy(inner.view(game, who), _entropy(table.clocks, who, step), now)
            played = inner.decide(game, who, move, now)
            events += played
            if key is None or not played:
                break
            game = inner.fold(game, played)
            if inner.turn_key(game) != key or inner.is_over(game) or who not in inner.to_act(game):
                break
        return events

    def _clock_after(
        self,
        state: SeatedState[Any],
        events: list[Any],
        now: int,
        strikes: tuple[int, ...],
        *,
        ran_out: bool = False,
    ) -> list[Any]:
        """The clock after a command's `events`: the running one goes on while its seat's turn
        does (unless it `ran_out`), else the next person's starts."""
        if state.table.turn_seconds is None or not events:
            return []
        after = self.fold(state, events)
        running = None if ran_out else self._running(state, after, events)
        return self._clock(after, now, strikes, running)

    def _running(
        self, before: SeatedState[Any], after: SeatedState[Any], events: list[Any]
    ) -> Clock | None:
        """The clock that goes on after `events`: the running one, on a table whose clock runs
        per turn, when the turn has not changed (by the game's `turn_key`; a game without one
        has a new turn at each of its own commands)."""
        table = after.table
        if table.clock_per != "turn" or table.clock is None:
            return None
        key = self.inner.turn_key(before.game)
        if key is None:
            turned = any(not _is_table_event(e) for e in events)
        else:
            turned = key != self.inner.turn_key(after.game)
        return None if turned else table.clock

    def _clock(
        self,
        state: SeatedState[Any],
        now: int,
        strikes: tuple[int, ...],
        running: Clock | None = None,
    ) -> list[Any]:
        """The clock for the person to act after a command (for nobody on an AI's turn): the
        `running` one if it is theirs, restated only when the strikes change."""
        table = state.table
        if table.turn_seconds is None or self.inner.is_over(state.game):
            return []
        people = [
            s
            for s in sorted(self.inner.to_act(state.game))
            if s not in table.ai_seats and table.level_away(s) is None
        ]
        if not people:
            idle = table.clock is None and strikes == table.strikes
            return [] if idle else [ClockSet(None, None, strikes)]
        if running is not None and running.seat == people[0]:
            if _same_strikes(strikes, table.strikes):
                return []
            return [ClockSet(running.seat, running.due, strikes, kept=True)]
        return [ClockSet(people[0], now + table.turn_seconds * 1000, strikes)]

    def admit(self, state: SeatedState[Any], seat: int, command: Any) -> None:
        if state.table.level_away(seat) is None or _table_command(command) in (
            Leave,
            Rejoin,
            Resign,
        ):
            return
        raise SeatAway(
            "You have left the table and the AI plays your seat: take your seat back first."
        )

    # -- folding --------------------------------------------------------------------------

    def evolve(self, state: SeatedState[Any], event: Any) -> SeatedState[Any]:
        if not _is_table_event(event):
            return SeatedState(self.inner.evolve(state.game, event), state.table)
        return SeatedState(state.game, _table_after(state.table, event))

    def fold(self, state: SeatedState[Any], events: Iterable[Any]) -> SeatedState[Any]:
        """As `evolve` event by event: each run of the game's own events is folded by the
        game's `fold` (which may know the state they lead to), the table's by the table."""
        game, table = state.game, state.table
        run: list[Any] = []
        seen = False
        for event in events:
            seen = True
            if _is_table_event(event):
                if run:
                    game, run = self.inner.fold(game, run), []
                table = _table_after(table, event)
            else:
                run.append(event)
        if run:
            game = self.inner.fold(game, run)
        return SeatedState(game, table) if seen else state

    # -- asking ---------------------------------------------------------------------------

    def to_act(self, state: SeatedState[Any]) -> frozenset[int]:
        return self.inner.to_act(state.game)

    def is_over(self, state: SeatedState[Any]) -> bool:
        return self.inner.is_over(state.game)

    def scores(self, state: SeatedState[Any]) -> tuple[int, ...]:
        return self.inner.scores(state.game)

    def standings(self, state: SeatedState[Any]) -> list[Standing]:
        """The game's standings, with every seat lost to its player (away at the end, or
        resigned) last."""
        return resigning.standings(self, state)

    def legal(self, state: SeatedState[Any], seat: int, now: int) -> list[Any]:
        """The game's commands for a seat whose player sits there; none for one who left."""
        if state.table.level_away(seat) is not None:
            return []
        return self.inner.legal(state.game, seat, now)

    def hints(self, state: SeatedState[Any], seat: int, commands: Sequence[Any]) -> list[Any]:
        return self.inner.hints(state.game, seat, commands)

    def away(self, state: SeatedState[Any]) -> Mapping[int, str]:
        away = state.table.away
        return {a.seat: a.level for a in away} if away else {}

    def seating(self, state: SeatedState[Any]) -> TableView:
        t = state.table
        called = None if self.inner.is_over(state.game) else resigning.active(state)
        return TableView(
            t.turn_seconds,
            t.timeouts_to_ai,
            t.takeover_level,
            t.away,
            t.strikes,
            t.clock,
            t.resigned,
            called,
        )

    def view(self, state: SeatedState[Any], viewer: int | None) -> Any:
        return self.inner.view(state.game, viewer)

    def full_view(self, state: SeatedState[Any]) -> Any:
        return self.inner.full_view(state.game)

    def redact(self, event: Any, viewer: int | None) -> Any:
        table = _IS_TABLE_EVENT.get(type(event))  # `_is_table_event`, inline when known
        if table is None:
            table = _is_table_event(event)
        return event if table else self.inner.redact(event, viewer)

    def describe(self, event: Any, names: Sequence[str]) -> str:
        table = _IS_TABLE_EVENT.get(type(event))
        if table is None:
            table = _is_table_event(event)
        if not table:
            return self.inner.describe(event, names)
        # The table's events are frozen values: their words are remembered by identity, as
        # the service describes each event for every seat (a `ClockSet` after every move).
        return _DESCRIBED.words(event, names, words.describe)

    def cause(self, event: Any) -> tuple[int | None, Any] | None:
        match event:
            case TimedOut(seat=seat, clock=clock):
                return None, TimeOut(seat, clock)
            case SeatLeft(seat=seat, reason="left"):
                return seat, Leave()
            case SeatRejoined(seat=seat):
                return seat, Rejoin()
            case SeatResigned(seat=seat):
                return seat, Resign()
            case SeatCalled(seat=seat, caller=caller):
                return caller, Call(seat)
            case CallRanOut(seat=seat, call=number):
                return None, CallRunOut(seat, number)
            case TableSet() | ClockSet() | SeatLeft() | CallAnswered():
                return None
        return self.inner.cause(event)

    def timers(self, state: SeatedState[Any]) -> list[Timer]:
        table = state.table
        clock, number = table.clock, table.clocks
        if clock is None and table.called is None:
            return list(self.inner.timers(state.game))
        timers = list(self.inner.timers(state.game))
        if self.inner.is_over(state.game):
            return timers
        if clock is not None:
            timers.append(Timer(f"clock-{number}", clock.due, TimeOut(clock.seat, number)))
        called = resigning.active(state)
        if called is not None:
            command = CallRunOut(called.seat, called.call)
            timers.append(Timer(f"call-{called.call}", called.due, command))
        return timers

    def ai_key(self, state: SeatedState[Any], seat: int, version: int) -> str:
        return self.inner.ai_key(state.game, seat, version)

    def ai_delay(self, state: SeatedState[Any], seat: int, level: str) -> float | None:
        return self.inner.ai_delay(state.game, seat, level)

    def abandon(self) -> Abandon | None:
        """`Abandon`, if the game says how it ends abandoned (`Game.abandoned`)."""
        return Abandon() if type(self.inner).abandoned is not Game.abandoned else None


def seated(game: AnyGame) -> Seated:
    """`game` at a table."""
    return game if isinstance(game, Seated) else Seated(game)


def _strike(table: Seating, seat: int, count: int) -> tuple[int, ...]:
    """Each seat's timeouts in a row, with `seat`'s set to `count`."""
    size = max(len(table.strikes), seat + 1)
    strikes = list(table.strikes) + [0] * (size - len(table.strikes))
    strikes[seat] = count
    return tuple(strikes)


def _same_strikes(one: tuple[int, ...], other: tuple[int, ...]) -> bool:
    """Whether two tuples of strikes say the same (a seat beyond a tuple's end has none)."""
    size = max(len(one), len(other))
    return one + (0,) * (size - len(one)) == other + (0,) * (size - len(other))


def _entropy(clock: int, seat: int, step: int = 0) -> int:
    """The fallback's entropy for the `step`-th command of its turn: fixed by the clock, so
    that a replay decides alike."""
    return (clock * 2_654_435_761 + seat * 40_503 + step * 2_246_822_519) % 2**32


def _table_after(table: Seating, event: Any) -> Seating:
    if type(event) is ClockSet:  # the commonest, first and without a pattern
        if event.kept:  # the running clock goes on: same seat, same due, same number
            return replace(table, strikes=event.strikes)
        seat, due = event.seat, event.due
        clock = None if seat is None or due is None else Clock(seat, due)
        return replace(table, clock=clock, clocks=table.clocks + 1, strikes=event.strikes)
    match event:
        case TableSet(turn_seconds=seconds, timeouts_to_ai=limit, takeover_level=level):
            return replace(
                table,
                turn_seconds=seconds,
                timeouts_to_ai=limit,
                takeover_level=level,
                ai_seats=event.ai_seats,
                clock_per=event.clock_per,
                fallback=event.fallback,
            )
        case ClockSet(strikes=strikes, kept=True):
            return replace(table, strikes=strikes)
        case ClockSet(seat=seat, due=due, strikes=strikes):
            clock = None if seat is None or due is None else Clock(seat, due)
            return replace(table, clock=clock, clocks=table.clocks + 1, strikes=strikes)
        case TimedOut(seat=seat, strike=strike) if seat >= 0:
            return replace(table, strikes=_strike(table, seat, strike))
        case SeatLeft(seat=seat, level=level, reason=reason):
            return _left(table, Away(seat, level, reason))
        case SeatRejoined(seat=seat):
            return replace(table, away=tuple(a for a in table.away if a.seat != seat))
        case SeatResigned(seat=seat, level=level):
            resigned = replace(table, resigned=(*table.resigned, seat))
            return resigned if level is None else _away(resigned, Away(seat, level, "resigned"))
        case SeatCalled(seat=seat, caller=caller, due=due, call=number):
            return replace(table, called=Called(seat, caller, due, number), calls=number)
        case CallAnswered() | CallRanOut():
            return replace(table, called=None)
    return table


def _away(table: Seating, away: Away) -> Seating:
    """`table` with `away`'s seat played by the AI (and no call running on it)."""
    seats = [a for a in table.away if a.seat != away.seat] + [away]
    called = table.called if table.called is None or table.called.seat != away.seat else None
    return replace(table, away=tuple(sorted(seats, key=lambda a: a.seat)), called=called)


def _left(table: Seating, away: Away) -> Seating:
    """`_away`, one more time the seat went to the AI counted."""
    seat = away.seat
    size = max(len(table.leaves), seat + 1)
    leaves = list(table.leaves) + [0] * (size - len(table.leaves))
    leaves[seat] += 1
    return replace(_away(table, away), leaves=tuple(leaves))


def _is_table_event(event: Any) -> bool:
    """`isinstance(event, _TABLE_EVENTS)`, asked once per type of event."""
    kind = type(event)
    known = _IS_TABLE_EVENT.get(kind)
    if known is None:
        known = _IS_TABLE_EVENT[kind] = isinstance(event, _TABLE_EVENTS)
    return known


def _table_command(command: Any) -> type | None:
    """The table's command class `command` is an instance of (one of `_TABLE_COMMANDS`), or
    None for a command of the game: `isinstance` asked once per type of command."""
    kind = type(command)
    if kind in _TABLE_COMMAND:
        return _TABLE_COMMAND[kind]
    found = next((c for c in _TABLE_COMMANDS if isinstance(command, c)), None)
    _TABLE_COMMAND[kind] = found
    return found
