"""The interface every game implements, and the registry that names the games.

A game is a decider: `start` turns a setup into the first events, `decide` turns a seat's
command into events (or raises a `RuleError`), and `evolve` folds one event into the state
without ever failing. Views project the state for one seat or for a spectator.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Mapping
from typing import Any, ClassVar, Generic, TypeVar

import msgspec

S = TypeVar("S")  # state
C = TypeVar("C")  # command union
E = TypeVar("E")  # event union
V = TypeVar("V")  # a viewer's projection

#: A seat number (0-based) or None for a spectator or for the system (timers).
Viewer = int | None


class Setup(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    """What creates a game: who sits where, the options, and the seed of all its chance."""

    seed: int
    players: tuple[str, ...]
    options: dict[str, Any] = {}


class Standing(msgspec.Struct, frozen=True):
    """One seat's place in the ranking: equal scores share a rank."""

    seat: int
    score: int
    rank: int


class Timer(msgspec.Struct, frozen=True):
    """Machine work a state asks for: send `command` as the system after `seconds`."""

    key: str
    seconds: float
    command: Any


#: An AI policy: the seat's own view and a number of entropy chosen outside the domain.
Policy = Callable[[Any, int], Any]


def rank(scores: Iterable[int]) -> list[Standing]:
    """Standings by score, highest first; equal scores share a rank (1, 1, 3...)."""
    ordered = sorted(enumerate(scores), key=lambda pair: (-pair[1], pair[0]))
    standings: list[Standing] = []
    for place, (seat, score) in enumerate(ordered):
        shared = standings and standings[-1].score == score
        standings.append(Standing(seat, score, standings[-1].rank if shared else place + 1))
    return standings


class Game(ABC, Generic[S, C, E, V]):
    """A game's rules: a pure decider plus its views. Subclasses hold no mutable state."""

    name: str
    min_seats: int
    max_seats: int
    command_type: Any  # the tagged union of commands, for decoding at the edge
    event_type: Any  # the tagged union of events
    policies: ClassVar[Mapping[str, Policy]] = {}

    @abstractmethod
    def initial(self) -> S:
        """The state before the first event."""

    @abstractmethod
    def start(self, setup: Setup) -> list[E]:
        """The first events of a new game; raises `SetupError` for an impossible setup."""

    @abstractmethod
    def decide(self, state: S, seat: Viewer, command: C) -> list[E]:
        """The events a command produces; raises a `RuleError` when the rules forbid it."""

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
    def legal(self, state: S, seat: int) -> list[C]:
        """Every command the seat may send now, each complete and ready to send."""

    @abstractmethod
    def view(self, state: S, viewer: Viewer) -> V:
        """What a seat (or a spectator, `None`) may see of the state."""

    @abstractmethod
    def redact(self, event: E, viewer: Viewer) -> E:
        """An event as a viewer may see it while the game runs."""

    @abstractmethod
    def cause(self, event: E) -> tuple[Viewer, C] | None:
        """The seat and command behind an event that opens a command's events, else None."""

    def timers(self, state: S) -> list[Timer]:
        """Machine work the state asks for (round clocks); none by default."""
        return []

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
