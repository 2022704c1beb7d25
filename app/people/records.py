"""What clients read of the players' records: a player's page, a title's leaderboard, a game's
result with each player's rating change, and the ratings of the players at an open table."""

from __future__ import annotations

from pathlib import Path

import msgspec

from app.commands.errors import NotFound
from app.people.accounts import Accounts
from app.people.names import key_of
from app.people.rating_store import PlayerLine, RatingStore
from app.people.results import NEW, PROVISIONAL_GAMES, GameResult, SeatResult, shown

#: How many games a player's page lists, and how many rated games its charts show.
LAST_GAMES = 20
CHART_GAMES = 100
#: The leaderboard's length.
BOARD_SIZE = 100


class Rating(msgspec.Struct, frozen=True):
    """A player's rating at one title as shown: provisional for the first rated games."""

    rating: int
    provisional: bool
    games: int  # rated games


class SeatLine(msgspec.Struct, frozen=True, omit_defaults=True):
    """A seat at a game's end: its place and score; in a rated game, the player's rating
    before and after it, and the change."""

    seat: int
    name: str
    score: int
    place: int
    player: str | None = None
    before: int | None = None
    after: int | None = None
    change: int | None = None


class GameLine(msgspec.Struct, frozen=True):
    """A game in a player's history."""

    id: str
    game: str
    ended: int
    rated: bool
    seats: list[SeatLine]


class ChartPoint(msgspec.Struct, frozen=True):
    game_id: str
    at: int
    rating: int


class TitleRecord(msgspec.Struct, frozen=True):
    """A player's record at one title."""

    game: str
    rating: int
    provisional: bool
    rated_games: int
    games: int
    wins: int
    mean_score: float
    best_score: int | None
    place: int | None  # on the leaderboard, once established
    chart: list[ChartPoint]


class PlayerPage(msgspec.Struct, frozen=True):
    name: str
    titles: list[TitleRecord]
    games: list[GameLine]


class BoardLine(msgspec.Struct, frozen=True):
    place: int
    name: str
    player: str
    rating: int
    games: int


class AiLevel(msgspec.Struct, frozen=True):
    """An AI level's public strength at a title, on the players' scale: its rating from games
    of AIs alone between the levels (`bench/games/ai_strength.py`), and how many it played.
    AI seats make a game casual: no player's rating ever meets these."""

    level: str
    rating: int
    games: int


class Leaderboard(msgspec.Struct, frozen=True):
    game: str
    players: list[BoardLine]
    ai_levels: list[AiLevel] = []


class _Figure(msgspec.Struct, frozen=True):
    rating: int
    games: int


class _Strengths(msgspec.Struct, frozen=True):
    """The data file `ai_strength.json`, as `bench/games/ai_strength.py` writes it."""

    command: str
    date: str
    titles: dict[str, dict[str, _Figure]]


#: Each AI level's strength at each title, measured apart and kept beside this module.
AI_STRENGTH = Path(__file__).with_name("ai_strength.json")


def ai_levels(path: Path = AI_STRENGTH) -> dict[str, list[AiLevel]]:
    """The AI levels' strength of every title the file has (none without the file)."""
    try:
        found = msgspec.json.decode(path.read_bytes(), type=_Strengths)
    except FileNotFoundError:
        return {}
    return {
        title: [AiLevel(level, f.rating, f.games) for level, f in levels.items()]
        for title, levels in found.titles.items()
    }


class GameRecord(msgspec.Struct, frozen=True):
    """A finished game as recorded for its players; `recorded` is false until it is."""

    id: str
    rated: bool
    recorded: bool
    seats: list[SeatLine]


def seat_line(seat: SeatResult) -> SeatLine:
    if seat.before is None or seat.after is None:
        return SeatLine(seat.seat, seat.name, seat.score, seat.place, seat.player)
    before, after = shown(seat.before), shown(seat.after)
    return SeatLine(
        seat.seat, seat.name, seat.score, seat.place, seat.player, before, after, after - before
    )


def game_line(result: GameResult) -> GameLine:
    return GameLine(
        result.id, result.game, result.ended, result.rated, [seat_line(s) for s in result.seats]
    )


def rating_of(line: PlayerLine | None) -> Rating:
    if line is None:
        return Rating(shown(NEW), True, 0)
    return Rating(shown(line.skill), line.rated < PROVISIONAL_GAMES, line.rated)


class Records:
    """The read side of `app.people.ratings`."""

    def __init__(
        self,
        store: RatingStore,
        accounts: Accounts,
        titles: list[str],
        levels: dict[str, list[AiLevel]] | None = None,
    ) -> None:
        self.store = store
        self.accounts = accounts
        self.titles = titles
        self.levels = ai_levels() if levels is None else levels

    async def player(self, name: str) -> PlayerPage:
        found = await self.accounts.find(name)
        if found is None:
            raise NotFound(f"There is no player called {name!r}.")
        titles, games = [], []
        for game in self.titles:
            line = await self.store.line(game, found.key)
            if line is None:
                continue
            titles.append(await self._title(game, found.key, line))
            games += await self.store.results(
                game, await self.store.newest(game, f"h:{found.key}", LAST_GAMES)
            )
        games.sort(key=lambda r: r.order, reverse=True)
        return PlayerPage(found.name, titles, [game_line(g) for g in games[:LAST_GAMES]])

    async def _title(self, game: str, player: str, line: PlayerLine) -> TitleRecord:
        rated = await self.store.results(
            game, await self.store.newest(game, f"r:{player}", CHART_GAMES)
        )
        chart = []
        for result in reversed(rated):
            seat = next(s for s in result.seats if s.player == player)
            assert seat.after is not None
            chart.append(ChartPoint(result.id, result.ended, shown(seat.after)))
        shown_now = rating_of(line)
        place = await self.store.place(game, player) if not shown_now.provisional else None
        return TitleRecord(
            game, shown_now.rating, shown_now.provisional, line.rated, line.games, line.wins,
            round(line.total / line.games, 1) if line.games else 0.0, line.best, place, chart,
        )  # fmt: skip

    async def leaderboard(self, game: str) -> Leaderboard:
        if game not in self.titles:
            raise NotFound(f"There is no game called {game!r}.")
        board = await self.store.board(game, BOARD_SIZE)
        lines = await self.store.lines(game, [p for p, _ in board])
        return Leaderboard(
            game,
            [
                BoardLine(n, lines[p].name, p, rating, lines[p].rated)
                for n, (p, rating) in enumerate(board, start=1)
                if p in lines
            ],
            self.levels.get(game, []),
        )

    async def game(self, game: str, game_id: str, rated: bool) -> GameRecord:
        result = await self.store.result(game, game_id)
        if result is None:
            return GameRecord(game_id, rated, False, [])
        return GameRecord(game_id, result.rated, True, [seat_line(s) for s in result.seats])

    async def ratings(self, game: str, players: list[str]) -> dict[str, Rating]:
        """The shown rating of each player (by key) at `game`: 1,000 and provisional for one
        who never played it."""
        lines = await self.store.lines(game, [key_of(p) for p in players])
        return {p: rating_of(lines.get(key_of(p))) for p in players}
