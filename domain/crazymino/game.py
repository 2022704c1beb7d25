"""Crazymino behind the common game interface."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import ClassVar

from domain.crazymino import ai, hard, rules, views, words
from domain.crazymino.board import groups, score
from domain.crazymino.fits import packed
from domain.crazymino.geometry import ROTATIONS, ROW_COL
from domain.crazymino.model import (
    VERSIONS,
    Command,
    DrawAndPass,
    Event,
    GameEnded,
    GameStarted,
    PlaceTile,
    Score,
    State,
    TileDrawn,
    TilePlaced,
)
from domain.crazymino.views import CrazyminoView
from domain.game import Abandon, Game, Policy, Setup, Shape
from domain.memo import Described
from domain.seating.model import ClockedTableOptions


class _Commands(dict[int, PlaceTile]):
    """The `PlaceTile` of each packed placing (`turn << 8 | cell`), made once: a frozen value,
    so one object serves every `legal` that lists it. At most `COMMANDS` are kept (there are
    480 turns × 196 cells); beyond that the memo starts afresh."""

    def __missing__(self, f: int) -> PlaceTile:
        if len(self) >= COMMANDS:
            self.clear()
        command = self[f] = PlaceTile(f >> 10, ROTATIONS[f >> 8 & 3], *ROW_COL[f & 0xFF])
        return command


COMMANDS = 32_768
_PLACE_TILE = _Commands()

#: `to_act` of each seat (frozen: one object serves every answer).
_SEAT = {seat: frozenset((seat,)) for seat in range(rules.MAX_SEATS)}
_NOBODY: frozenset[int] = frozenset()

#: How many events `Crazymino.describe` remembers the words of, by the identity of the event
#: (a frozen value, kept alive by the memo so that its identity is not reused meanwhile) and the
#: names it was given; beyond that the memo starts afresh.
DESCRIBED = 64
_DESCRIBED = Described(DESCRIBED)


class Crazymino(Game[State, Command, Event, CrazyminoView, ClockedTableOptions]):
    """The rules of Crazymino behind the common game interface. Time plays no part in them."""

    name = "crazymino"
    title = "Crazymino"
    min_seats = rules.MIN_SEATS
    max_seats = rules.MAX_SEATS
    shape = Shape(turns="sequential", chance_in_play=False, hidden_information=True)
    command_type = Command
    event_type = Event
    view_type = CrazyminoView
    options_type = ClockedTableOptions  # the table's options: no option of its own
    hint_type = Score | None
    policies: ClassVar[dict[str, Policy]] = {
        "easy": ai.random_legal,
        "normal": ai.best,
        "hard": hard.hard,
    }
    versions = VERSIONS
    started = GameStarted

    def initial(self) -> State:
        return State()

    def start(self, setup: Setup, now: int = 0) -> list[Event]:
        self.options(setup)
        return rules.start(setup)

    def decide(self, state: State, seat: int | None, command: Command, now: int = 0) -> list[Event]:
        return rules.decide(state, seat, command)

    def evolve(self, state: State, event: Event) -> State:
        return rules.evolve(state, event)

    def fold(self, state: State, events: Iterable[Event]) -> State:
        """As `Game.fold`; the events `decide` has just made on this very state are not folded
        again: `decide` worked out the state they lead to (`rules.folded`)."""
        if isinstance(events, (list, tuple)) and events:
            known = rules.folded(state, events)
            if known is not None:
                return known
        for event in events:
            state = rules.evolve(state, event)
        return state

    def to_act(self, state: State) -> frozenset[int]:
        seat = state.seat_to_play
        return _NOBODY if seat is None else _SEAT.get(seat) or frozenset((seat,))

    def is_over(self, state: State) -> bool:
        return state.ended is not None

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def legal(self, state: State, seat: int, now: int = 0) -> list[Command]:
        if seat != state.seat_to_play:
            return []
        commands: list[Command] = list(
            map(_PLACE_TILE.__getitem__, packed(state.cells, state.points, state.hands[seat]))
        )
        if state.pile:
            commands.append(DrawAndPass())
        return commands

    def least(self, state: State, seat: int, now: int = 0) -> Command:
        """A timed-out seat draws and passes; with the pile empty, it lays the tile that scores
        least (the first such in `legal`'s order)."""
        if state.pile:
            return DrawAndPass()
        commands = self.legal(state, seat, now)
        scores = self.hints(state, seat, commands)
        return min(
            zip(commands, scores, strict=True),
            key=lambda pair: pair[1].total if pair[1] is not None else 0,
        )[0]

    def hints(self, state: State, seat: int, commands: Sequence[Command]) -> list[Score | None]:
        """The score breakdown each placement would get; None for other commands."""
        labels = groups(state.cells)
        return [
            score(state.cells, state.points, c.tile, c.row * 14 + c.col, labels)
            if isinstance(c, PlaceTile)
            else None
            for c in commands
        ]

    def describe(self, event: Event, names: Sequence[str]) -> str:
        """`words.describe`, remembered for the last events described: the service describes
        each event of a command once for every seat that sees it, most often the same object."""
        return _DESCRIBED.words(event, names, words.describe)

    def view(self, state: State, viewer: int | None) -> CrazyminoView:
        return views.view(state, viewer)

    def full_view(self, state: State) -> CrazyminoView:
        return views.view(state, None, everything=True)

    def redact(self, event: Event, viewer: int | None) -> Event:
        return views.redact(event, viewer)

    def abandoned(self, state: State) -> list[Event]:
        return [GameEnded(reason="abandoned")]

    def cause(self, event: Event) -> tuple[int | None, Command | Abandon] | None:
        if isinstance(event, GameEnded) and event.reason == "abandoned":
            return None, Abandon()
        if isinstance(event, TilePlaced):
            return event.seat, PlaceTile(event.tile, event.rotation, event.row, event.col)
        if isinstance(event, TileDrawn) and not event.automatic:
            return event.seat, DrawAndPass()
        return None


CRAZYMINO = Crazymino()
