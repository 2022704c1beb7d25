"""Machine work: what a table waits for (AI turns, timers, the record of its end for its
players), and when each is due."""

from __future__ import annotations

from typing import NamedTuple

from app.commands.table import Table


class AiTurn(NamedTuple):
    seat: int
    key: str
    #: When the AI acts (ms): its think time or pace after its decision began (`Table.since`:
    #: where seats act at once, its own last action, so that each AI keeps its own pace).
    due: int


class Work(NamedTuple):
    """What a state waits for, and when the earliest of it is due (ms)."""

    ai_turns: list[AiTurn]
    timers: list[tuple[str, int]]  # (timer key, due)
    due: int
    #: The game is over and a player's account sat at it: its result is to be recorded
    #: (`app.people.ratings`); the job that records it clears the game's due mark.
    record: bool = False


def work_of(table: Table, think_ms: int) -> Work | None:
    """The machine work a table waits for, or None."""
    if table.over:
        return Work([], [], table.at, record=True) if any(s.player for s in table.seats) else None
    game = table.game
    turns = []
    for seat in sorted(game.to_act(table.state)):
        level = table.ai_level(seat)
        if level is None:
            continue
        pace = game.ai_delay(table.state, seat, level)
        delay = think_ms if pace is None else round(pace * 1000)
        key = game.ai_key(table.state, seat, table.version)
        turns.append(AiTurn(seat, key, table.since(seat) + delay))
    timers = [(t.key, t.due) for t in game.timers(table.state)]
    if not turns and not timers:
        return None
    dues = [due for _, due in timers] + [turn.due for turn in turns]
    return Work(turns, timers, min(dues))
