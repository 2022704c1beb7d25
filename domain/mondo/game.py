"""Mondo behind the common game interface: simultaneous, timed, with chance in every round."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from domain.game import Abandon, Game, Policy, Setup, Shape, Timer
from domain.mondo import ai, rules, views, words
from domain.mondo.evolve import evolve
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
from domain.mondo.options import MondoOptions
from domain.mondo.views import MondoView


class Mondo(Game[State, Command, Event, MondoView, MondoOptions]):
    """Michael Schacht's Mondo as played online: everyone builds their own world board at once
    from one shared display, against a round clock kept by the server; three rounds."""

    name = "mondo"
    title = "Mondo"
    min_seats = rules.MIN_SEATS
    max_seats = rules.MAX_SEATS
    # Everything on the table is public; only the seed (the faces, special scorings and tasks
    # of the rounds to come) is hidden.
    shape = Shape(turns="simultaneous", chance_in_play=True, hidden_information=True, timed=True)
    command_type = Command
    event_type = Event
    view_type = MondoView
    options_type = MondoOptions
    policies: ClassVar[dict[str, Policy]] = ai.POLICIES
    versions = VERSIONS
    started = GameStarted

    def initial(self) -> State:
        return State()

    def start(self, setup: Setup, now: int) -> list[Event]:
        return rules.start(setup, self.options(setup), now)

    def decide(self, state: State, seat: int | None, command: Command, now: int) -> list[Event]:
        return rules.decide(state, seat, command, now)

    def evolve(self, state: State, event: Event) -> State:
        return evolve(state, event)

    def to_act(self, state: State) -> frozenset[int]:
        if state.over or not state.running:
            return frozenset()
        return frozenset(s for s, p in enumerate(state.seats) if not p.left)

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return state.totals

    def legal(self, state: State, seat: int, now: int) -> list[Command]:
        return rules.legal(state, seat, now)

    def view(self, state: State, viewer: int | None) -> MondoView:
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: int | None) -> Event:
        return views.redact(event, viewer)

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return words.describe(event, names)

    def leave(self, state: State, seat: int, now: int) -> list[Event]:
        return rules.leave(state, seat, now)

    def abandoned(self, state: State) -> list[Event]:
        return [GameEnded(state.totals, abandoned=True)]

    def cause(self, event: Event) -> tuple[int | None, Command | Abandon] | None:
        match event:
            case TileTaken(seat=seat, tile=tile):
                return seat, TakeTile(tile)
            case TileReturned(seat=seat, tile=tile):
                return seat, ReturnTile(tile)
            case TilePlaced(seat=seat, tile=tile, space=space, face=face, rotation=rotation):
                return seat, PlaceTile(tile, space, face, rotation)
            case PlacedTurned(seat=seat, rotation=rotation):
                return seat, TurnPlaced(rotation)
            case PlacedLifted(seat=seat):
                return seat, LiftPlaced()
            case BonusTaken(seat=seat, full_board=False, lowest=False):
                return seat, TakeBonus()
            case TaskTaken(seat=seat, task=task):
                return seat, TakeTask(task)
            case RoundEnded(round=number, timed_out=True):
                return None, EndRound(number)
            case RoundStarted(round=number) if number > 1:
                return None, StartRound(number)
            case GameEnded(abandoned=True):
                return None, Abandon()
        return None

    def timers(self, state: State) -> list[Timer]:
        """The round's clock while it runs; the break's end between rounds."""
        if state.over or not state.round:
            return []
        if state.running:
            return [Timer(f"round-{state.round}", state.deadline, EndRound(state.round))]
        due = state.ended_at + state.break_ms
        return [Timer(f"break-{state.round}", due, StartRound(state.round + 1))]

    def ai_key(self, state: State, seat: int, version: int) -> str:
        """The seat's own progress: its round and its commands in it."""
        return f"{state.round}-{state.seats[seat].moves}"

    def ai_delay(self, state: State, seat: int, level: str) -> float | None:
        return ai.PACE.get(level)


MONDO = Mondo()
