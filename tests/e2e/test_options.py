"""`OPTIONS` of every address the service serves answers 204 with an `Allow` header that lists
every method the address takes. Litestar 2 answers by itself; where two handlers share an
address its own answer lists the methods of one of them only (litestar-org/litestar#4169,
fixed in Litestar 3), which is why `app.api.allow.with_options` answers at those addresses
(`/api/games`, `/api/tables`, `/api/session`, `/api/me/tokens`, a game's chat and rematch)."""

from __future__ import annotations

import re

import httpx
import pytest
from litestar.routes import HTTPRoute

from app.base.config import Settings
from app.main import create_app


def addresses() -> dict[str, str]:
    """Each address (its parameters filled in) with the `Allow` it should answer."""
    found = {}
    for route in create_app(Settings()).routes:
        if isinstance(route, HTTPRoute):
            methods = {m for handler in route.route_handlers for m in handler.http_methods}
            path = re.sub(r"\{\w+:path\}", "app.js", route.path)
            found[re.sub(r"\{\w+:\w+\}", "x", path)] = ", ".join(sorted(methods))
    return found


ADDRESSES = addresses()


def test_the_addresses_with_two_handlers_are_among_them() -> None:
    assert ADDRESSES["/api/games"] == "GET, OPTIONS, POST"
    assert ADDRESSES["/api/session"] == "DELETE, OPTIONS, POST"
    assert ADDRESSES["/api/games/x/chat"] == "GET, OPTIONS, POST"


#: Litestar's static files router: its GET and HEAD are two handlers of its own, out of reach.
LITESTARS_OWN = pytest.mark.xfail(strict=True, reason="litestar-org/litestar#4169: no HEAD")


@pytest.mark.parametrize(
    "path",
    [
        pytest.param(p, marks=LITESTARS_OWN) if p.startswith("/static/") else p
        for p in sorted(ADDRESSES)
    ],
)
def test_options_lists_every_method_of_the_address(server: str, path: str) -> None:
    answer = httpx.options(f"{server}{path}")
    assert (answer.status_code, answer.headers.get("allow")) == (204, ADDRESSES[path])
    assert answer.content == b""
