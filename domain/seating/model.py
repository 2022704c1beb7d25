"""The table's own commands, events and state, beside a game's.

Stored events never change shape: a new field gets a default, nothing is renamed.
"""

from __future__ import annotations

from typing import Annotated, Any, Generic, Literal, TypeVar

import msgspec

from domain.errors import RuleError, TurnError
from domain.game import Abandon, CommandStruct, EventStruct

S = TypeVar("S")

# -- options (a game's options Struct inherits them) ------------------------------------------

Level = Literal["easy", "normal", "hard"]


class TableOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What every table may choose: the AI level that plays for a player who has left."""

    takeover_level: Annotated[
        Level,
        msgspec.Meta(
            title="AI for a player who leaves",
            description="The AI level that plays the seat of a player who leaves the table, "
            "until they take it back.",
        ),
    ] = "normal"


class ClockedTableOptions(TableOptions, frozen=True, forbid_unknown_fields=True):
    """A turn-based game's table may also run a clock for each turn."""

    turn_seconds: (
        Annotated[
            int,
            msgspec.Meta(
                ge=5,
                le=86_400,
                title="Turn clock",
                description="How long each player has for a turn; when it runs out, the AI "
                "moves for them. Leave it empty for no clock.",
                extra_json_schema={"x-unit": "seconds"},
            ),
        ]
        | None
    ) = None
    timeouts_to_ai: Annotated[
        int,
        msgspec.Meta(
            ge=1,
            le=20,
            title="Timeouts before the AI takes over",
            description="After this many timed-out turns in a row, the AI plays the seat "
            "until its player takes it back.",
            extra_json_schema={"x-unit": "timeouts"},
        ),
    ] = 3


# -- commands ---------------------------------------------------------------------------------


class Leave(CommandStruct, frozen=True, tag="leave"):
    """Leave the table: the AI plays your seat (at the table's level) until you take it back."""


class Rejoin(CommandStruct, frozen=True, tag="rejoin"):
    """Take your seat back from the AI."""


class TimeOut(CommandStruct, frozen=True, tag="time_out"):
    """The system's command when a turn's clock `clock` has run out for `seat`."""

    seat: int
    clock: int


class Resign(CommandStruct, frozen=True, tag="resign"):
    """Resign the game: your seat counts last; the AI plays it on, or the game ends when
    fewer than two seats are left in it (`domain.seating.resigning`)."""


class Call(CommandStruct, frozen=True, tag="call"):
    """Call `seat`, whose turn it is and whose player seems gone: unless it moves within
    `CALL_SECONDS`, the AI takes the seat (on a table without a turn clock)."""

    seat: int


class CallRunOut(CommandStruct, frozen=True, tag="call_run_out"):
    """The system's command when the call number `call` on `seat` has run out."""

    seat: int
    call: int


TableCommand = Leave | Rejoin | TimeOut | Abandon | Resign | Call | CallRunOut

# -- events -----------------------------------------------------------------------------------


#: How a table's clock runs: once per `turn` (however many commands the turn takes), or once
#: per `command` of the game, as the tables set before `TableSet.clock_per` did.
ClockPer = Literal["command", "turn"]


#: What the clock plays for a seat whose time ran out: the `least` move the rules allow (every
#: table set today), or the `normal` AI's move, as tables set before `TableSet.fallback` did.
Fallback = Literal["normal", "least"]


class TableSet(EventStruct, frozen=True, tag="table_set"):
    """The table's rules, when the setup chose any: the turn clock, how many timeouts in a row
    hand a seat to the AI, the AI level that takes over, and the seats the AI plays from the
    start (no clock runs for them).

    `clock_per`: `turn` on every table set today; `command` (the default) on those set before,
    whose clock restarted at each command of a turn, so that their logs still check.
    `fallback`: `least` on every table set today; `normal` (the default) on those set before,
    whose timed-out seats were played by the normal AI."""

    turn_seconds: int | None
    timeouts_to_ai: int
    takeover_level: str
    ai_seats: tuple[int, ...] = ()
    clock_per: ClockPer = "command"
    fallback: Fallback = "normal"


class ClockSet(EventStruct, frozen=True, tag="clock_set"):
    """The turn clock now runs for `seat` until `due` (ms since the epoch); `seat` None: for
    nobody (an AI's turn). `strikes`: each seat's timeouts in a row.

    `kept`: the running clock goes on, the same seat's turn with the same due (and the same
    number); only the strikes changed (a move of the person's own ended their run)."""

    seat: int | None
    due: int | None
    strikes: tuple[int, ...]
    kept: bool = False


class TimedOut(EventStruct, frozen=True, tag="timed_out"):
    """A seat's clock `clock` ran out: the normal AI's move, which follows, was played for it.
    `strike`: its timeouts in a row, this one included."""

    seat: int
    clock: int
    strike: int


#: Why a seat's player is away: they left, ran out of time too often, did not answer a call
#: of the others, or resigned.
AwayReason = Literal["left", "timeouts", "called", "resigned"]


