"""docs/api.md says what the service does: every route it serves, and each game's options and
AI levels, read from the service itself (its refusals: `test_refusal_codes.py`)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from app.api.lobby import game_type
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.main import create_app

ROOT = Path(__file__).resolve().parents[2]
API = (ROOT / "docs" / "api.md").read_text()


def test_every_route_the_service_serves_is_in_the_api_page() -> None:
    app = create_app(Settings())
    paths = {re.sub(r"\{(\w+):\w+\}", r"{\1}", route.path) for route in app.routes}
    shown = {path.replace("{game_id}", "{id}") for path in paths}
    missing = sorted(
        path
        for path in shown
        if not re.search(rf"[ `]{re.escape(path)}[`?\s]", API) and not path.startswith("/schema/")
    )
    assert not missing, missing


GAMES = list(Catalogue.with_extras())


def _row(title: str) -> str:
    """The row of a game in the table of games."""
    table = API[API.index("## Games") :]
    found = re.search(rf"^\| {re.escape(title)} \|.*$", table, re.M)
    assert found, f"no row for {title} in the table of games"
    return found.group(0)


@pytest.mark.parametrize("kind", GAMES, ids=lambda kind: kind.game.name)
def test_each_games_levels_and_options_are_in_its_row(kind: object) -> None:
    described = game_type(kind.game)  # type: ignore[attr-defined]
    row = _row(described.title)
    for level in described.levels:
        assert f"`{level}`" in row, (described.title, level)
    for option in described.options:
        assert f"`{option.name}`" in row, (described.title, option.name)
    assert f"{described.seats.min} to {described.seats.max}" in row
