"""`app.wire.handshake` answers a plain upgrade with the bytes `websockets` writes for it, and
leaves every other request to `websockets` (which it never accepts where `websockets` refuses)."""

from __future__ import annotations

import random
import re

import pytest
from websockets.http11 import Request
from websockets.server import ServerProtocol

from app.wire.handshake import plain_upgrade

KEY = "dGhlIHNhbXBsZSBub25jZQ=="  # RFC 6455's example key
PLAIN = [
    ("Host", "127.0.0.1:8000"),
    ("Connection", "Upgrade"),
    ("Upgrade", "websocket"),
    ("Sec-WebSocket-Key", KEY),
    ("Sec-WebSocket-Version", "13"),
]
_DATE = re.compile(rb"Date: [^\r]*\r\n")


def request(
    headers: list[tuple[str, str]], line: str = "GET /api/games/g1/socket HTTP/1.1"
) -> bytes:
    lines = [line, *(f"{name}: {value}" for name, value in headers)]
    return ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1")


def by_websockets(raw: bytes) -> tuple[int, bytes, Request | None]:
    """What `websockets` answers (status and bytes), as the seat's socket asked it before."""
    protocol = ServerProtocol(max_size=65536)
    protocol.receive_data(raw)
    for event in protocol.events_received():
        if isinstance(event, Request):
            response = protocol.accept(event)
            protocol.send_response(response)
            return response.status_code, b"".join(protocol.data_to_send()), event
    return 400, b"".join(protocol.data_to_send()), None


def same_answer(raw: bytes) -> bool:
    """Whether `plain_upgrade` takes the request; if it does, its answer is `websockets'`."""
    plain = plain_upgrade(raw)
    if plain is None:
        return False
    status, answer, parsed = by_websockets(raw)
    assert status == 101
    assert _DATE.sub(b"", plain.answer) == _DATE.sub(b"", answer)
    assert _DATE.search(plain.answer) is not None
    assert parsed is not None
    assert plain.authorization == parsed.headers.get("Authorization")
    assert plain.forwarded == parsed.headers.get("X-Forwarded-For")
    return True


@pytest.mark.parametrize(
    "headers",
    [
        PLAIN,
        [(name.lower(), value) for name, value in PLAIN],
        [*PLAIN[:1], ("Connection", "keep-alive, Upgrade"), *PLAIN[2:]],
        [*PLAIN[:2], ("Upgrade", "WebSocket"), *PLAIN[3:]],
        [*PLAIN, ("Authorization", "Bearer seat.token"), ("X-Forwarded-For", "10.0.0.9")],
        [*PLAIN, ("Origin", "https://example.org"), ("User-Agent", "bot\t1.0")],
        [*PLAIN, ("Sec-WebSocket-Extensions", "permessage-deflate; client_max_window_bits")],
        [*PLAIN, ("Cookie", "session=x"), ("Accept-Language", "fr-CH, fr;q=0.9")],
    ],
)
def test_a_plain_upgrade_is_answered_as_websockets_answers_it(
    headers: list[tuple[str, str]],
) -> None:
    assert same_answer(request(headers))


def without(name: str) -> list[tuple[str, str]]:
    return [(n, v) for n, v in PLAIN if n != name]


def replaced(name: str, value: str) -> list[tuple[str, str]]:
    return [(n, value if n == name else v) for n, v in PLAIN]


@pytest.mark.parametrize(
    ("headers", "line"),
    [
        (without("Sec-WebSocket-Key"), None),
        (replaced("Sec-WebSocket-Key", "c2hvcnQ="), None),  # 5 bytes
        (replaced("Sec-WebSocket-Key", "not base64!!"), None),
        ([*PLAIN, ("Sec-WebSocket-Key", KEY)], None),  # twice
        (replaced("Sec-WebSocket-Version", "12"), None),
        (without("Sec-WebSocket-Version"), None),
        (without("Upgrade"), None),
        (replaced("Upgrade", "h2c"), None),
        (replaced("Upgrade", "websocket, h2c"), None),
        ([*PLAIN, ("Upgrade", "websocket")], None),
        (without("Connection"), None),
        (replaced("Connection", "keep-alive"), None),
        (replaced("Connection", "keep-alive, , Upgrade"), None),  # an empty element
        ([*PLAIN, ("Origin", "https://a.example"), ("Origin", "https://b.example")], None),
        ([*PLAIN, ("Authorization", "Bearer a"), ("Authorization", "Bearer b")], None),
        ([*PLAIN, ("Content-Length", "0")], None),
        ([*PLAIN, ("Transfer-Encoding", "chunked")], None),
        ([*PLAIN, ("Sec-WebSocket-Protocol", "chat")], None),
        ([*PLAIN, ("Bad Name", "x")], None),
        ([*PLAIN, ("Note", "bell\x07")], None),
        ([*PLAIN, ("Long", "x" * 8200)], None),
        ([*PLAIN, *[(f"X-{n}", "1") for n in range(130)]], None),
        (PLAIN, "POST /api/games/g1/socket HTTP/1.1"),
        (PLAIN, "GET /api/games/g1/socket HTTP/1.0"),
        (PLAIN, "GET /api/games/gé/socket HTTP/1.1"),
    ],
)
def test_any_other_request_is_left_to_websockets(
    headers: list[tuple[str, str]], line: str | None
) -> None:
    raw = request(headers) if line is None else request(headers, line)
    assert plain_upgrade(raw) is None


def test_a_request_not_whole_is_left_to_websockets() -> None:
    raw = request(PLAIN)
    assert plain_upgrade(raw[:-2]) is None
    assert plain_upgrade(raw + b"\x81\x05hello") is None


def test_what_it_takes_websockets_accepts_alike() -> None:
    """Seeded mutations of plain requests: whatever `plain_upgrade` takes, `websockets`
    accepts with the same answer; most plain ones are taken."""
    rng = random.Random(6455)
    pieces = ["Upgrade", "upgrade", "websocket", "13", KEY, ",", " ", "\t", ":", "keep-alive"]
    pieces += ["Origin", "Authorization", "Bearer x", "é", "", "x" * 40, "h2c", "Connection"]
    taken = 0
    for _ in range(3000):
        headers = list(PLAIN)
        for _ in range(rng.randint(0, 3)):
            at = rng.randrange(len(headers))
            name, value = headers[at]
            match rng.randrange(5):
                case 0:
                    headers[at] = (name, value + rng.choice(pieces))
                case 1:
                    headers[at] = (name, rng.choice(pieces))
                case 2:
                    headers.insert(at, (rng.choice(pieces) or "X", rng.choice(pieces)))
                case 3:
                    del headers[at]
                case _:
                    headers[at] = (name.upper(), value)
            if not headers:
                headers = list(PLAIN)
        raw = request(headers)
        if same_answer(raw):
            taken += 1
        else:
            status, _, _ = by_websockets(raw)
            assert plain_upgrade(raw) is None  # left to websockets, whatever it answers
            assert status in (101, 400, 426)
    assert taken > 300
