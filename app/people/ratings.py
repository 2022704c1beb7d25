"""Players are remembered: each finished game with a player's account in it is recorded once,
rated games move their players' ratings, and all of it can be rebuilt from the games' logs.

Ratings of a title are a fold of its rated games in the order of their end (`GameResult.order`),
whatever the order in which they are recorded: a game recorded after a later one (its worker
died, the sweep found it again) rates again every rated game of the title after it, from the
skills its players had before it. So recording live and `rebuild` from nothing give exactly the
same numbers. One writer at a time per title (`RatingStore.lock`, redis-py's `Lock`), and a
writer whose hold lapsed writes nothing; recording a game twice changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence

from redis.asyncio.lock import Lock

from app.commands.errors import UnknownGame
from app.commands.service import GameService
from app.people.rating_store import PlayerLine, RatingsBusy, RatingStore, Writes
from app.people.results import (
    NEW,
    PROVISIONAL_GAMES,
    GameResult,
    Skill,
    fold,
    rate,
    result_of,
    shown,
)
from app.store.lifecycle import ARCHIVED, ENDED, KEPT, RUNNING

log = logging.getLogger(__name__)

#: How long a rebuild may hold the titles' records (ms) without a step: it renews the hold at
#: each write; past it, its writes are refused.
REBUILD_HOLD_MS = 1_800_000
#: Rated games a rebuild writes in one script.
REBUILD_BATCH = 200
#: Games whose logs a rebuild reads at once.
READ_AHEAD = 32

#: What reads the results of some games for a rebuild, as `Ratings.results_of` does.
Reader = Callable[[list[str]], Awaitable[list[GameResult]]]


class Ratings:
    """The players' records: `record` a finished game, `rebuild` every title from the logs."""

    def __init__(
        self, store: RatingStore, service: GameService, rebuild_hold_ms: int = REBUILD_HOLD_MS
    ) -> None:
        self.store = store
        self.service = service
        self.rebuild_hold_ms = rebuild_hold_ms

    async def result(self, game_id: str) -> GameResult | None:
        """A game's result from its log: None while it runs, or when no account sat at it."""
        table = await self.service.load(game_id)
        if not any(s.player for s in table.seats):
            return None
        meta = await self.service.meta(game_id)
        return result_of(table, meta.rated)

    async def record(self, game_id: str) -> str:
        """Record a finished game for its players (once); what was done: "busy" when the
        title's records stayed locked (a rebuild runs), to be tried again."""
        found = await self.result(game_id)
        if found is None:
            return "nothing to record"
        try:
            return await self.record_result(found)
        except RatingsBusy:
            return "busy"

    async def record_result(self, result: GameResult) -> str:
        store, game = self.store, result.game
        held = await store.lock(game)
        try:
            if await store.result(game, result.id) is not None:
                return "recorded already"
            later = await store.after(game, "rated", result.order) if result.rated else []
            writes = Writes(game)
            if later:
                rated = await self._rewind(result, later)
            elif result.rated:
                lines = await store.lines(game, result.players)
                rated = [rate(result, {p: line.skill for p, line in lines.items()})]
            else:
                rated = [result]
            for each in rated:
                writes.record(each)
            await self._players(writes, result, rated)
            await store.write(held, writes)
            return "rated" if result.rated else "recorded"
        finally:
            await store.unlock(held)

    async def _rewind(self, result: GameResult, later: list[str]) -> list[GameResult]:
        """`result` and every rated game after it, rated again in order from the skills their
        players had before `result`."""
        game = result.game
        after = await self.store.results(game, later)
        skills: dict[str, Skill] = {}
        for player in {p for r in [result, *after] for p in r.players}:
            last = await self.store.last_before(game, f"r:{player}", result.order)
            earlier = None if last is None else await self.store.result(game, last)
            seat = next((s for s in earlier.seats if s.player == player), None) if earlier else None
            skills[player] = seat.after if seat is not None and seat.after is not None else NEW
        log.info(
            "ratings of %s: game %s came late; %d games rated again", game, result.id, len(after)
        )
        return fold([result, *after], skills)

    async def _players(self, writes: Writes, result: GameResult, rated: list[GameResult]) -> None:
        """The lines of every player the write touches: `result`'s count it, and each
        player's skill is the one after their last game in `rated`."""
        skills: dict[str, Skill] = {}
        for each in rated:
            for seat in each.seats:
                if seat.player is not None and seat.after is not None:
                    skills[seat.player] = seat.after
        touched = list(dict.fromkeys([*result.players, *skills]))
        lines = await self.store.lines(result.game, touched)
        for player in touched:
            line = lines.get(player) or PlayerLine(player, NEW.mu, NEW.sigma)
            mine = next((s for s in result.seats if s.player == player), None)
            if mine is not None:
                line = counted(line, mine.name, mine.score, mine.place, result.rated)
            skill = skills.get(player, line.skill)
            line.mu, line.sigma = skill.mu, skill.sigma
            writes.player(player, line, board_value(line))

    async def rebuild(
        self, games: Iterable[str] | None = None, helpers: Sequence[Reader] = ()
    ) -> int:
        """Every title's records again from nothing, from the logs of the finished games (all
        those the service knows, or `games`); how many games were recorded. With `helpers`
        (each `results_of` in another process, say) the games are dealt between this process
        and them, one in turn, and each reads and folds its share; the records are the same."""
        # Every title is held from before the games are listed: a game that ends meanwhile is
        # either read here or recorded once the rebuild is done (its job answers "busy").
        locks = await self._hold(self.service.catalogue.names)
        try:
            ids = list(games) if games is not None else await self.known_games()
            hands = len(helpers) + 1
            shares = await asyncio.gather(
                self.results_of(ids[0::hands]),
                *(helper(ids[n::hands]) for n, helper in enumerate(helpers, start=1)),
            )
            results = [result for share in shares for result in share]
            await self._rewrite(results, locks)
        finally:
            await self._let_go(locks)
        return len(results)

    async def _hold(self, titles: Iterable[str]) -> dict[str, Lock]:
        """The locks of `titles`, held for a rebuild."""
        locks: dict[str, Lock] = {}
        try:
            for game in sorted(set(titles)):
                locks[game] = await self.store.lock(game, wait_s=30, hold_ms=self.rebuild_hold_ms)
        except BaseException:
            await self._let_go(locks)
            raise
        return locks

    async def _let_go(self, locks: dict[str, Lock]) -> None:
        for held in locks.values():
            await self.store.unlock(held)

    async def results_of(self, games: Iterable[str]) -> list[GameResult]:
        """The results of the finished games among `games` that had an account at them, from
        their logs (a game no longer kept is passed over), in the order of `games`. The logs
        of `READ_AHEAD` games are read at once, so that their reads go out together and one
        game is folded while the others' logs come."""
        ids = list(games)
        found: list[GameResult | None] = [None] * len(ids)
        turns = iter(range(len(ids)))

        async def reader() -> None:
            for n in turns:  # shared: each reader takes the next game
                found[n] = await self.logged_result(ids[n])

        await asyncio.gather(*(reader() for _ in range(min(READ_AHEAD, len(ids)))))
        return [result for result in found if result is not None]

    async def logged_result(self, game_id: str) -> GameResult | None:
        """A game's result read afresh from its log (not cached): None while it runs, when no
        account sat at it (its log is not read), or when it is no longer kept."""
        try:
            meta = await self.service.meta(game_id)
            if not any(s.player for s in meta.seats):
                return None
            table = await self.service.folded(game_id, meta)
        except UnknownGame:
            return None
        return result_of(table, meta.rated)

    async def known_games(self) -> list[str]:
        """Every game of the lifecycle's indexes (running, ended, archived, kept)."""
        found: dict[str, None] = {}
        for index in (RUNNING, ENDED, ARCHIVED, KEPT):
            for member in await self.service.store.client.zrange(index, 0, -1):
                found[member.decode()] = None
        return list(found)

    async def rebuild_from(
        self, results: Sequence[GameResult], titles: Iterable[str] | None = None
    ) -> None:
        """The records of every title (or of `titles`) again from `results` alone."""
        names = set(self.service.catalogue.names) if titles is None else set(titles)
        locks = await self._hold(names | {r.game for r in results})
        try:
            await self._rewrite(results, locks)
        finally:
            await self._let_go(locks)

    async def _rewrite(self, results: Sequence[GameResult], locks: dict[str, Lock]) -> None:
        """Clear each held title's records and write them again from `results`; a title
        whose hold lapsed (`LockNotOwnedError`) is left as whoever took it since wrote it."""
        for game, held in locks.items():
            mine = sorted((r for r in results if r.game == game), key=lambda r: r.order)
            await held.reacquire()
            await self.store.clear(game, held)
            await self._write_all(game, held, mine)

    async def _write_all(self, game: str, held: Lock, results: list[GameResult]) -> None:
        skills: dict[str, Skill] = {}
        lines: dict[str, PlayerLine] = {}
        for start in range(0, len(results), REBUILD_BATCH):
            writes = Writes(game)
            for result in results[start : start + REBUILD_BATCH]:
                done = fold([result], skills)[0] if result.rated else result
                writes.record(done)
                for seat in done.seats:
                    if seat.player is None:
                        continue
                    line = lines.get(seat.player) or PlayerLine(seat.player, NEW.mu, NEW.sigma)
                    lines[seat.player] = counted(
                        line, seat.name, seat.score, seat.place, done.rated
                    )
            await self.store.write(held, writes)
            await held.reacquire()
        writes = Writes(game)
        for player, line in lines.items():
            skill = skills.get(player, NEW)
            line.mu, line.sigma = skill.mu, skill.sigma
            writes.player(player, line, board_value(line))
        await self.store.write(held, writes)


def counted(line: PlayerLine, name: str, score: int, place: int, rated: bool) -> PlayerLine:
    """The line with one more game: its score, a win if first, a rated game if rated."""
    best = score if line.best is None else max(line.best, score)
    return PlayerLine(
        name, line.mu, line.sigma, line.rated + int(rated), line.games + 1,
        line.wins + int(place == 1), line.total + score, best,
    )  # fmt: skip


def board_value(line: PlayerLine) -> int | None:
    """The player's place on the leaderboard: their shown rating once established."""
    return shown(line.skill) if line.rated >= PROVISIONAL_GAMES else None
