"""Play again: a finished game's rematch is a new open table with the same seats and options.

Its players' seats are kept for them, its AI seats are the same AIs, its guests' seats (seat
tokens, no account) are open; it starts by itself once every seat is taken or declined. A game
has one rematch: the table's id is derived from the game's, so two players asking at once open
one table.
"""

from __future__ import annotations

import contextlib
import hashlib

from app.commands.errors import Conflict, GameRunning, NotSeated
from app.commands.seats import seat_of_player
from app.people.accounts import Player
from app.people.forming import OpenTableView
from app.people.hosting import AiSeat, Hosting, OpenSeat, OpenTable, PlayerSeat
from app.people.table_errors import RematchPlayed


def rematch_id(game_id: str) -> str:
    """The id of the game's rematch table."""
    return hashlib.sha256(f"rematch:{game_id}".encode()).hexdigest()[:16]


async def rematch(host: Hosting, player: Player, game_id: str) -> tuple[OpenTableView, bool]:
    """The game's rematch table, and whether this call opened it. The player who asks first
    opens it and sits at once; a player asked again who is awaited there takes their seat."""
    table_id = rematch_id(game_id)
    if await host.tables.read(table_id) is not None:
        return await _accepted(host, player, table_id), False
    meta = await host.service.meta(game_id)
    seat = seat_of_player(meta.seats, player.key)
    if seat is None:
        raise NotSeated(f"{player.name} has no seat at this game.")
    if not (await host.service.load(game_id)).over:
        raise GameRunning("A rematch is asked for once the game is over.")
    if await host.service.store.exists(table_id):  # its table's game: the rematch was played
        raise RematchPlayed(
            f"This game's rematch was played: ask for a rematch of game {table_id}."
        )
    seats: list[OpenSeat | AiSeat | PlayerSeat] = []
    for each in meta.seats:
        if each.type == "ai":
            seats.append(AiSeat(each.level))
        elif each.player is not None:
            seats.append(PlayerSeat(each.player))
        else:
            seats.append(OpenSeat())
    asked = OpenTable(meta.game, seats, meta.setup.options, rated=meta.rated, start_when_full=True)
    plan = await host.plan(player, asked, rematch_of=game_id)
    made = await host.tables.create(plan, {seat: (player.key, player.name)}, table_id)
    if made is None:  # another player opened it meanwhile
        return await _accepted(host, player, table_id), False
    return await host.opened(table_id), True


async def rematch_of(host: Hosting, game_id: str) -> OpenTableView:
    """The game's rematch table (404 `unknown_table` if nobody asked for one)."""
    return await host.view(rematch_id(game_id))


async def _accepted(host: Hosting, player: Player, table_id: str) -> OpenTableView:
    """The table, once `player` took the seat kept for them there, if one waits."""
    stored = await host.tables.read(table_id)
    if stored is not None and stored.status(host.tables.clock()) == "forming":
        awaited = {
            n
            for n, seat in enumerate(stored.plan.seats)
            if seat.reserved == player.key and stored.sitter(n) is None and not stored.declined(n)
        }
        if awaited:
            with contextlib.suppress(Conflict):  # the table moved on meanwhile
                return await host.join(player, table_id, None)
    return await host.view(table_id)
