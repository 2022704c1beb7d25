"""The sweep: heal games stalled by a crash between an append and its enqueue."""

from __future__ import annotations

from typing import Any

from app.errors import ServiceError
from app.service import GameService

#: How many of the newest games each sweep looks at.
SWEEP_GAMES = 200


async def sweep(ctx: dict[str, Any]) -> int:
    """Ask again for the AI turns of active games; job ids make a turn that is queued a no-op."""
    service: GameService = ctx["service"]
    _, ids = await service.store.lobby(0, SWEEP_GAMES)
    asked = 0
    for game_id in ids:
        if (await service.store.meta(game_id)).get("status") != "active":
            continue
        try:
            table = await service.load(game_id)
        except ServiceError:
            continue
        await service.schedule(table)
        asked += 1
    return asked
