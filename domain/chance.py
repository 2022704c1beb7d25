"""Deterministic chance from a seed: the only source of randomness the domain has.

What chance produces is recorded in events, so a replay never calls this module.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


class Dice:
    """SplitMix64: a small, fast generator whose output never changes between Python versions."""

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform whole number in [0, n), by rejection so there is no modulo bias."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            x = self.next64()
            if x < limit:
                return x % n

    def shuffled(self, items: Sequence[T]) -> list[T]:
        """A Fisher-Yates shuffle of a copy of `items`."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


def at_step(seed: int, step: int) -> Dice:
    """The generator for the `step`-th chance outcome of a game, from the game's secret seed.

    Chance during play (a draw from a bag, a new display) asks for the generator of its step
    (for example the number of draws made so far), so each outcome depends on the seed and its
    step only, never on what was asked before. The outcome is recorded in the event that the
    draw produces: a replay never calls this. The seed lives in the state and stays hidden from
    every view and event until the game is over.
    """
    mixer = Dice(seed ^ ((step + 1) * 0xD1B54A32D192ED03 & _MASK))
    mixer.next64()
    return Dice(mixer.next64())
