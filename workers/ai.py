"""The AI-turn job: play one seat's turn from that seat's own view, like a person would."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from app.errors import ServiceError
from app.service import GameService

log = logging.getLogger(__name__)


async def ai_turn(ctx: dict[str, Any], game_id: str, version: int, seat: int) -> str:
    """Send the AI seat's command, unless the game has moved past the job's version."""
    service: GameService = ctx["service"]
    table = await service.load(game_id)
    if table.version != version or seat not in table.game.to_act(table.state):
        return "moved on"
    if table.seats[seat].type != "ai":
        return "not an AI seat"
    level = table.seats[seat].level or "normal"
    view = table.game.view(table.state, seat)  # the seat's own view, never the full state
    command = table.game.policies[level](view, secrets.randbits(32))
    try:
        await service.execute(
            game_id, seat, command, expected_version=version, idempotency_key=f"ai-{version}-{seat}"
        )
    except ServiceError as refusal:
        if refusal.code == "stale_version":
            return "moved on"
        log.error("AI seat %s of game %s was refused: %s", seat, game_id, refusal.message)
        return f"refused: {refusal.code}"
    return "played"
