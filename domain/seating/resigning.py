"""How a game ends for a seat before its end: resigning, and the others calling a seat whose
player seems gone. Written down in `docs/rules/table.md`.

- `Resign`: the seat counts last. While two or more seats are left in the game (not resigned,
  and not all of them the AI's from the start), the AI at the table's takeover level plays the
  resigned seat on, so that the others' game goes on as it was; otherwise the game ends at
  once with the game's own `abandoned` events. A resigned seat cannot be taken back.
- `Call`: on a table without a turn clock, any other player at the table may call a person's
  seat whose turn it is. The call runs `CALL_SECONDS`; any move of that seat (or the end of its
  turn) answers it; unanswered, the AI takes the seat as if its player had left (`SeatLeft`,
  reason `called`); its player may take it back.
- `standings`: the seats whose player is away at the end (left, timed out, called) or who
  resigned count last, sharing the last place, whatever their score: a leaver is never named
  the winner, and the ratings count them so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.errors import GameOverError, TurnError
from domain.game import Standing
from domain.seating.model import (
    AlreadyResigned,
    Call,
    CallAnswered,
    CallRanOut,
    CallRunOut,
    NotCallable,
    SeatCalled,
    SeatedState,
    SeatLeft,
    SeatResigned,
)

if TYPE_CHECKING:
    from domain.seating.table import Seated

#: How long a called seat has to move before the AI takes it.
CALL_SECONDS = 180


def resign(seated: Seated, state: SeatedState[Any], seat: int, now: int) -> list[Any]:
    """The events of `seat` resigning: it counts last; the AI plays on, or the game ends."""
    game, table, inner = state.game, state.table, seated.inner
    if inner.is_over(game):
        raise GameOverError("The game is over.")
    if seat in table.resigned:
        raise AlreadyResigned("You have resigned this game already.")
    left = [s for s in _seats(seated, state) if s != seat and s not in table.resigned]
    plays_on = len(left) >= 2 and any(s not in table.ai_seats for s in left)
    events: list[Any] = [SeatResigned(seat, table.takeover_level if plays_on else None)]
    if table.level_away(seat) is None:
        events += inner.leave(game, seat, now)
    if not plays_on:
        after = inner.fold(game, events[1:])
        if not inner.is_over(after):
            events += inner.abandoned(after)
    return events


def call(seated: Seated, state: SeatedState[Any], seat: int, command: Call, now: int) -> list[Any]:
    """The events of `seat` calling `command.seat`, whose player seems gone."""
    game, table, inner = state.game, state.table, seated.inner
    target = command.seat
    if inner.is_over(game):
        raise GameOverError("The game is over.")
    if table.turn_seconds is not None:
        raise NotCallable("This table's turn clock limits every turn already.")
    if target == seat:
        raise NotCallable("You cannot call your own seat.")
    if target not in _seats(seated, state) or target in table.ai_seats:
        raise NotCallable("Only a person's seat can be called.")
    if table.level_away(target) is not None:
        raise NotCallable("The AI plays that seat already.")
    if target not in inner.to_act(game):
        raise NotCallable("You can call a seat only while it is its turn.")
    if active(state) is not None:
        raise NotCallable("That seat has been called already.")
    return [SeatCalled(target, seat, now + CALL_SECONDS * 1000, table.calls + 1)]


def call_run_out(state: SeatedState[Any], seat: int | None, command: CallRunOut) -> list[Any]:
    """The AI takes a called seat whose call ran out; nothing if it was answered meanwhile."""
    if seat is not None:
        raise TurnError("Only the server's clock ends a call.")
    called = active(state)
    if called is None or called.seat != command.seat or called.call != command.call:
        return []
    level = state.table.takeover_level
    return [CallRanOut(command.seat, command.call), SeatLeft(command.seat, level, "called")]


def answered(
    seated: Seated, state: SeatedState[Any], seat: int | None, played: list[Any]
) -> list[Any]:
    """`CallAnswered` when the game's events `played` by a command answer the running call: a
    move of the called seat's own, or its turn passing."""
    called = state.table.called
    if called is None or not played:
        return []
    if seat == called.seat:
        return [CallAnswered(called.seat)]
    after = seated.inner.fold(state.game, played)
    if called.seat not in seated.inner.to_act(after) or seated.inner.is_over(after):
        return [CallAnswered(called.seat)]
    return []


def active(state: SeatedState[Any]) -> Any:
    """The running call, if its seat is still a person's whose turn it is."""
    called = state.table.called
    if called is None or state.table.level_away(called.seat) is not None:
        return None
    return called


def standings(seated: Seated, state: SeatedState[Any]) -> list[Standing]:
    """The game's standings, with every seat lost to its player (away or resigned) last."""
    ranked = seated.inner.standings(state.game)
    table = state.table
    if not table.away and not table.resigned:
        return ranked
    lost = {a.seat for a in table.away} | set(table.resigned)
    present = [s for s in ranked if s.seat not in lost]
    scores = [s.score for s in present]
    kept = [Standing(s.seat, s.score, 1 + sum(1 for o in scores if o > s.score)) for s in present]
    last = len(present) + 1
    return kept + [Standing(s.seat, s.score, last) for s in ranked if s.seat in lost]


def _seats(seated: Seated, state: SeatedState[Any]) -> range:
    return range(len(seated.inner.scores(state.game)))
