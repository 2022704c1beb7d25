"""A game as the service has loaded it (`Table`), the entries of its log as handed out, what a
command brought (`Outcome`), and the server's clock."""

from __future__ import annotations

import time
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple, Protocol

from app.commands.commitment import Deal
from app.commands.seats import Seat
from app.commands.setup import casual
from domain.game import AnyGame


def wall_ms() -> int:
    """The server's time in ms since the epoch."""
    return time.time_ns() // 1_000_000


class Entry(NamedTuple):
    """One event of a game's log as the service hands it out (not yet redacted)."""

    version: int
    at: int
    by: int | None
    event: Any


class Stamped(Protocol):
    """What names an event's place in its log: a stored event or an `Entry`."""

    @property
    def version(self) -> int: ...
    @property
    def at(self) -> int: ...
    @property
    def by(self) -> int | None: ...


class Mark(NamedTuple):
    """Where a seat stands of its own in a game where seats act at once: the version and time
    of the last event caused by the seat itself or by the system (a round's start)."""

    version: int
    at: int


class Table(NamedTuple):
    """A game as loaded: its rules, seats, state, version and the time of its last event,
    where seats act at once each seat's `Mark` (empty for turn-based games), the seed when its
    creator chose it (public, then: None while the service's own seed is secret), and the
    service's own seed with its commitment (`deal`: shown in full only once the game is over)."""

    id: str
    game: AnyGame
    seats: list[Seat]
    state: Any
    version: int
    at: int
    marks: tuple[Mark, ...] = ()
    seed: int | None = None
    deal: Deal | None = None

    @property
    def casual(self) -> bool:
        """Whether the game counts for nothing: its seed was chosen, or an AI sits at it."""
        return casual(self.seed is not None, (s.type for s in self.seats))

    @property
    def over(self) -> bool:
        return bool(self.game.is_over(self.state))

    def followed(self, state: Any, records: Sequence[Stamped]) -> Table:
        """The table once `records` (the events that led from its state to `state`) are in."""
        last = records[-1]
        marks = marked(self, ((r.version, r.at, r.by) for r in records))
        return self._replace(state=state, version=last.version, at=last.at, marks=marks)

    def since(self, seat: int) -> int:
        """When the seat's present decision began (ms): where seats act at once, its own last
        action or the system's last event; else the table's last event."""
        return self.marks[seat].at if self.marks else self.at

    def stale(self, seat: int | None, expected: int) -> bool:
        """Whether a command sent by `seat` when the game was at version `expected` is stale.
        In a turn-based game any event since makes it stale. Where seats act at once, only an
        event of the seat itself or of the system does (another seat's tile taken elsewhere
        changes nothing the command depends on; the rules judge the rest)."""
        if expected == self.version:
            return False
        if seat is None or not self.marks or expected > self.version:
            return True
        return self.marks[seat].version > expected

    def ai_level(self, seat: int) -> str | None:
        """The AI level that plays `seat` now: an AI seat's, or the table's for a player who
        has left; None while a person plays it."""
        chosen = self.seats[seat]
        if chosen.type == "ai":
            return chosen.level or "normal"
        return self.game.away(self.state).get(seat)


class Outcome(NamedTuple):
    version: int
    entries: list[Entry]
    replayed: bool


def marked(table: Table, moves: Iterable[tuple[int, int, int | None]]) -> tuple[Mark, ...]:
    """Each seat's `Mark` after `moves` (version, time, cause), where seats act at once."""
    if table.game.shape.turns != "simultaneous":
        return ()
    marks = list(table.marks) or [Mark(table.version, table.at)] * len(table.seats)
    for version, at, by in moves:
        if by is None:
            marks = [Mark(version, at)] * len(marks)
        elif 0 <= by < len(marks):
            marks[by] = Mark(version, at)
    return tuple(marks)
