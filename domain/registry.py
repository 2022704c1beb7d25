"""Every game the service hosts, by name."""

from __future__ import annotations

from typing import Any

from domain.crazymino.game import CRAZYMINO
from domain.game import Game

GAMES: dict[str, Game[Any, Any, Any, Any]] = {game.name: game for game in (CRAZYMINO,)}
