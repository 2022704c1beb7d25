"""What a finished game leaves its players: each seat's score and place, and, for a rated game,
each player's skill before and after it. Pure: no Redis, no clock.

Skill is the Weng-Lin model (Plackett-Luce) of the `openskill` library: a mean `mu` and an
uncertainty `sigma` per player and per game title. A player sees one number, openskill's
ordinal scaled: `shown(skill) = 1000 + 40 * (mu - 3 * sigma)`; a new player shows 1,000, and
the number only rises as the service grows sure of it. The first `PROVISIONAL_GAMES` rated games are
provisional.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import msgspec
from openskill.models import PlackettLuce

from app.commands.table import Table
from domain.game import AnyGame

#: How many rated games a player's rating stays provisional for (shown with a "?").
PROVISIONAL_GAMES = 10

_MODEL = PlackettLuce()


class Skill(msgspec.Struct, frozen=True, array_like=True):
    """A player's skill at one game title: mean and uncertainty."""

    mu: float
    sigma: float


NEW = Skill(_MODEL.mu, _MODEL.sigma)


def shown(skill: Skill) -> int:
    """The one number a player sees, `1000 + 40 * (mu - 3 * sigma)` (openskill's `ordinal`
    with `alpha` 40 and `target` 1,000): 1,000 for a new player."""
    rating = _MODEL.rating(mu=skill.mu, sigma=skill.sigma)
    return round(rating.ordinal(z=3.0, alpha=40, target=1000))


class SeatResult(msgspec.Struct, frozen=True, omit_defaults=True):
    """One seat at a game's end: its score, its place (1 is first; equal places share),
    the account that sat there (None for a guest or an AI) and, in a rated game, that
    player's skill before and after."""

    seat: int
    name: str
    score: int
    place: int
    player: str | None = None
    before: Skill | None = None
    after: Skill | None = None


class GameResult(msgspec.Struct, frozen=True):
    """A finished game as its players remember it. `ended` is the time of its last event
    (ms); games are rated in the order of (`ended`, `id`)."""

    id: str
    game: str
    ended: int
    rated: bool
    seats: list[SeatResult]

    @property
    def order(self) -> tuple[int, str]:
        return (self.ended, self.id)

    @property
    def players(self) -> list[str]:
        return [s.player for s in self.seats if s.player is not None]


def places(game: AnyGame, state: Any) -> list[int]:
    """Each seat's place, as the game's standings give it: by score among the seats still
    played by their player, equal scores sharing a place; a seat lost to its player (left,
    timed out, called, resigned) last, with any others lost alike (`domain.seating`)."""
    found = [0] * len(game.scores(state))
    for standing in game.standings(state):
        found[standing.seat] = standing.rank
    return found


def result_of(table: Table, rated: bool) -> GameResult | None:
    """The result of a finished game (None while it runs). It is rated when its table
    asked (`rated`), no seed was chosen, and every seat is a player's account."""
    if not table.over:
        return None
    game, state = table.game, table.state
    scores = game.scores(state)
    found = places(game, state)
    rated = rated and table.seed is None and all(s.player for s in table.seats)
    seats = [
        SeatResult(s.seat, s.name, scores[s.seat], found[s.seat], s.player) for s in table.seats
    ]
    return GameResult(table.id, game.name, table.at, rated, seats)


def rate(result: GameResult, skills: Mapping[str, Skill]) -> GameResult:
    """The rated game's result with each player's skill before (from `skills`, else new)
    and after it."""
    before = [skills.get(s.player or "", NEW) for s in result.seats]
    teams = [[_MODEL.rating(mu=b.mu, sigma=b.sigma)] for b in before]
    after = _MODEL.rate(teams, ranks=[float(s.place) for s in result.seats])
    seats = [
        msgspec.structs.replace(s, before=b, after=Skill(team[0].mu, team[0].sigma))
        for s, b, team in zip(result.seats, before, after, strict=True)
    ]
    return msgspec.structs.replace(result, seats=seats)


def fold(results: Sequence[GameResult], skills: dict[str, Skill]) -> list[GameResult]:
    """Rate `results` one after the other in their order, from `skills` (updated in
    place); each comes back with its skills before and after."""
    rated = []
    for result in sorted(results, key=lambda r: r.order):
        done = rate(result, skills)
        for seat in done.seats:
            if seat.player is not None and seat.after is not None:
                skills[seat.player] = seat.after
        rated.append(done)
    return rated
