"""WebSocket frames as the seat socket reads and writes them (`app.wire.frames`): client frames
built by the `websockets` library, read back whole however the bytes are cut, and every breach of
the protocol answered with its close code."""

from __future__ import annotations

import struct

import pytest
from websockets.frames import Frame, Opcode

from app.wire.frames import (
    BINARY,
    CLOSE,
    MAX_FRAGMENTS,
    PING,
    TEXT,
    Failure,
    FrameReader,
    close_code,
    close_payload,
    frame,
)


def client(opcode: Opcode, data: bytes, fin: bool = True) -> bytes:
    """A frame as a client sends it (masked), by websockets."""
    return Frame(opcode, data, fin).serialize(mask=True)


def fails(data: bytes, code: int, max_message: int = 1024) -> None:
    with pytest.raises(Failure) as failure:
        FrameReader(max_message).feed(data)
    assert failure.value.code == code


@pytest.mark.parametrize("size", [0, 1, 125, 126, 65535, 65536])
def test_a_message_of_any_size_is_read_whole_however_its_bytes_are_cut(size: int) -> None:
    payload = bytes(32 + i % 95 for i in range(size))  # a text message is UTF-8
    data = client(Opcode.TEXT, payload) + client(Opcode.BINARY, b"next")
    at_once = FrameReader(1 << 20).feed(data)
    assert at_once == [(TEXT, payload), (BINARY, b"next")]
    reader, got = FrameReader(1 << 20), []
    step = max(1, len(data) // 97)
    for start in range(0, len(data), step):
        got += reader.feed(data[start : start + step])
    assert got == at_once and not reader.buffer


def test_fragments_are_joined_and_control_frames_may_come_between_them() -> None:
    data = client(Opcode.TEXT, b'{"type": ', fin=False)
    data += client(Opcode.PING, b"are you there")
    data += client(Opcode.CONT, b'"view"', fin=False) + client(Opcode.CONT, b"}")
    assert FrameReader(1024).feed(data) == [(PING, b"are you there"), (TEXT, b'{"type": "view"}')]


def test_a_message_over_the_limit_is_refused_from_its_header() -> None:
    header_only = client(Opcode.TEXT, bytes(2000))[:8]  # the payload never needs to come
    fails(header_only, 1009)
    fragments = client(Opcode.TEXT, bytes(600), fin=False) + client(Opcode.CONT, bytes(600))
    fails(fragments, 1009)
    assert FrameReader(1200).feed(fragments) == [(TEXT, bytes(1200))]


def test_breaches_of_the_protocol_are_1002() -> None:
    unmasked = Frame(Opcode.TEXT, b"hi").serialize(mask=False)
    fails(unmasked, 1002)
    reserved = bytearray(client(Opcode.TEXT, b"hi"))
    reserved[0] |= 0x40  # RSV1: compression, never agreed
    fails(bytes(reserved), 1002)
    unknown = bytearray(client(Opcode.TEXT, b"hi"))
    unknown[0] = 0x80 | 0x3
    fails(bytes(unknown), 1002)
    unfinished_ping = bytearray(client(Opcode.PING, b"x"))
    unfinished_ping[0] &= 0x7F
    fails(bytes(unfinished_ping), 1002)
    fails(client(Opcode.CONT, b"no start"), 1002)
    fails(client(Opcode.TEXT, b"a", fin=False) + client(Opcode.TEXT, b"b"), 1002)
    long_ping = bytearray(client(Opcode.BINARY, bytes(126)))
    long_ping[0] = 0x80 | PING
    fails(bytes(long_ping), 1002)


def test_close_codes_a_client_may_send() -> None:
    assert close_code(b"") is None
    assert close_code(struct.pack("!H", 1000) + b"bye") == 1000
    assert close_code(struct.pack("!H", 4001)) == 4001
    for code in (999, 1004, 1005, 1006, 1015, 2999, 5000):
        with pytest.raises(Failure) as failure:
            close_code(struct.pack("!H", code))
        assert failure.value.code == 1002, code
    with pytest.raises(Failure):
        close_code(b"\x03")
    with pytest.raises(Failure) as failure:
        close_code(struct.pack("!H", 1000) + b"\xff")
    assert failure.value.code == 1007


@pytest.mark.parametrize(("size", "header"), [(5, b"\x81\x05"), (126, b"\x81\x7e\x00\x7e")])
def test_the_servers_frames_are_final_and_unmasked(size: int, header: bytes) -> None:
    assert frame(TEXT, bytes(size)) == header + bytes(size)
    big = frame(TEXT, bytes(70_000))
    assert big[:10] == b"\x81\x7f" + struct.pack("!Q", 70_000) and len(big) == 70_010
    closing = frame(CLOSE, close_payload(1012, "the server is restarting"))
    assert closing[:4] == b"\x88\x1a\x03\xf4"
    assert close_code(closing[2:]) == 1012


def test_a_message_comes_in_a_bounded_number_of_frames() -> None:
    """Empty continuations cost the client 6 bytes each: they must not pile up."""
    at_most = client(Opcode.TEXT, b"{", fin=False)
    at_most += client(Opcode.CONT, b"", fin=False) * (MAX_FRAGMENTS - 2) + client(Opcode.CONT, b"}")
    assert FrameReader(1024).feed(at_most) == [(TEXT, b"{}")]
    flood = client(Opcode.TEXT, b"{", fin=False) + client(Opcode.CONT, b"", fin=False) * 10_000
    fails(flood, 1009)
    reader = FrameReader(1024)
    with pytest.raises(Failure):
        for _ in range(10_000):
            reader.feed(client(Opcode.CONT if reader.kind else Opcode.TEXT, b"", fin=False))
    assert len(reader.fragments) <= 1  # empty fragments are counted, never kept


def test_a_text_message_that_is_not_utf8_is_1007() -> None:
    fails(client(Opcode.TEXT, b"\xff\xfe"), 1007)
    split = "é".encode()  # a character cut between two fragments is still whole once joined
    joined = client(Opcode.TEXT, split[:1], fin=False) + client(Opcode.CONT, split[1:])
    assert FrameReader(1024).feed(joined) == [(TEXT, split)]
    fails(client(Opcode.TEXT, b"ok", fin=False) + client(Opcode.CONT, b"\xc3"), 1007)
    assert FrameReader(1024).feed(client(Opcode.BINARY, b"\xff")) == [(BINARY, b"\xff")]
