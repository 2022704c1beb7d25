"""A whole game played by the AI policies at a table as the service hosts it (`domain.registry
.TABLES`), on a simulated clock: its log of records, as the service would store it.

A seat's command is `policies[level](view of its own seat, entropy, now)`, as the worker asks
it. A turn-based AI moves `THINK_MS` after the last event; where seats act at once (Mondo) a
seat acts at its level's pace (`ai_delay`) counted from its own last action, and a timer fires
when it is due. Seats may be people's (`people`): played by the same policies, they let their
turn clock run out in a share of their turns (`timeout_share`, drawn from `rng`), and whoever
left or timed out too often is played at the table's takeover level.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from domain.chance import Dice
from domain.game import AnyGame, Record, Setup

T0 = 1_800_000_000_000  # ms: a server time in 2027
THINK_MS = 600  # the service's default AI think time
MAX_STEPS = 50_000


def play_out(
    game: AnyGame,
    setup: Setup,
    levels: Sequence[str],
    dice: Dice,
    *,
    now: int = T0,
    people: bool = False,
    rng: random.Random | None = None,
    timeout_share: float = 0.0,
) -> tuple[list[Record[Any]], Any]:
    """The game of `setup` played to its end, seat n by `levels[n]`: its records (from the
    start's, stamped `now`) and its final state. `dice` gives the policies' entropy."""
    events = game.start(setup, now)
    records: list[Record[Any]] = [Record(now, None, e) for e in events]
    state = game.replay(events)
    last = dict.fromkeys(range(len(levels)), now)  # each seat's last action (its pace)
    for _ in range(MAX_STEPS):
        if game.is_over(state):
            return records, state
        actors = sorted(game.to_act(state))
        timers = game.timers(state)
        away = game.away(state)
        person = people and any(s not in away for s in actors)
        seat: int | None
        if actors and not (person and rng is not None and rng.random() < timeout_share):
            if game.shape.timed:
                due = {
                    s: last[s] + round((game.ai_delay(state, s, levels[s]) or 0) * 1000)
                    for s in actors
                }
            else:
                due = {s: max(now, records[-1].at) + THINK_MS for s in actors}
            seat = min(actors, key=lambda s: (due[s], s))
            at = due[seat]
            if timers and min(t.due for t in timers) <= at:
                seat, at = None, min(t.due for t in timers)
        elif timers:
            seat, at = None, min(t.due for t in timers)
        else:
            raise AssertionError(f"{game.name} seed {setup.seed}: nobody may act, no timer will")
        now = max(now, at)
        if seat is None:
            command = next(t.command for t in timers if t.due <= now)
        else:
            view = game.view(state, seat)
            level = away.get(seat, levels[seat])  # who left is played at the takeover level
            command = game.policies[level](view, dice.below(1 << 32), now)
            last[seat] = now
        new = game.decide(state, seat, command, now)
        state = game.fold(state, new)
        records += [Record(now, seat, e) for e in new]
    raise AssertionError(f"{game.name} seed {setup.seed}: the game does not end")
