"""The interface every game implements.

A game is a decider: `start` turns a setup into the first events, `decide` turns a seat's
command into events (or raises a `RuleError`), and `evolve` folds one event into the state
without ever failing. Views project the state for one seat or for a spectator. Time is an
input: the service passes the server's time (`now`, milliseconds since the Unix epoch) to
`start` and `decide`; the domain never reads a clock.

A game also declares its shape (how it is played), its options (a typed Struct with defaults),
its AI levels, and the machine work a state asks for (timers), so that the service and the
clients treat every game alike.
"""

from __future__ import annotations

import re
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, Literal, TypeVar

import msgspec

from domain.errors import OptionError
from domain.option_words import option_field

if TYPE_CHECKING:
    from domain.versions import Versions

S = TypeVar("S")  # state
C = TypeVar("C")  # command union
E = TypeVar("E")  # event union
V = TypeVar("V")  # a viewer's projection
O = TypeVar("O", bound=msgspec.Struct)  # noqa: E741  options

#: A seat number (0-based) or None for a spectator or for the system (timers).
Viewer = int | None


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What creates a game: who sits where, the options as asked, and the seed of its chance."""

    seed: int
    players: tuple[str, ...]
    options: dict[str, Any] = {}
    #: The seats the AI plays from the start (people sit at the others).
    ai_seats: tuple[int, ...] = ()


class Shape(msgspec.Struct, frozen=True):
    """How a game is played, for the service and clients to treat it generically."""

    #: `sequential`: one seat acts at a time; `simultaneous`: several seats act at once.
    turns: Literal["sequential", "simultaneous"]
    #: Whether chance decides outcomes after the setup (draws from a bag, a dealt display).
    chance_in_play: bool
    #: Whether some of the state is hidden from some viewers while the game runs.
    hidden_information: bool
    #: Whether the game runs against server clocks (timers).
    timed: bool = False


class NoOptions(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The options of a game that has none."""


