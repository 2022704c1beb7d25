"""A table's start, and the repair of a start a process left midway.

A start is three writes: the seats are frozen (the table is `starting`), the game is made
under the table's own id (made again, `GameService.create(game_id=...)` finds that same game),
then the table is `started` and its players' indexes name the game (`Tables.finish`). A process
that stops between them leaves the start noted in `tables:starting`; once it has waited there
`forming.STUCK_MS`, the next reader of the table (`resume`) or the sweep (`repair`) finishes it,
or reopens the table when its game cannot be made.
"""

from __future__ import annotations

import contextlib
import logging

from app.commands.errors import ServiceError
from app.commands.seats import SeatRequest
from app.commands.service import CreateGame, GameService
from app.people.forming import NotStarting, Stored
from app.people.tables import Tables
from domain.errors import RuleError

log = logging.getLogger(__name__)


class Starts:
    """Makes the games of starting tables, and finishes the starts left midway."""

    def __init__(self, tables: Tables, service: GameService) -> None:
        self.tables = tables
        self.service = service

    async def make_game(self, frozen: Stored) -> Stored:
        """Make the game of the starting table `frozen`, under the table's id, and start the
        table: the table, started. A game its rules refuse reopens the table (and raises)."""
        requests: list[SeatRequest] = []
        players: list[str | None] = []
        for number, seat in enumerate(frozen.plan.seats):
            sitter = frozen.sitter(number)
            if seat.type == "ai":
                requests.append(SeatRequest("ai", None, seat.level))
                players.append(None)
            elif sitter is not None:
                requests.append(SeatRequest("human", sitter[1]))
                players.append(sitter[0])
        plan = frozen.plan
        asked = CreateGame(plan.game, requests, plan.options, plan.seed)
        try:
            game, _ = await self.service.create(asked, players, game_id=frozen.id, rated=plan.rated)
        except (RuleError, ServiceError):
            await self.tables.thaw(frozen.id)
            raise
        try:
            return await self.tables.finish(frozen.id, game.id)
        except NotStarting:  # reopened meanwhile by a reader that could not make the game
            log.warning("table %s formed again while its game was made", frozen.id)
            return await self.tables.read(frozen.id) or frozen

    async def resume(self, stored: Stored) -> Stored:
        """The table, its start finished (or the table reopened) if it was left midway."""
        if not stored.stuck(self.tables.clock()):
            return stored
        with contextlib.suppress(RuleError, ServiceError):  # else it forms again
            return await self.make_game(stored)
        return await self.tables.read(stored.id) or stored

    async def repair(self) -> int:
        """Finish every start left midway (`STUCK_MS` ago or more): a table left starting, a
        table started whose players' indexes were not written. How many were finished."""
        done = 0
        for table_id, noted in await self.tables.starts_left():
            stored = await self.tables.read(table_id)
            try:
                if stored is not None and stored.kept_status == "starting":
                    if stored.stuck(self.tables.clock()):
                        await self.resume(stored)
                        done += 1
                elif stored is not None and stored.kept_status == "started":
                    await self.tables.settle(stored)
                    done += 1
                else:
                    await self.tables.start_dropped(table_id, noted)
            except Exception as error:  # one broken table must not stop the repair of others
                log.error("repair: the start of table %s failed: %s", table_id, error)
        return done