class SeatLeft(EventStruct, frozen=True, tag="seat_left"):
    """A seat's player left (`left`), ran out of time too often (`timeouts`) or did not answer
    a call (`called`); the AI of `level` plays the seat from now on."""

    seat: int
    level: str
    reason: AwayReason


class SeatResigned(EventStruct, frozen=True, tag="seat_resigned"):
    """A seat's player resigned: the seat counts last, and the AI of `level` plays it on
    (None: nobody, the game ends with this command)."""

    seat: int
    level: str | None


class SeatCalled(EventStruct, frozen=True, tag="seat_called"):
    """`caller` called `seat`: unless it moves before `due` (ms), the AI takes the seat.
    `call` numbers the calls of the game."""

    seat: int
    caller: int
    due: int
    call: int


class CallAnswered(EventStruct, frozen=True, tag="call_answered"):
    """The called seat moved (or its turn passed): its call is over."""

    seat: int


class CallRanOut(EventStruct, frozen=True, tag="call_ran_out"):
    """The call number `call` on `seat` ran out unanswered: the AI takes the seat."""

    seat: int
    call: int


class SeatRejoined(EventStruct, frozen=True, tag="seat_rejoined"):
    """A player took their seat back from the AI."""

    seat: int


TableEvent = (
    TableSet
    | ClockSet
    | TimedOut
    | SeatLeft
    | SeatRejoined
    | SeatResigned
    | SeatCalled
    | CallAnswered
    | CallRanOut
)

# -- state ------------------------------------------------------------------------------------


class Clock(msgspec.Struct, frozen=True):
    """A running turn clock: the seat it runs for and when it runs out (ms)."""

    seat: int
    due: int


class Away(msgspec.Struct, frozen=True):
    """A seat whose player has left, the AI level that plays it meanwhile, and why."""

    seat: int
    level: str
    reason: AwayReason = "left"


class Called(msgspec.Struct, frozen=True):
    """A call on a seat whose turn it is: the seat that called, when it runs out (ms), and its
    number."""

    seat: int
    caller: int
    due: int
    call: int


class Seating(msgspec.Struct, frozen=True):
    """The table around a game: its rules, who has left, the running clock."""

    turn_seconds: int | None = None
    timeouts_to_ai: int = 3
    takeover_level: str = "normal"
    ai_seats: tuple[int, ...] = ()
    away: tuple[Away, ...] = ()
    strikes: tuple[int, ...] = ()
    clock: Clock | None = None
    clocks: int = 0  # clocks set so far: the number of the running one
    clock_per: ClockPer = "command"
    fallback: Fallback = "normal"
    resigned: tuple[int, ...] = ()
    called: Called | None = None
    calls: int = 0  # calls made so far: the number of the last one
    leaves: tuple[int, ...] = ()  # each seat's times handed to the AI (`SeatLeft`, any reason)

    def level_away(self, seat: int) -> str | None:
        if not self.away:  # the usual case: everyone sits at the table
            return None
        return next((a.level for a in self.away if a.seat == seat), None)

    def strikes_of(self, seat: int) -> int:
        return self.strikes[seat] if 0 <= seat < len(self.strikes) else 0

    def leaves_of(self, seat: int) -> int:
        return self.leaves[seat] if 0 <= seat < len(self.leaves) else 0


class SeatedState(msgspec.Struct, Generic[S], frozen=True):
    """A game's state and its table's."""

    game: S
    table: Seating = Seating()


class TableView(msgspec.Struct, frozen=True):
    """What everyone sees of the table: its rules, who has left (and why), who resigned, the
    running clock, and the call on a seat that has not answered yet."""

    turn_seconds: int | None
    timeouts_to_ai: int
    takeover_level: str
    away: tuple[Away, ...]
    strikes: tuple[int, ...]
    clock: Clock | None
    resigned: tuple[int, ...] = ()
    called: Called | None = None


# -- errors -----------------------------------------------------------------------------------


class SeatAway(TurnError):
    """A command from a player who has left: only taking the seat back is open to them."""

    code = "seat_away"


class AlreadyLeft(TurnError):
    """Leaving a table one has left already."""

    code = "already_left"


class TooManyLeaves(TurnError):
    """Leaving a table whose seat has gone to the AI `LEAVES` times this game, or taking
    back a seat that has gone to it more often (`domain.seating.table.LEAVES`)."""

    code = "too_many_leaves"


class NotLeft(TurnError):
    """Taking back a seat one has not left."""

    code = "not_left"


class AlreadyResigned(TurnError):
    """Resigning, or taking back a seat, after resigning."""

    code = "already_resigned"


class NotCallable(TurnError):
    """Calling a seat that is not a person's whose turn it is, or on a table whose turn clock
    limits every turn already."""

    code = "not_callable"


class ClockRunning(RuleError):
    """The system's timeout before the turn's time is up."""

    code = "clock_running"


def union(*members: Any) -> Any:
    """The tagged union of `members` (each a Struct or a union of them)."""
    flat: list[Any] = []
    for member in members:
        flat.extend(getattr(member, "__args__", (member,)))
    result = flat[0]
    for member in flat[1:]:
        result = result | member
    return result
