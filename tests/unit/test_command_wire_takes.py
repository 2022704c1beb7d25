"""Which requests `app.wire.commandwire` answers itself (a program's command: a seat token, no
cookie, a body within the limit) and which it passes on to the app untouched. What it answers
is compared with the app's route in `tests/e2e/test_command_wire.py`."""

from __future__ import annotations

from typing import Any

import pytest

from app.wire.commandwire import CommandWire, program_command

TOKEN = b"Bearer da8dGa9hPMk7tmAmAqlL411u9Lp-NQhD"
PLAIN = [(b"authorization", TOKEN), (b"content-length", b"24")]


@pytest.mark.parametrize(
    ("headers", "taken"),
    [
        (PLAIN, ("da8dGa9hPMk7tmAmAqlL411u9Lp-NQhD", None)),
        ([*PLAIN, (b"idempotency-key", b"k-1")], ("da8dGa9hPMk7tmAmAqlL411u9Lp-NQhD", "k-1")),
        ([(b"authorization", b"bearer abc"), (b"content-length", b"0")], ("abc", None)),
        ([*PLAIN, (b"cookie", b"session=x")], None),  # a browser: the app checks its CSRF
        ([*PLAIN, (b"transfer-encoding", b"chunked")], None),
        ([(b"authorization", b"Bearer bgp_" + b"x" * 40), (b"content-length", b"2")], None),
        ([(b"authorization", b"Basic eA=="), (b"content-length", b"2")], None),
        ([(b"content-length", b"2")], None),  # no token
        ([(b"authorization", TOKEN)], None),  # no length
        ([(b"authorization", TOKEN), (b"content-length", b"65537")], None),  # past the limit
        ([(b"authorization", TOKEN), (b"content-length", b"-1")], None),
        ([*PLAIN, (b"authorization", TOKEN)], None),  # twice
        ([*PLAIN, (b"content-length", b"24")], None),
        ([*PLAIN, (b"idempotency-key", b"a"), (b"idempotency-key", b"b")], None),
    ],
)
def test_a_program_s_command_is_known_by_its_headers(
    headers: list[tuple[bytes, bytes]], taken: tuple[str, str | None] | None
) -> None:
    assert program_command(headers, 64 * 1024) == taken


class App:
    """An ASGI app that keeps the scopes it is given."""

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.state = None

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        self.seen.append(f"{scope['type']} {scope.get('method', '')} {scope.get('path', '')}")


@pytest.mark.parametrize(
    "scope",
    [
        {"type": "lifespan"},
        {"type": "http", "method": "GET", "path": "/api/games/g/commands", "headers": PLAIN},
        {"type": "http", "method": "POST", "path": "/api/games/g/command", "headers": PLAIN},
        {"type": "http", "method": "POST", "path": "/api/games/g/h/commands", "headers": PLAIN},
        {"type": "http", "method": "POST", "path": "/api/games//commands", "headers": PLAIN},
        {"type": "http", "method": "POST", "path": "/api/games/g/commands/", "headers": PLAIN},
        {"type": "http", "method": "POST", "path": "/api/games/g/commands", "headers": []},
        {"type": "websocket", "path": "/api/games/g/commands", "headers": PLAIN},
    ],
)
async def test_everything_else_goes_on_to_the_app(scope: dict[str, Any]) -> None:
    app = App()
    await CommandWire(app, 64 * 1024)(scope, None, None)  # type: ignore[arg-type]
    assert app.seen == [f"{scope['type']} {scope.get('method', '')} {scope.get('path', '')}"]