class CommandStruct(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """The base of every command (imperative: `TakeTile`): frozen, and decoded strictly at
    the edge, an unknown field refused. Each command names its own tag."""


class EventStruct(msgspec.Struct, frozen=True):
    """The base of every event (past tense: `TileTaken`): frozen; a stored event never changes
    shape (a new field gets a default, nothing is renamed). Each event names its own tag."""


class Abandon(CommandStruct, frozen=True, tag="abandon"):
    """The system ends a game that nobody has played for a long time. One command for every
    game: the table around it (`domain.seating`) takes it and asks the game's `abandoned`."""


class Record(msgspec.Struct, Generic[E], frozen=True, forbid_unknown_fields=True):
    """A stored event: when it was appended (server time, ms since the epoch), who caused it
    (a seat, or None for the system: the setup, a timer), and the event itself."""

    at: int
    by: int | None
    event: E


class Standing(msgspec.Struct, frozen=True):
    """One seat's place in the ranking: equal scores share a rank."""

    seat: int
    score: int
    rank: int


class Timer(msgspec.Struct, frozen=True):
    """Machine work a state asks for: send `command` as the system once the server's time
    reaches `due` (ms since the epoch). `key` names this timer uniquely within its game for
    its whole life (for example ``round-2``): a timer whose key the state no longer asks for
    is stale and does nothing."""

    key: str
    due: int
    command: Any


#: An AI policy: the seat's own view, a number of entropy drawn outside the domain, and the
#: server's time (ms). It returns one command of the seat.
Policy = Callable[[Any, int, int], Any]


def rank(scores: Iterable[int]) -> list[Standing]:
    """Standings by score, highest first; equal scores share a rank (1, 1, 3...)."""
    ordered = sorted(enumerate(scores), key=lambda pair: (-pair[1], pair[0]))
    standings: list[Standing] = []
    for place, (seat, score) in enumerate(ordered):
        shared = standings and standings[-1].score == score
        standings.append(Standing(seat, score, standings[-1].rank if shared else place + 1))
    return standings


_UNKNOWN_FIELD = re.compile(r"unknown field `([^`]+)`")
_AT_PATH = re.compile(r"at `\$\.([A-Za-z0-9_]+)")


def parse_options(options_type: type[O], raw: Mapping[str, Any]) -> O:
    """Typed options from the setup's raw ones; `OptionError` names the first bad option."""
    try:
        return msgspec.convert(dict(raw), type=options_type)
    except msgspec.ValidationError as error:
        text = str(error)
        found = _UNKNOWN_FIELD.search(text) or _AT_PATH.search(text)
        name = found.group(1) if found else "options"
        if _UNKNOWN_FIELD.search(text):
            message = f"There is no option {name!r} in this game."
            raise OptionError(name, message, known=False) from error
        field = option_field(options_type, name)
        if field is None:
            reason = text.split(" - at ")[0].replace("`", "")
            raise OptionError(name, f"Option {name!r}: {reason}.") from error
        raise OptionError(name, field.refusal()) from error


class Game(ABC, Generic[S, C, E, V, O]):
    """A game's rules: a pure decider plus its views. Subclasses hold no mutable state."""

    name: str
    title: str
    min_seats: int
    max_seats: int
    shape: Shape
    command_type: Any  # the tagged union of commands, for decoding at the edge
    event_type: Any  # the tagged union of events
    view_type: Any  # what `view` returns, for the schema
    options_type: type[O]
    hint_type: Any = None  # what `hints` gives for one command, for the schema
    seating_type: Any = None  # what `seating` gives, for the schema
    policies: ClassVar[Mapping[str, Policy]] = {}
    #: The title's rules versions, named by its `started` event (`domain.versions`), if any.
    versions: ClassVar[Versions | None] = None
    started: ClassVar[type | None] = None

    def options(self, setup: Setup) -> O:
        """The setup's options, typed, with defaults filled in; `OptionError` when one is bad."""
        return parse_options(self.options_type, setup.options)

    @abstractmethod
    def initial(self) -> S:
        """The state before the first event."""

    @abstractmethod
    def start(self, setup: Setup, now: int) -> list[E]:
        """The first events of a new game; raises `SetupError` for an impossible setup."""

    @abstractmethod
    def decide(self, state: S, seat: Viewer, command: C, now: int) -> list[E]:
        """The events a command produces at server time `now`; raises a `RuleError` when the
        rules forbid it. A command of the system (`seat` None) that has nothing left to do
        (a round ended twice) returns no event."""

    @abstractmethod
    def evolve(self, state: S, event: E) -> S:
        """The state after one event. Never validates, never raises."""

    @abstractmethod
    def to_act(self, state: S) -> frozenset[int]:
        """The seats that may act now (empty once the game is over)."""

    @abstractmethod
    def is_over(self, state: S) -> bool:
        """Whether the game has ended."""

    @abstractmethod
    def scores(self, state: S) -> tuple[int, ...]:
        """Each seat's score, by seat number."""

    @abstractmethod
    def legal(self, state: S, seat: int, now: int) -> list[C]:
        """Every command the seat may send at server time `now`, each complete and ready to
        send (a game against the clock allows nothing once a deadline has passed)."""

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> V:
        """What a seat (or a spectator, `None`) may see of the state."""

    def full_view(self, state: S) -> V:
        """The view that shows everything, hidden parts included: a finished game's replay.
        A game without hidden information shows a spectator's view."""
        return self.view(state, None)

    @abstractmethod
    def redact(self, event: E, viewer: Viewer) -> E:
        """An event as a viewer may see it while the game runs."""

    @abstractmethod
    def cause(self, event: E) -> tuple[Viewer, C | Abandon] | None:
        """The seat and command behind an event that opens a command's events, else None."""

    def hints(self, state: S, seat: int, commands: Sequence[C]) -> list[Any]:
        """What each of the seat's `commands` would bring, in the game's terms (the score a
        placement would get), so that a client need not work it out; None where nothing."""
        return [None] * len(commands)

    def describe(self, event: E, names: Sequence[str]) -> str:
        """The event in words, as a log shows it to people (`names` by seat). It is given the
        event as the viewer may see it, and says nothing more."""
        return type(event).__name__

    def timers(self, state: S) -> list[Timer]:
        """Machine work the state asks for (round clocks); none by default."""
        return []

    def ai_key(self, state: S, seat: int, version: int) -> str:
        """What names the seat's pending decision: an AI job made for one key does nothing once
        the key has changed. Turn-based games use the version (nobody else moves meanwhile);
        a game where seats act at once names the seat's own progress instead, so that one
        seat's move does not cancel another AI's pending turn."""
        return str(version)

    def least(self, state: S, seat: int, now: int) -> C:
        """The weakest command the rules allow `seat` now: what a table's turn clock plays for
        a seat whose time ran out, so that a timeout never helps the late player (`docs/rules/
        table.md`). By default the first legal command; a game with a turn clock says its own."""
        return self.legal(state, seat, now)[0]

    def turn_key(self, state: S) -> int | None:
        """What names the turn in play, for a table's turn clock (`domain.seating`): the clock
        runs once per turn, and a turn goes on while its key stays the same, however many
        commands it takes (a Bazaar turn: a draw, a joker's colour, a purchase). None, the
        default, for a game whose every command is a whole turn."""
        return None

    def edition(self, opening: list[E], recorded: Sequence[E]) -> list[E]:
        """The opening of `start`, as the edition of the rules a log was `recorded` under made
        it: a game whose rules changed since (a table's clock, once per command before it ran
        per turn) takes the recorded opening when it is one of an edition it still decides by,
        so that old logs still check; and so does the version of the title's rules a log names
        (`versions`)."""
        if self.versions is None or self.started is None:
            return opening
        return self.versions.edition(opening, recorded, self.started)

    def readings(self, records: Sequence[Record[E]]) -> list[list[Record[E]]]:
        """Other readings of a log that does not check as it is written: a log that names no
        rules version, read as each older version it may have been played under
        (`domain.versions`)."""
        if self.versions is None or self.started is None:
            return []
        return self.versions.readings(records, self.started)

    def leave(self, state: S, seat: int, now: int) -> list[E]:
        """What happens in the game itself when a seat's player leaves the table at `now` (in
        Mondo they take the lowest bonus chip at once); nothing by default."""
        return []

    def admit(self, state: S, seat: int, command: C) -> None:
        """Raise a `RuleError` when the person at `seat` may not send `command` though the seat
        could (a player who has left the table may only take the seat back); the AI playing
        the seat is not asked."""

    def away(self, state: S) -> Mapping[int, str]:
        """The seats whose player has left, each with the AI level that plays it meanwhile."""
        return {}

    def seating(self, state: S) -> Any:
        """What everyone sees of the table around the game (clocks, who has left), or None."""
        return None

    def abandon(self) -> Abandon | None:
        """The system's command that ends a game nobody has played for a long time, or None if
        the game has none: the table around a game (`domain.seating`) sends `Abandon` and asks
        the game's `abandoned`. Sent with seat None; from any seat it is refused."""
        return None

    def abandoned(self, state: S) -> list[E]:
        """The events that end a running game nobody has played for a long time: no winner
        is named beyond the standings as they are. The game's `cause` gives `Abandon` for the
        first of them."""
        raise NotImplementedError(f"{self.name} cannot be abandoned")

    def ai_delay(self, state: S, seat: int, level: str) -> float | None:
        """Seconds an AI seat of `level` waits before it acts in `state` (its pace in a game
        against the clock); None leaves it to the service's think time."""
        return None

    def standings(self, state: S) -> list[Standing]:
        """The ranking by score; the winners are those of rank 1."""
        return rank(self.scores(state))

    def fold(self, state: S, events: Iterable[E]) -> S:
        """The state after `evolve` has folded each event into `state`, in order."""
        for event in events:
            state = self.evolve(state, event)
        return state

    def replay(self, events: Iterable[E]) -> S:
        """The state a log rebuilds, from the initial state."""
        return self.fold(self.initial(), events)


#: A game of any kind, as the service and the tests handle them.
AnyGame = Game[Any, Any, Any, Any, Any]
