"""Every refusal is a named error whose class gives its code, and the edge gives each kind its
status (`app.api.refusals.STATUS`): so each code answers one status, and `docs/api.md`'s table
of refusals lists every code of the code with that status, and no other."""

from __future__ import annotations

import importlib
import pkgutil
import re
from collections import defaultdict
from collections.abc import Iterator
from pathlib import Path

import app
import domain
from app.api.refusals import status_of
from app.commands.errors import ServiceError
from domain.errors import OptionError, RuleError

ROOT = Path(__file__).resolve().parents[2]


def every_module() -> None:
    """Import every module of `app` and `domain`, so that every error class is defined."""
    for package in (app, domain):
        for found in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if not found.name.endswith("__main__") and ".making" not in found.name:
                importlib.import_module(found.name)


def kinds(root: type[Exception]) -> Iterator[type[Exception]]:
    """`root` and every class below it that the service defines (not the tests)."""
    if root.__module__.split(".")[0] in ("app", "domain"):
        yield root
    for below in root.__subclasses__():
        yield from kinds(below)


def codes_of(kind: type[Exception]) -> list[str]:
    if issubclass(kind, OptionError):  # its code names the option; the caller's: unknown_option
        return ["bad_option.<name>", "unknown_option"]
    return [str(getattr(kind, "code"))]  # noqa: B009


def in_the_code() -> dict[str, set[int]]:
    every_module()
    statuses: dict[str, set[int]] = defaultdict(set)
    for root in (ServiceError, RuleError):
        for kind in kinds(root):
            for code in codes_of(kind):
                statuses[code].add(status_of(kind))
    return statuses


def in_the_docs() -> dict[str, set[int]]:
    page = (ROOT / "docs" / "api.md").read_text()
    section = page.split("\n## Refusals\n", 1)[1].split("\n## ", 1)[0]
    statuses: dict[str, set[int]] = defaultdict(set)
    for row in re.findall(r"^\| (\d{3})[^|]*\| (.*) \|$", section, re.MULTILINE):
        status, cell = int(row[0]), row[1]
        while re.search(r"\([^()]*\)", cell):
            cell = re.sub(r"\([^()]*\)", "", cell)  # what stands in brackets explains a code
        for code in re.findall(r"`([a-z][a-z0-9_]*(?:\.<name>)?)`", cell):
            statuses[code].add(status)
    return statuses


def test_each_refusal_code_answers_one_status() -> None:
    many = {code: sorted(s) for code, s in in_the_code().items() if len(s) > 1}
    assert not many, many


def test_the_docs_list_each_code_once() -> None:
    many = {code: sorted(s) for code, s in in_the_docs().items() if len(s) > 1}
    assert not many, many


def test_the_docs_and_the_code_have_the_same_codes_with_the_same_statuses() -> None:
    code, docs = in_the_code(), in_the_docs()
    assert docs, "no refusal found in docs/api.md"
    assert sorted(set(code) - set(docs)) == [], "in the code, not in docs/api.md"
    assert sorted(set(docs) - set(code)) == [], "in docs/api.md, not in the code"
    differ = {c: (sorted(code[c]), sorted(docs[c])) for c in code if code[c] != docs[c]}
    assert not differ, differ
