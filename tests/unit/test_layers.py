"""The layers import only downwards: `domain/` nothing but the standard library, msgspec and
itself; `app/` never `workers/` (the worker process is built on the app, not the other way)."""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def imported(package: str, *, whole: bool = False) -> dict[str, set[str]]:
    """Each module of the package, with the top-level names of everything it imports (with
    `whole`, the dotted names of the modules and of what it imports from them)."""
    found: dict[str, set[str]] = {}
    for path in (ROOT / package).rglob("*.py"):
        names: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                names |= {alias.name if whole else alias.name.split(".")[0] for alias in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                if whole:
                    names |= {node.module, *(f"{node.module}.{a.name}" for a in node.names)}
                else:
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


#: The layers of `app/`, top first: a module imports only from its own layer and the layers
#: below it. `machine` and `live` stand side by side: neither imports the other. The modules
#: at the top of `app/` (the bootstrap, the app, the CLI, logging) are the top layer.
LAYERS: list[set[str]] = [
    {"top"},
    {"wire"},
    {"api"},
    {"machine", "live", "people"},
    {"commands"},
    {"store"},
    {"base"},
]
RANK = {layer: rank for rank, group in enumerate(LAYERS) for layer in group}


def layer_of(module: str) -> str:
    """`app.api.routes` -> api; `app.runtime` -> top."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 and parts[1] in RANK else "top"


def app_imports() -> dict[str, list[tuple[str, bool]]]:
    """Each module of app/ (dotted), with the app modules it imports and whether each import
    stands inside a function."""
    found: dict[str, list[tuple[str, bool]]] = {}
    for path in (ROOT / "app").rglob("*.py"):
        dotted = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        tree = ast.parse(path.read_text())
        nested = {
            id(sub)
            for node in ast.walk(tree)
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef)
            for sub in ast.walk(node)
        }
        targets: list[tuple[str, bool]] = []
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("app"):
                if node.module == "app":
                    names = [f"app.{alias.name}" for alias in node.names]
                else:
                    names = [node.module]
                targets += [(name, id(node) in nested) for name in names]
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.name.startswith("app."):
                        targets.append((alias.name, id(node) in nested))
        found[dotted] = targets
    return found


def test_every_module_of_the_app_has_a_layer() -> None:
    for path in (ROOT / "app").iterdir():
        if path.is_dir() and (path / "__init__.py").exists():
            assert path.name in RANK, f"app/{path.name} is in no layer of LAYERS"


def test_the_app_imports_only_its_own_layer_and_the_layers_below() -> None:
    upward = []
    for module, targets in app_imports().items():
        here = layer_of(module)
        for target, _ in targets:
            there = layer_of(target)
            if there != here and RANK[there] <= RANK[here]:
                upward.append(f"{module} ({here}) imports {target} ({there})")
    assert not upward, "\n".join(upward)


def test_no_import_inside_a_function_but_the_command_lines() -> None:
    """A late import is how a circle hides; only `python -m app` delays loading the server
    until it is asked to serve."""
    late = [
        f"{module} imports {target} in a function"
        for module, targets in app_imports().items()
        for target, nested in targets
        if nested and module != "app.__main__"
    ]
    assert not late, "\n".join(late)


def test_the_rules_never_import_what_makes_their_data() -> None:
    """Each game's `making/` (the scripts that write its fixed data and its pictures) stands
    apart: no module of the domain outside it imports it."""
    for module, names in imported("domain", whole=True).items():
        if "/making/" not in module:
            assert not any(".making" in name for name in names), module
