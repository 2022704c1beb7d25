"""Every game the service hosts, by name."""

from __future__ import annotations

from domain.bazaar.game import BAZAAR
from domain.crazymino.game import CRAZYMINO
from domain.game import AnyGame
from domain.mondo.game import MONDO

GAMES: dict[str, AnyGame] = {game.name: game for game in (CRAZYMINO, BAZAAR, MONDO)}
