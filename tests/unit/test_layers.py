"""The layers import only downwards: `domain/` nothing but the standard library, msgspec and
itself; `app/` never `workers/` (the worker process is built on the app, not the other way)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported(package: str) -> dict[str, set[str]]:
    """Each module of the package, with the top-level names of everything it imports."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                names.add(node.module.split(".")[0])
        found[str(path.relative_to(ROOT))] = names
    return found


def test_the_domain_is_pure() -> None:
    allowed = set(sys.stdlib_module_names) | {"msgspec", "domain"}
    for module, names in imported("domain").items():
        assert names <= allowed, (module, names - allowed)
    for module, names in imported("domain").items():
        assert not names & {"random", "time", "datetime", "uuid", "secrets", "os"}, module


@pytest.mark.parametrize("package", ["app"])
def test_the_app_does_not_import_the_workers(package: str) -> None:
    for module, names in imported(package).items():
        assert "workers" not in names, module
