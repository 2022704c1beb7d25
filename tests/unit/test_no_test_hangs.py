"""No test can hang: pytest-timeout is on for the suite, with the limit pyproject.toml sets."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_suite_sets_a_limit_for_every_test() -> None:
    options = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["pytest"]["ini_options"]
    assert 0 < options["timeout"] <= 300


def test_a_test_that_hangs_is_stopped_and_fails(tmp_path: Path) -> None:
    (tmp_path / "test_hang.py").write_text("import time\n\ndef test_hang():\n    time.sleep(60)\n")
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-o", "timeout=1"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=50,
    )
    assert run.returncode == 1, run.stdout
    assert "Timeout" in run.stdout
