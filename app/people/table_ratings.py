"""The ratings of the players at open tables, and a table's rating range.

A table's view shows each seated player's rating at the table's game, the number of their
page (`app.people.records`: 1,000 and provisional for one who never played it). The lobby
reads those of all its tables in one round trip: one HMGET of each seated player's line at
each table's title, pipelined (the lines of one title share a cluster slot; a pipeline may
span several).

A table may ask for a range (`rating_min`, `rating_max`, either or both): whoever sits there
has a rating in it when they sit, the creator and the players seats are kept for too (a
provisional rating is its shown number). A range is the table's whether rated or casual.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.commands.errors import Forbidden, Unprocessable
from app.people.forming import Plan, Stored
from app.people.rating_store import PlayerLine, RatingStore, title_key
from app.people.records import Rating, rating_of

#: The fields of a player's line that make their shown rating.
_FIELDS = ["mu", "sigma", "rated"]


class RatingOutOfRange(Forbidden):
    code = "rating_out_of_range"


class BadRatingRange(Unprocessable):
    code = "bad_rating_range"


class TableRatings:
    """The ratings of players at tables, read from the records of `store`."""

    def __init__(self, store: RatingStore) -> None:
        self.store = store

    async def of(self, wanted: Iterable[tuple[str, str]]) -> dict[tuple[str, str], Rating]:
        """The rating of each (game, player key) asked, in one round trip."""
        pairs = list(dict.fromkeys(wanted))
        if not pairs:
            return {}
        async with self.store.redis.pipeline(transaction=False) as pipe:
            for game, player in pairs:
                pipe.hmget(title_key(game, f"p:{player}"), _FIELDS)
            replies = await pipe.execute()
        return {pair: _rating(found) for pair, found in zip(pairs, replies, strict=True)}

    async def at(self, game: str, players: Iterable[str]) -> dict[str, Rating]:
        """The ratings of `players` (keys) at one game."""
        found = await self.of((game, p) for p in players)
        return {player: rating for (_, player), rating in found.items()}

    async def opening(self, plan: Plan, creator: str, sits: bool) -> None:
        """Refuse a table whose range leaves out its creator (`creator`: their key), when
        they sit at once, or a player a seat is kept for."""
        if not has_range(plan):
            return
        whose = {creator: "yours"} if sits else {}
        for seat in plan.seats:
            if seat.reserved is not None:
                whose[seat.reserved] = (
                    "yours" if seat.reserved == creator else f"{seat.reserved_name}'s"
                )
        found = await self.at(plan.game, whose)
        for key in whose:
            advice = "do not sit" if sits and key == creator else "keep the seat for another player"
            admitted(plan, found[key], whose[key], f": widen the range, or {advice}")

    async def joining(self, player: str, clock: Callable[[], int], stored: Stored) -> None:
        """Refuse `player` (a key) a seat at `stored` if their rating is out of its range."""
        plan = stored.plan
        if not has_range(plan) or player in stored.seated() or stored.status(clock()) != "forming":
            return  # the table's own refusals come first (seated already, started, closed)
        admitted(plan, (await self.at(plan.game, [player]))[player], "yours")


def _rating(found: list[bytes | None]) -> Rating:
    mu, sigma, rated = found
    if mu is None or sigma is None:
        return rating_of(None)
    return rating_of(PlayerLine("", float(mu), float(sigma), int(rated or 0)))


def checked_range(low: int | None, high: int | None) -> None:
    """Refuse a range whose lowest rating is above its highest (422 `bad_rating_range`)."""
    if low is not None and high is not None and low > high:
        raise BadRatingRange(
            f"The lowest rating asked ({low}) is above the highest ({high}): "
            "swap them, or leave one out."
        )


def range_words(plan: Plan) -> str:
    """The range in words: "between 900 and 1200", "of 900 or more", "of 1200 or less"."""
    low, high = plan.rating_min, plan.rating_max
    if low is not None and high is not None:
        return f"between {low} and {high}"
    return f"of {low} or more" if low is not None else f"of {high} or less"


def admitted(plan: Plan, rated: Rating, whose: str, advice: str = "") -> None:
    """Refuse (403 `rating_out_of_range`) a rating outside the table's range; `whose`: how the
    sentence calls it ("yours", "Bob's"); `advice`: what to do about it, if anything."""
    low, high = plan.rating_min, plan.rating_max
    if (low is not None and rated.rating < low) or (high is not None and rated.rating > high):
        raise RatingOutOfRange(
            f"This table is for ratings {range_words(plan)}; "
            f"{whose} is {rated.rating} at {plan.title}{advice}."
        )


def has_range(plan: Plan) -> bool:
    return plan.rating_min is not None or plan.rating_max is not None
