"""Every game the service hosts, by name: its rules (`GAMES`), and the rules at a table
(`TABLES`: turn clocks, leaving, the AI playing for those who left), as the service hosts them."""

from __future__ import annotations

from domain.bazaar.game import BAZAAR
from domain.crazymino.game import CRAZYMINO
from domain.game import AnyGame
from domain.mondo.game import MONDO
from domain.seating import seated

GAMES: dict[str, AnyGame] = {game.name: game for game in (CRAZYMINO, BAZAAR, MONDO)}
TABLES: dict[str, AnyGame] = {name: seated(game) for name, game in GAMES.items()}
