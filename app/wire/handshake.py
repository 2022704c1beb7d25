"""The answer to a plain WebSocket upgrade, without `websockets`' sans-I/O parser.

Every game a seat plays opens a socket, and `websockets`' `ServerProtocol` (its generator
parser, its header objects and checks, its response object) cost about as much as a command.
A request that is plain (the upgrade uvicorn hands on, whole: `GET`, HTTP/1.1, headers that
`websockets` would parse alike, one `Upgrade: websocket`, a `Connection` with `upgrade`, one
valid `Sec-WebSocket-Key`, `Sec-WebSocket-Version: 13`, no body, no subprotocol asked for, at
most one `Origin`, `Authorization` and `X-Forwarded-For`) is answered here with the bytes
`websockets` would write; anything else gets `None`, and `ServerProtocol` judges it and says
what is wrong (`tests/unit/test_handshake.py` compares both on every kind of request).
"""

from __future__ import annotations

import base64
import binascii
import email.utils
import hashlib
import re
import time
from typing import NamedTuple

#: RFC 6455's GUID, hashed with the client's key.
_GUID = b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11"
#: A header line as `websockets` parses it: a token, a colon, a value of visible characters.
_HEADER = re.compile(rb"([-!#$%&'*+.^_`|~0-9a-zA-Z]+):[ \t]*([\x09\x20-\x7e\x80-\xff]*?)[ \t]*")
_TOKEN = re.compile(rb"[-!#$%&'*+.^_`|~0-9a-zA-Z]+")
#: At most this many headers, each line at most this long (`websockets`' own limits).
_MOST_HEADERS, _LONGEST_LINE = 128, 8192
#: Headers that send the request to `websockets`: a body, or a subprotocol to choose.
_DECLINED = frozenset({b"transfer-encoding", b"content-length", b"sec-websocket-protocol"})
#: Headers of which one is taken.
_ONCE = frozenset(
    {
        b"upgrade",
        b"sec-websocket-key",
        b"sec-websocket-version",
        b"origin",
        b"authorization",
        b"x-forwarded-for",
    }
)


class Upgrade(NamedTuple):
    """A plain upgrade: its answer, and what the seat's socket takes from its headers."""

    answer: bytes
    authorization: str | None
    forwarded: str | None


def plain_upgrade(request: bytes) -> Upgrade | None:
    """The upgrade and its 101 answer when `request` (the whole request: its line, its headers
    and the blank line) is plain as above; None for anything else."""
    if not request.endswith(b"\r\n\r\n"):
        return None
    lines = request[:-4].split(b"\r\n")
    start = lines[0]
    if not start.startswith(b"GET ") or not start.endswith(b" HTTP/1.1") or not start.isascii():
        return None
    if len(lines) - 1 > _MOST_HEADERS or any(len(line) > _LONGEST_LINE for line in lines):
        return None
    once: dict[bytes, bytes] = {}
    upgrade_asked = False
    for line in lines[1:]:
        found = _HEADER.fullmatch(line)
        if found is None:
            return None
        name, value = found.group(1).lower(), found.group(2)
        if name in _DECLINED:
            return None
        if name in _ONCE:
            if name in once:
                return None
            once[name] = value
        elif name == b"connection":
            tokens = [token.strip(b" \t") for token in value.split(b",")]
            if not all(_TOKEN.fullmatch(token) for token in tokens):
                return None
            upgrade_asked = upgrade_asked or any(t.lower() == b"upgrade" for t in tokens)
    key = once.get(b"sec-websocket-key")
    if (
        not upgrade_asked
        or once.get(b"upgrade", b"").lower() != b"websocket"
        or once.get(b"sec-websocket-version") != b"13"
        or key is None
        or not _key_ok(key)
    ):
        return None
    authorization, forwarded = once.get(b"authorization"), once.get(b"x-forwarded-for")
    return Upgrade(
        _answer(key),
        None if authorization is None else authorization.decode("latin-1"),
        None if forwarded is None else forwarded.decode("latin-1"),
    )


def _key_ok(key: bytes) -> bool:
    try:
        return len(base64.b64decode(key, validate=True)) == 16
    except binascii.Error:
        return False


def _answer(key: bytes) -> bytes:
    accept = base64.b64encode(hashlib.sha1(key + _GUID).digest())
    return b"".join(
        (
            b"HTTP/1.1 101 Switching Protocols\r\nDate: ",
            _date(),
            b"\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ",
            accept,
            b"\r\n\r\n",
        )
    )


_dated: tuple[int, bytes] = (0, b"")


def _date() -> bytes:
    """The Date header's value (RFC 7231's), worked out once a second."""
    global _dated
    now = int(time.time())
    if _dated[0] != now:
        _dated = (now, email.utils.formatdate(now, usegmt=True).encode())
    return _dated[1]
