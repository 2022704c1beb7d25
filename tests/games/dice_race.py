"""Dice race: the test suite's small game that uses everything a game can declare.

Every seat plays at once (simultaneous), against a round clock kept by a server timer (timed),
rolling a die whose outcomes are drawn during play from the game's secret seed (chance in
play), and nobody sees another seat's rolls before the round ends (hidden information).

Each round lasts `round_seconds`. A seat rolls as often as it likes: each face adds to its
round total, but a 1 busts it (its total for the round is 0 and it is done). A seat may stop
to bank its total. The round ends when every seat is done, or when its timer fires (totals not
banked are lost). After `rounds` rounds the highest sum of banked totals wins.

It plugs into the service as any game does: ``EXTRA_GAMES=tests.games.dice_race:DICE_RACE``.
"""

from __future__ import annotations

from typing import Annotated, ClassVar

import msgspec
from msgspec.structs import replace

from domain.chance import at_step
from domain.errors import GameOverError, RuleError, TurnError
from domain.game import Abandon, CommandStruct, EventStruct, Game, Policy, Setup, Shape, Timer


class Options(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    round_seconds: Annotated[
        float, msgspec.Meta(ge=0.5, le=600, description="length of a round")
    ] = 5
    rounds: Annotated[int, msgspec.Meta(ge=1, le=5, description="rounds in a game")] = 2


# -- commands ---------------------------------------------------------------------------------


class Roll(CommandStruct, frozen=True, tag="roll"):
    """Roll the die."""


class Stop(CommandStruct, frozen=True, tag="stop"):
    """Bank your round total and sit out the rest of the round."""


class EndRound(CommandStruct, frozen=True, tag="end_round"):
    """The system's command when a round's clock runs out."""

    round: int


Command = Roll | Stop | EndRound

# -- events -----------------------------------------------------------------------------------


class RaceStarted(EventStruct, frozen=True, tag="race_started"):
    players: tuple[str, ...]
    seed: int | None  # hidden until the game is over
    round_ms: int
    rounds: int


class RoundStarted(EventStruct, frozen=True, tag="round_started"):
    round: int
    deadline: int


class Rolled(EventStruct, frozen=True, tag="rolled"):
    seat: int
    face: int | None  # hidden from the other seats until the round ends


class Stopped(EventStruct, frozen=True, tag="stopped"):
    seat: int


class RoundEnded(EventStruct, frozen=True, tag="round_ended"):
    round: int
    banked: tuple[int, ...]
    timed_out: bool


class RaceEnded(EventStruct, frozen=True, tag="race_ended"):
    scores: tuple[int, ...]
    abandoned: bool = False


Event = RaceStarted | RoundStarted | Rolled | Stopped | RoundEnded | RaceEnded


class State(msgspec.Struct, frozen=True):
    players: tuple[str, ...] = ()
    seed: int = 0
    round_ms: int = 0
    rounds: int = 0
    round: int = 0
    deadline: int = 0
    rolls: int = 0  # every roll of the game, the chance step of the next one
    totals: tuple[int, ...] = ()
    moves: tuple[int, ...] = ()  # each seat's commands this round
    done: tuple[bool, ...] = ()
    scores: tuple[int, ...] = ()
    over: bool = False


class SeatView(msgspec.Struct, frozen=True):
    seat: int
    name: str
    score: int
    done: bool
    total: int | None  # the viewer's own running total only


class RaceView(msgspec.Struct, frozen=True):
    viewer: int | None
    round: int
    rounds: int
    deadline: int
    seats: tuple[SeatView, ...]
    over: bool


class RoundOver(RuleError):
    """A command stamped after the round's deadline."""

    code = "round_over"


class RoundRunning(RuleError):
    """The clock's end of a round, sent before the round's deadline."""

    code = "round_running"


class AlreadyDone(RuleError):
    """A seat that stopped or bust in this round."""

    code = "already_done"


def _begin(state: State, now: int, events: list[Event]) -> None:
    events.append(RoundStarted(state.round + 1, now + state.round_ms))


def _end(state: State, timed_out: bool, now: int, events: list[Event]) -> None:
    banked = tuple(
        0 if not d and timed_out else t for t, d in zip(state.totals, state.done, strict=True)
    )
    events.append(RoundEnded(state.round, banked, timed_out))
    scores = tuple(s + b for s, b in zip(state.scores, banked, strict=True))
    if state.round >= state.rounds:
        events.append(RaceEnded(scores))
    else:
        _begin(state, now, events)


class DiceRace(Game[State, Command, Event, RaceView, Options]):
    name = "dice_race"
    title = "Dice race"
    min_seats, max_seats = 1, 4
    shape = Shape(turns="simultaneous", chance_in_play=True, hidden_information=True, timed=True)
    command_type = Command
    event_type = Event
    view_type = RaceView
    options_type = Options
    policies: ClassVar[dict[str, Policy]] = {}

    def initial(self) -> State:
        return State()

    def start(self, setup: Setup, now: int) -> list[Event]:
        options = self.options(setup)
        started = RaceStarted(
            setup.players, setup.seed, round(options.round_seconds * 1000), options.rounds
        )
        events: list[Event] = [started]
        _begin(self.evolve(State(), started), now, events)
        return events

    def decide(self, state: State, seat: int | None, command: Command, now: int) -> list[Event]:
        if state.over:
            if seat is None:
                return []
            raise GameOverError("The race is over.")
        if isinstance(command, EndRound):
            if seat is not None:
                raise TurnError("Only the clock ends a round.")
            if command.round != state.round:
                return []
            if now < state.deadline:
                raise RoundRunning("The round's time is not up yet.")
            return self._ended(state, True, now)
        if seat is None or not 0 <= seat < len(state.players):
            raise TurnError("Only a seat of the race may roll or stop.")
        if now > state.deadline:
            raise RoundOver("The round's time is up.")
        if state.done[seat]:
            raise AlreadyDone("You are done for this round.")
        if isinstance(command, Stop):
            event: Event = Stopped(seat)
        else:
            event = Rolled(seat, at_step(state.seed, state.rolls).below(6) + 1)
        after = self.evolve(state, event)
        if all(after.done):
            return [event, *self._ended(after, False, now)]
        return [event]

    def _ended(self, state: State, timed_out: bool, now: int) -> list[Event]:
        events: list[Event] = []
        _end(state, timed_out, now, events)
        return events

    def evolve(self, state: State, event: Event) -> State:
        match event:
            case RaceStarted():
                n = len(event.players)
                return State(
                    players=event.players,
                    seed=event.seed or 0,
                    round_ms=event.round_ms,
                    rounds=event.rounds,
                    scores=(0,) * n,
                )
            case RoundStarted():
                n = len(state.players)
                return replace(
                    state,
                    round=event.round,
                    deadline=event.deadline,
                    totals=(0,) * n,
                    moves=(0,) * n,
                    done=(False,) * n,
                )
            case Rolled(seat=seat, face=face):
                bust = face == 1
                total = 0 if bust else state.totals[seat] + (face or 0)
                return replace(
                    state,
                    rolls=state.rolls + 1,
                    totals=_put(state.totals, seat, total),
                    moves=_put(state.moves, seat, state.moves[seat] + 1),
                    done=_put(state.done, seat, bust),
                )
            case Stopped(seat=seat):
                return replace(
                    state,
                    moves=_put(state.moves, seat, state.moves[seat] + 1),
                    done=_put(state.done, seat, True),
                )
            case RoundEnded(banked=banked):
                scores = tuple(s + b for s, b in zip(state.scores, banked, strict=True))
                return replace(state, scores=scores, done=(True,) * len(state.players))
            case RaceEnded():
                return replace(state, over=True)
        return state

    def to_act(self, state: State) -> frozenset[int]:
        if state.over or not state.players:
            return frozenset()
        return frozenset(s for s, d in enumerate(state.done) if not d)

    def is_over(self, state: State) -> bool:
        return state.over

    def scores(self, state: State) -> tuple[int, ...]:
        return state.scores

    def legal(self, state: State, seat: int, now: int) -> list[Command]:
        if seat not in self.to_act(state) or now > state.deadline:
            return []
        return [Roll(), Stop()]

    def view(self, state: State, viewer: int | None) -> RaceView:
        seats = tuple(
            SeatView(
                s,
                name,
                state.scores[s],
                state.done[s] if state.done else False,
                state.totals[s] if s == viewer and state.totals else None,
            )
            for s, name in enumerate(state.players)
        )
        return RaceView(viewer, state.round, state.rounds, state.deadline, seats, state.over)

    def redact(self, event: Event, viewer: int | None) -> Event:
        if isinstance(event, RaceStarted):
            return replace(event, seed=None)
        if isinstance(event, Rolled) and event.seat != viewer:
            return replace(event, face=None)
        return event

    def cause(self, event: Event) -> tuple[int | None, Command | Abandon] | None:
        match event:
            case Rolled(seat=seat):
                return seat, Roll()
            case Stopped(seat=seat):
                return seat, Stop()
            case RoundEnded(round=number, timed_out=True):
                return None, EndRound(number)
            case RaceEnded(abandoned=True):
                return None, Abandon()
        return None

    def timers(self, state: State) -> list[Timer]:
        if state.over or not state.round:
            return []
        return [Timer(f"round-{state.round}", state.deadline, EndRound(state.round))]

    def abandoned(self, state: State) -> list[Event]:
        return [RaceEnded(state.scores, abandoned=True)]

    def ai_key(self, state: State, seat: int, version: int) -> str:
        return f"{state.round}-{state.moves[seat]}"

    def ai_delay(self, state: State, seat: int, level: str) -> float | None:
        return 0.4 if level == "slow" else None


def _put(values: tuple[int, ...] | tuple[bool, ...], at: int, value: int | bool) -> tuple:  # type: ignore[type-arg]
    return (*values[:at], value, *values[at + 1 :])


def cautious(view: RaceView, entropy: int, now: int) -> Command:
    """Roll until the round total reaches 8, then stop."""
    me = view.seats[view.viewer or 0]
    return Stop() if (me.total or 0) >= 8 else Roll()


DiceRace.policies = {"normal": cautious, "slow": cautious}
DICE_RACE = DiceRace()
