"""Words remembered by the identity of what they describe, for the service that describes each
event once for every seat that sees it (most often the very same object)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any


class Described:
    """The words of the last events described, by the identity of the event (a frozen value,
    kept alive here so that its identity is not reused meanwhile) and the names given; past
    `size` events it starts afresh. What it answers is what `describe` answers."""

    def __init__(self, size: int) -> None:
        self.size = size
        self._known: dict[int, tuple[Any, tuple[str, ...], str]] = {}

    def words(
        self, event: Any, names: Sequence[str], describe: Callable[[Any, Sequence[str]], str]
    ) -> str:
        who = tuple(names)
        known = self._known.get(id(event))
        if known is not None and known[0] is event and known[1] == who:
            return known[2]
        text = describe(event, who)
        if len(self._known) >= self.size:
            self._known.clear()
        self._known[id(event)] = (event, who, text)
        return text
