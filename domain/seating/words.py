"""The table's events in words, as the game log shows them."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from domain.seating.model import (
    CallAnswered,
    CallRanOut,
    ClockSet,
    SeatCalled,
    SeatLeft,
    SeatRejoined,
    SeatResigned,
    TableSet,
    TimedOut,
)
from domain.seating.resigning import CALL_SECONDS


def describe(event: Any, names: Sequence[str]) -> str:
    def who(seat: int | None) -> str:
        return names[seat] if seat is not None and 0 <= seat < len(names) else "Someone"

    match event:
        case TableSet(turn_seconds=seconds, timeouts_to_ai=limit, takeover_level=level):
            clock = (
                f"{seconds} seconds a turn; {limit} timeouts in a row hand a seat to the AI"
                if seconds is not None
                else "no turn clock"
            )
            return f"The table: {clock}; a player who leaves is played by the {level} AI."
        case ClockSet(seat=None):
            return "No turn clock runs: an AI is to act."
        case ClockSet(seat=seat, kept=True):
            return f"{who(seat)}'s turn clock runs on, their run of timeouts ended."
        case ClockSet(seat=seat, strikes=strikes):
            count = strikes[seat] if seat is not None and seat < len(strikes) else 0
            late = f" (timed out {count} in a row)" if count else ""
            return f"{who(seat)}'s turn clock starts{late}."
        case TimedOut(seat=seat, strike=strike):
            return f"{who(seat)}'s time ran out ({_times(strike)} in a row)."
        case SeatLeft(seat=seat, level=level, reason="left"):
            return f"{who(seat)} left the table: the {level} AI plays their seat."
        case SeatLeft(seat=seat, level=level, reason="called"):
            return f"{who(seat)} did not answer the call: the {level} AI plays their seat now."
        case SeatLeft(seat=seat, level=level):
            return f"{who(seat)} ran out of time too often: the {level} AI plays their seat now."
        case SeatRejoined(seat=seat):
            return f"{who(seat)} took their seat back."
        case SeatResigned(seat=seat, level=None):
            return f"{who(seat)} resigned: the game ends."
        case SeatResigned(seat=seat, level=level):
            return f"{who(seat)} resigned: the {level} AI plays their seat to the end."
        case SeatCalled(seat=seat, caller=caller):
            return (
                f"{who(caller)} calls {who(seat)}: unless {who(seat)} moves within "
                f"{CALL_MINUTES} minutes, the AI takes the seat."
            )
        case CallAnswered(seat=seat):
            return f"{who(seat)} answered the call."
        case CallRanOut(seat=seat):
            return f"{who(seat)}'s call ran out."
    return type(event).__name__


CALL_MINUTES = CALL_SECONDS // 60


def _times(count: int) -> str:
    return {1: "once", 2: "twice"}.get(count, f"{count} times")
