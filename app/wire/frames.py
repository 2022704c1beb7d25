"""WebSocket frames (RFC 6455, section 5) as a server reads and writes them, for
`app.wire.seatwire`: no extensions, no subprotocol.

`FrameReader` takes the client's bytes as they come and gives back whole messages (fragments
joined) and control frames, or raises `Failure` with the close code the server answers (1002: a
protocol error; 1007: a text message that is not UTF-8; 1009: a message over the size limit or
of more than `MAX_FRAGMENTS` frames, told from the frame's header before its payload is taken
in). So what one message can hold is bounded by both its bytes and its frames. Unmasking is the
`websockets` library's C function.
"""

from __future__ import annotations

import struct

from websockets.speedups import apply_mask

CONTINUATION, TEXT, BINARY, CLOSE, PING, PONG = 0x0, 0x1, 0x2, 0x8, 0x9, 0xA
_DATA = (CONTINUATION, TEXT, BINARY)
_CONTROL = (CLOSE, PING, PONG)
#: Close codes a client may send (RFC 6455 7.4 and IANA's registry; 1004-1006 and 1015 never).
_CLIENT_CODES = frozenset((1000, 1001, 1002, 1003, *range(1007, 1015)))
#: Frames one message may come in (a client that fragments a command finer is not one).
MAX_FRAGMENTS = 256


class Failure(Exception):
    """The client broke the protocol: the server closes with `code`."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(reason)
        self.code, self.reason = code, reason


def frame(opcode: int, payload: bytes = b"") -> bytes:
    """One final, unmasked frame (as a server sends them)."""
    size = len(payload)
    if size < 126:
        return bytes((0x80 | opcode, size)) + payload
    if size < 1 << 16:
        return struct.pack("!BBH", 0x80 | opcode, 126, size) + payload
    return struct.pack("!BBQ", 0x80 | opcode, 127, size) + payload


def close_payload(code: int, reason: str) -> bytes:
    return struct.pack("!H", code) + reason.encode()[:123]


def close_code(payload: bytes) -> int | None:
    """The code of a client's close frame (None: it gave none); `Failure` when it is not one
    a client may send, or its reason is not UTF-8."""
    if not payload:
        return None
    if len(payload) < 2:
        raise Failure(1002, "a close frame's code is two bytes")
    (code,) = struct.unpack("!H", payload[:2])
    if code not in _CLIENT_CODES and not 3000 <= code <= 4999:
        raise Failure(1002, f"close code {code} is not one a client may send")
    try:
        payload[2:].decode()
    except UnicodeDecodeError:
        raise Failure(1007, "a close reason is UTF-8") from None
    return int(code)


class FrameReader:
    """The client's frames, read from its bytes as they come."""

    def __init__(self, max_message: int) -> None:
        self.max_message = max_message
        self.buffer = bytearray()
        self.kind: int | None = None  # TEXT or BINARY while a fragmented message is read
        self.fragments: list[bytes] = []
        self.size = 0  # of the fragments so far
        self.count = 0  # the fragments so far

    def feed(self, data: bytes) -> list[tuple[int, bytes]]:
        """What the bytes complete: (TEXT or BINARY, a whole message), or (CLOSE, PING or PONG,
        the frame's payload); in order."""
        buffer = self.buffer
        buffer += data
        out: list[tuple[int, bytes]] = []
        while len(buffer) >= 2:
            first, second = buffer[0], buffer[1]
            fin, opcode, size = first & 0x80, first & 0x0F, second & 0x7F
            if first & 0x70:
                raise Failure(1002, "no extension was agreed: reserved bits must be 0")
            if not second & 0x80:
                raise Failure(1002, "a client's frames are masked")
            start = 2
            if size == 126:
                if len(buffer) < 4:
                    break
                (size,) = struct.unpack_from("!H", buffer, 2)
                start = 4
            elif size == 127:
                if len(buffer) < 10:
                    break
                (size,) = struct.unpack_from("!Q", buffer, 2)
                start = 10
            self._check(fin, opcode, size)
            end = start + 4 + size
            if len(buffer) < end:
                break
            payload = apply_mask(bytes(buffer[start + 4 : end]), bytes(buffer[start : start + 4]))
            del buffer[:end]
            if opcode in _CONTROL:
                out.append((opcode, payload))
            elif fin and self.kind is None:
                out.append((opcode, _text(payload) if opcode == TEXT else payload))
            else:
                if self.kind is None:
                    self.kind = opcode
                if payload:
                    self.fragments.append(payload)
                self.size += size
                self.count += 1
                if fin:
                    whole = b"".join(self.fragments)
                    out.append((self.kind, _text(whole) if self.kind == TEXT else whole))
                    self.kind, self.fragments, self.size, self.count = None, [], 0, 0
        return out

    def _check(self, fin: int, opcode: int, size: int) -> None:
        if opcode in _CONTROL:
            if not fin or size > 125:
                raise Failure(1002, "a control frame is whole and at most 125 bytes")
            return
        if opcode not in _DATA:
            raise Failure(1002, f"no frame has opcode {opcode}")
        if opcode == CONTINUATION and self.kind is None:
            raise Failure(1002, "a continuation frame without a message to continue")
        if opcode != CONTINUATION and self.kind is not None:
            raise Failure(1002, "a new message before the last one ended")
        if self.size + size > self.max_message:
            raise Failure(1009, f"a message is at most {self.max_message} bytes")
        if self.count >= MAX_FRAGMENTS:
            raise Failure(1009, f"a message comes in at most {MAX_FRAGMENTS} frames")


def _text(payload: bytes) -> bytes:
    """A text message's payload, once it is known to be UTF-8."""
    try:
        payload.decode()
    except UnicodeDecodeError:
        raise Failure(1007, "a text message is UTF-8") from None
    return payload
