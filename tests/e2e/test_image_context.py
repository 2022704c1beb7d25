"""The Docker image ships everything the service serves: the files the Dockerfile copies, laid
out as in the image, serve every page, script, style, rules page and picture the pages link to."""

from __future__ import annotations

import re
import shutil
from collections import deque
from pathlib import Path
from urllib.parse import urljoin

import httpx

from tests.processes import ROOT, start_server, stop

#: What a page, a script or a rules page links to.
LINKS = [
    re.compile(r"""(?:href|src)=["'](/[^"'#?$]*)["']"""),  # HTML
    re.compile(r"""(?:from|import)\s*\(?\s*["']([./][^"']+\.m?js)["']"""),  # ES modules
    re.compile(r"""!\[[^\]]*\]\(([^)\s]+)\)"""),  # Markdown pictures
]


def image_context(into: Path) -> Path:
    """The files of the Dockerfile's COPY lines, where the image has them (its WORKDIR)."""
    for line in (ROOT / "Dockerfile").read_text().splitlines():
        words = line.split()
        if not words or words[0] != "COPY":
            continue
        *sources, destination = words[1:]
        for source in sources:
            target = (
                into / destination / Path(source).name
                if destination.endswith("/")
                else (into / destination)
            )
            if (ROOT / source).is_dir():
                shutil.copytree(ROOT / source, target, ignore=shutil.ignore_patterns("__pycache__"))
            else:
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copy(ROOT / source, target)
    return into


def linked(path: str, body: str) -> list[str]:
    found = []
    for pattern in LINKS:
        for link in pattern.findall(body):
            if path.startswith("/api/games/types/"):  # a rules page's pictures
                link = f"/rules-files/{link}"
            found.append(urljoin(path, link))
    return found


def test_the_image_serves_every_route_its_pages_link_to(tmp_path: Path) -> None:
    context = image_context(tmp_path / "srv")
    assert not (context / "tests").exists() and (context / "app").is_dir()
    api, base = start_server({"REDIS_URL": ""}, tmp_path / "api.log", cwd=context)
    try:
        with httpx.Client(base_url=base, timeout=10) as client:
            names = [t["name"] for t in client.get("/api/games/types").json()]
            start = ["/", *(f"/rules/{n}" for n in names)]
            start += [f"/api/games/types/{n}/rules" for n in names]  # what /rules/NAME fetches
            queue, seen, broken = deque(start), set(start), []
            while queue:
                path = queue.popleft()
                answer = client.get(path)
                if answer.status_code != 200:
                    broken.append((path, answer.status_code))
                    continue
                for link in linked(path, answer.text):
                    if link not in seen and not link.startswith("/api/games/{"):
                        seen.add(link)
                        queue.append(link)
        assert not broken, broken
        assert any(p.startswith("/rules-files/") for p in seen), sorted(seen)
        assert any(p.endswith("preact.mjs") for p in seen), sorted(seen)
    finally:
        stop(api)
