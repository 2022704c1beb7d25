#!/usr/bin/env python3
"""One entry point for a fresh machine: `python3 dev.py serve` or `python3 dev.py test`.

It makes `.venv` beside this file and installs the project into it (again only when
pyproject.toml changes), then runs the service or the whole test suite inside it.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PYTHON = BIN / "python"
STAMP = VENV / ".installed"


def ensure_venv() -> None:
    wanted = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text() == wanted and PYTHON.exists():
        return
    if not PYTHON.exists():
        print("dev: creating .venv", flush=True)
        venv.create(VENV, with_pip=True)
    print("dev: installing the project and its test tools into .venv", flush=True)
    pip = [str(PYTHON), "-m", "pip", "install", "--disable-pip-version-check", "-q"]
    subprocess.run([*pip, "-U", "pip"], check=True)
    subprocess.run([*pip, "-e", f"{ROOT}[dev]"], check=True)
    STAMP.write_text(wanted)


def run(*args: str) -> int:
    print("dev: $", " ".join(args), flush=True)
    return subprocess.run([str(PYTHON) if a == "python" else a for a in args], cwd=ROOT).returncode


#: Three test processes on two cores: much of the suite waits on real clocks (rounds, AI think
#: time, a browser) rather than computing, so a third process fills the waits. Every test, the
#: browser's too, goes to whichever process is free (each process starts its own servers and
#: browsers: tests/browser/conftest.py).
PARALLEL = ("-n", "3")


def test(extra: list[str]) -> int:
    checks = [
        ("python", "-m", "ruff", "check", "."),
        ("python", "-m", "mypy", "domain", "app", "workers", "bench", "examples"),
        ("python", "-m", "pytest", *PARALLEL, *extra),
    ]
    for check in checks:
        code = run(*check)
        if code:
            return code
    return 0


def main(argv: list[str]) -> int:
    if not argv or argv[0] not in ("serve", "test"):
        print(__doc__)
        return 2
    ensure_venv()
    if argv[0] == "serve":
        return run("python", "-m", "app", *argv[1:])
    return test(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
