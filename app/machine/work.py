"""Machine work: what a table waits for (AI turns, timers), and when each is due."""

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


def work_of(table: Table, think_ms: int) -> Work | None:
    """The machine work a table waits for, or None."""
    if table.over:
        return None
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
