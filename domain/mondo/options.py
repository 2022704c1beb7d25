"""Mondo's options, and what they make of a round's length.

`advanced` and `expert` are independent (the seed: "Evaluation spéciale (uniquement avec l'option
"advanced")", "Evaluation supplémentaire (uniquement avec l'option "expert")"): `advanced` draws a
special scoring each round, `expert` shows tasks to take; both together play both. A round lasts
7, 6 or 5 minutes in the standard, advanced and expert game (5 when both are on); `time` sets
another length in minutes, `round_seconds` one in seconds (quick rounds for tests and trials);
giving both is refused. Between rounds the players get a short break
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
        bool,
        msgspec.Meta(
            description="advanced game: a special scoring each round (+4 for the most, -4 for the "
            "fewest)"
        ),
    ] = False
    expert: Annotated[
        bool,
        msgspec.Meta(
            description="expert game: tasks to take, up to two a round (their points if fulfilled, "
            "minus them if not)"
        ),
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

    def round_ms(self) -> int:
        """The length of a round in milliseconds: 7, 6 or 5 minutes for the standard, advanced and
        expert game (the timers of the published game); expert's 5 when both are on."""
        if self.time is not None and self.round_seconds is not None:
            raise OptionError("round_seconds", "Give either time or round_seconds, not both.")
        if self.round_seconds is not None:
            return self.round_seconds * 1000
        if self.time is not None:
            return self.time * MINUTE_MS
        return (5 if self.expert else 6 if self.advanced else 7) * MINUTE_MS
