"""Bazaar behind the common game interface."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from domain.bazaar import ai, moves, planner, rules, views, words
from domain.bazaar.model import (
    VERSIONS,
    Buy,
    ChooseColour,
    ColourChosen,
    Command,
    Draw,
    Drawn,
    EndTurn,
    Event,
    GameEnded,
    GameStarted,
    Price,
    State,
    Trade,
    Traded,
    TurnEnded,
    WareBought,
)
from domain.bazaar.stones import COLOURS
from domain.bazaar.views import BazaarView
from domain.bazaar.wares import WARE_STONES
from domain.game import Abandon, Game, Policy, Setup, Shape
from domain.seating.model import ClockedTableOptions


class Bazaar(Game[State, Command, Event, BazaarView, ClockedTableOptions]):
    """The rules of Bazaar behind the common game interface. Time plays no part in them."""

    name = "bazaar"
    title = "Bazaar"
    min_seats = rules.MIN_SEATS
    max_seats = rules.MAX_SEATS
    shape = Shape(turns="sequential", chance_in_play=True, hidden_information=True)
    command_type = Command
    event_type = Event
    view_type = BazaarView
    options_type = ClockedTableOptions  # the table's options: no option of its own
    hint_type = Price | None
    policies: ClassVar[dict[str, Policy]] = {
        "easy": ai.random_legal,
        "normal": ai.greedy,
        "hard": planner.plan,
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

    def to_act(self, state: State) -> frozenset[int]:
        seat = state.seat_to_play
        return frozenset() if seat is None else frozenset((seat,))

    def turn_key(self, state: State) -> int:
        """The turns played so far: a turn of several commands runs one clock at a table."""
        return state.turns

    def is_over(self, state: State) -> bool:
        return state.ended is not None

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def legal(self, state: State, seat: int, now: int = 0) -> list[Command]:
        if seat != state.seat_to_play:
            return []
        tops = tuple(WARE_STONES[stall[0]] if stall else None for stall in state.stalls)
        return moves.legal(state.phase, state.carpets[seat], state.cards, tops)

    def least(self, state: State, seat: int, now: int = 0) -> Command:
        """A timed-out seat draws a stone (never trades), takes the first colour for a joker,
        and ends its turn without buying."""
        if state.phase == "draw_or_trade":
            return Draw()
        if state.phase == "choose_colour":
            return ChooseColour(COLOURS[0])
        return EndTurn()

    def hints(self, state: State, seat: int, commands: Sequence[Command]) -> list[Price | None]:
        """The price each purchase would score (as the view's offers); None for the others."""
        hints: list[Price | None] = []
        for command in commands:
            stall: tuple[int, ...] = ()
            if isinstance(command, Buy) and 0 <= command.stall < len(state.stalls):
                stall = state.stalls[command.stall]
            hints.append(views.offer(state, seat, stall[0]).price if stall else None)
        return hints

    def describe(self, event: Event, names: Sequence[str]) -> str:
        return words.describe(event, names)

    def abandoned(self, state: State) -> list[Event]:
        return [rules.ended(state.scores, "abandoned")]

    def view(self, state: State, viewer: int | None) -> BazaarView:
        return views.view(state, viewer)

    def redact(self, event: Event, viewer: int | None) -> Event:
        return views.redact(event, viewer)

    def cause(self, event: Event) -> tuple[int | None, Command | Abandon] | None:
        match event:
            case GameEnded(reason="abandoned"):
                return None, Abandon()
            case Drawn(seat=seat):
                return seat, Draw()
            case ColourChosen(seat=seat, stone=colour):
                return seat, ChooseColour(colour)
            case Traded(seat=seat, equation=equation, direction=direction):
                return seat, Trade(equation, direction)
            case WareBought(seat=seat, stall=stall):
                return seat, Buy(stall)
            case TurnEnded(seat=seat):
                return seat, EndTurn()
        return None


BAZAAR = Bazaar()
