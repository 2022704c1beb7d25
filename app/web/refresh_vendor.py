#!/usr/bin/env python3
"""Refresh the web client's vendored libraries from the npm registry.

    python app/web/refresh_vendor.py

For each package below it runs `npm pack NAME@VERSION`, copies the ES module files the client
imports into `app/web/static/vendor/` (rewriting bare imports such as `from "preact"` to the
vendored file, since the page uses no bundler and no import map), copies each licence, and
writes `VENDOR.md` with every file's version, licence and SHA-256. The page loads nothing from
elsewhere at run time. The output is committed; running this again with the same versions
reproduces it byte for byte.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tarfile
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent / "static" / "vendor"

#: package, version, {file in the package: file in vendor/}
PACKAGES: list[tuple[str, str, dict[str, str]]] = [
    ("preact", "11.2.0", {"dist/preact.mjs": "preact.mjs", "hooks/dist/hooks.mjs": "hooks.mjs"}),
    ("htm", "3.1.1", {"dist/htm.module.js": "htm.mjs"}),
    ("marked", "18.2.1", {"lib/marked.esm.js": "marked.mjs"}),
]
#: bare imports the vendored files make, and the vendored file that answers each
IMPORTS = {'from"preact"': 'from"./preact.mjs"', 'from "preact"': 'from "./preact.mjs"'}


def fetch(name: str, version: str, into: Path) -> Path:
    out = subprocess.run(
        ["npm", "pack", f"{name}@{version}", "--json", "--silent"],
        cwd=into,
        check=True,
        capture_output=True,
        text=True,
    )
    tgz = into / json.loads(out.stdout)[0]["filename"]
    folder = into / name
    with tarfile.open(tgz) as archive:
        archive.extractall(folder, filter="data")
    return folder / "package"


def main() -> None:
    HERE.mkdir(parents=True, exist_ok=True)
    rows = []
    with tempfile.TemporaryDirectory() as temp:
        for name, version, files in PACKAGES:
            package = fetch(name, version, Path(temp))
            licence = json.loads((package / "package.json").read_text())["license"]
            (HERE / f"{name}.LICENSE").write_bytes((package / "LICENSE").read_bytes())
            for source, target in files.items():
                text = (package / source).read_text()
                for bare, vendored in IMPORTS.items():
                    text = text.replace(bare, vendored)
                # no source maps are vendored: drop the comments that point to them
                text = "\n".join(
                    line for line in text.split("\n") if not line.startswith("//# sourceMappingURL")
                )
                (HERE / target).write_text(text)
                digest = hashlib.sha256(text.encode()).hexdigest()
                rows.append(
                    f"| `{target}` | {name} {version} `{source}` | {licence} | `{digest}` |"
                )
    (HERE / "VENDOR.md").write_text(
        "# Vendored libraries\n\n"
        "Made by `python app/web/refresh_vendor.py` from the npm registry; do not edit by hand. "
        "Bare imports are rewritten to the vendored files. Each package's licence is beside it "
        "(`NAME.LICENSE`).\n\n"
        "| file | from | licence | SHA-256 |\n| --- | --- | --- | --- |\n" + "\n".join(rows) + "\n"
    )


if __name__ == "__main__":
    main()
