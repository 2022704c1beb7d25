"""The sweep: heal games stalled by a crash between an append and its enqueue."""

from __future__ import annotations

import logging
from typing import Any

from app.service import GameService

log = logging.getLogger(__name__)

#: How many of the newest games each sweep looks at.
SWEEP_GAMES = 200


async def sweep(ctx: dict[str, Any]) -> int:
    """Ask again for the AI turns of active games; job ids make a turn that is queued a no-op."""
    service: GameService = ctx["service"]
    _, ids = await service.store.lobby(0, SWEEP_GAMES)
    asked = 0
    for game_id, meta in zip(ids, await service.store.metas(ids), strict=True):
        if meta.get("status") != "active":
            continue
        try:
            table = await service.load(game_id)
            await service.schedule(table)
        except Exception as error:  # one broken game must not stop the sweep of the others
            log.error("sweep: game %s cannot be loaded: %s", game_id, error)
            continue
        asked += 1
    return asked
