"""Logs pinned to their rules: every game's `game_started` names the version of its title's
rules it is played under (`rules`), and a log replays, imports and checks with its own.

A title keeps every older version as data (Mondo's first tile set; Bazaar before its round
limit) and says which versions it still decides by. A log written before versions were named
has none (`rules` None): it is read as the version that was current then (`Versions.unnamed`)
and, if it does not check so, as each older one in turn (`Versions.older`): see
`domain.verify`. `docs/rules/versions.md` lists every title's versions.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec
from msgspec.structs import replace

from domain.game import Record


class Versions(msgspec.Struct, frozen=True):
    """A title's rules versions: `current` for new games; `unnamed`, what a log that names
    none was played under, unless it checks only as one of `older`; `known`, all of them."""

    current: int
    unnamed: int
    older: tuple[int, ...] = ()

    @property
    def known(self) -> frozenset[int]:
        return frozenset(range(1, self.current + 1))

    def of(self, named: int | None) -> int:
        """The version a `game_started` that names `named` is played under."""
        return self.unnamed if named is None else named

    def edition(self, opening: list[Any], recorded: Sequence[Any], started: type) -> list[Any]:
        """`opening` (a fresh start, naming `current`) as the recorded log names its version,
        when the log names a known one (or none): the game goes on under the log's rules."""
        fresh: Any = next((e for e in opening if type(e) is started), None)
        named: Any = next((e for e in recorded if type(e) is started), None)
        if fresh is None or named is None or named.rules == fresh.rules:
            return opening
        if named.rules is not None and named.rules not in self.known:
            return opening
        return [replace(e, rules=named.rules) if e is fresh else e for e in opening]

    def readings(self, records: Sequence[Record[Any]], started: type) -> list[list[Record[Any]]]:
        """The log read as each `older` version, when it names none; else no other reading."""
        at = next((n for n, r in enumerate(records) if type(r.event) is started), None)
        if at is None or records[at].event.rules is not None:
            return []
        first = records[at]
        return [
            [*records[:at], replace(first, event=replace(first.event, rules=v)), *records[at + 1 :]]
            for v in self.older
        ]
