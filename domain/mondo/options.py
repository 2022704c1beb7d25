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
            title="Advanced game",
            description="A special scoring each round: 4 points for the player with the most, "
            "minus 4 for the one with the fewest.",
        ),
    ] = False
    expert: Annotated[
        bool,
        msgspec.Meta(
            title="Expert game",
            description="Tasks to take, up to two a round: their points if you fulfil them, "
            "minus their points if you do not.",
        ),
    ] = False
    backside: Annotated[
        bool,
        msgspec.Meta(
            title="Back side of the worlds",
            description="Play the world boards' back side, with four landscapes round the edge.",
        ),
    ] = False
    time: (
        Annotated[
            int,
            msgspec.Meta(
                ge=1,
                le=15,
                title="Round length",
                description="How long each round lasts. Leave it empty for the game's own timer: "
                "7 minutes, 6 in the advanced game, 5 in the expert game.",
                extra_json_schema={"x-unit": "minutes"},
            ),
        ]
        | None
    ) = None
    round_seconds: (
        Annotated[
            int,
            msgspec.Meta(
                ge=10,
                le=900,
                title="Quick round length",
                description="A round length in seconds instead of minutes, for quick games. "
                "Give this or the round length, not both.",
                extra_json_schema={"x-unit": "seconds"},
            ),
        ]
        | None
    ) = None
    break_seconds: Annotated[
        int,
        msgspec.Meta(
            ge=0,
            le=120,
            title="Break between rounds",
            description="The pause between rounds to read the round's scores (0: none).",
            extra_json_schema={"x-unit": "seconds"},
        ),
    ] = 10

    def round_ms(self) -> int:
        """The length of a round in milliseconds: 7, 6 or 5 minutes for the standard, advanced and
        expert game (the timers of the published game); expert's 5 when both are on."""
        if self.time is not None and self.round_seconds is not None:
            raise OptionError(
                "round_seconds", "Give either a round length or a quick round length, not both."
            )
        if self.round_seconds is not None:
            return self.round_seconds * 1000
        if self.time is not None:
            return self.time * MINUTE_MS
        return (5 if self.expert else 6 if self.advanced else 7) * MINUTE_MS
