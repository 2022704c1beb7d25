"""docs/api.md says what the service does: every refusal code it can answer, every route it
serves, and each game's options and AI levels, read from the service itself."""

from __future__ import annotations

import ast
import importlib
import pkgutil
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

import domain
from app.api.lobby import game_type
from app.base.config import Settings
from app.commands.catalogue import Catalogue
from app.commands.errors import ServiceError
from app.main import create_app
from domain.errors import OptionError, RuleError

ROOT = Path(__file__).resolve().parents[2]
API = (ROOT / "docs" / "api.md").read_text()


def _subclasses(kind: type) -> Iterator[type]:
    for sub in kind.__subclasses__():
        yield sub
        yield from _subclasses(sub)


def refusal_codes() -> set[str]:
    """The code of every named error of the rules and the service, and every code the app
    gives a refusal where it raises one."""
    for module in pkgutil.walk_packages(domain.__path__, "domain."):
        importlib.import_module(module.name)
    kinds = [RuleError, ServiceError, *_subclasses(RuleError), *_subclasses(ServiceError)]
    hosted = [kind for kind in kinds if kind.__module__.startswith(("domain.", "app."))]
    codes = {kind.code for kind in hosted if not issubclass(kind, OptionError)}  # type: ignore[attr-defined]
    for path in (ROOT / "app").rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            value = node.value if isinstance(node, ast.keyword) and node.arg == "code" else None
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                codes.add(value.value)
    return codes


def test_every_refusal_code_is_in_the_refusals_table() -> None:
    table = API[API.index("## Refusals") : API.index("## Routes")]
    missing = sorted(code for code in refusal_codes() if f"`{code}`" not in table)
    assert not missing, missing
    assert "`bad_option.<name>`" in table and "`unknown_option`" in table  # OptionError's codes


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
