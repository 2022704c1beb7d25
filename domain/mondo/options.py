"""Mondo's options, and what they make of a round's length.

`expert` plays the advanced game too (its special scorings) and adds the tasks; `advanced` alone
adds the special scorings. A round lasts 7, 6 or 5 minutes in the standard, advanced and expert
game; `time` sets another length in minutes, `round_seconds` one in seconds (quick rounds for
tests and trials); giving both is refused. Between rounds the players get a short break
(`break_seconds`) to read the round's scores; 0 starts the next round at once.
"""

from __future__ import annotations

from typing import Annotated

import msgspec

from domain.errors import OptionError
from domain.seating.model import TableOptions

ROUNDS = 3
MINUTE_MS = 60_000


class MondoOptions(TableOptions, frozen=True, forbid_unknown_fields=True):
    advanced: Annotated[
        bool, msgspec.Meta(description="advanced game: a special scoring each round")
    ] = False
    expert: Annotated[
        bool,
        msgspec.Meta(description="expert game: the advanced game plus tasks to take"),
    ] = False
    backside: Annotated[
        bool,
        msgspec.Meta(description="play the world boards' back side: four landscapes round it"),
    ] = False
    time: (
        Annotated[
            int,
            msgspec.Meta(
                ge=1, le=15, description="round length in minutes (default 7, 6 advanced, 5 expert)"
            ),
        ]
        | None
    ) = None
    round_seconds: (
        Annotated[
            int,
            msgspec.Meta(ge=10, le=900, description="round length in seconds, for quick rounds"),
        ]
        | None
    ) = None
    break_seconds: Annotated[
        int, msgspec.Meta(ge=0, le=120, description="pause between rounds to read the scores")
    ] = 10

    @property
    def advanced_game(self) -> bool:
        """Whether special scorings are drawn (advanced or expert)."""
        return self.advanced or self.expert

    def round_ms(self) -> int:
        """The length of a round in milliseconds."""
        if self.time is not None and self.round_seconds is not None:
            raise OptionError("round_seconds", "Give either time or round_seconds, not both.")
        if self.round_seconds is not None:
            return self.round_seconds * 1000
        if self.time is not None:
            return self.time * MINUTE_MS
        return (5 if self.expert else 6 if self.advanced else 7) * MINUTE_MS
