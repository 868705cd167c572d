"""Oversized and odd frames: the limits are exactly the documented ones; nothing odd takes a socket down."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hostilekit import (
    BINARY,
    CONTINUATION,
    PING,
    PONG,
    TEXT,
    bridge,
    frame,
    message,
    raw_websocket,
    settings_for,
)

from bridge.protocol import MAX_FRAME_BYTES
from bridge.server.app import READ_LIMIT

pytestmark = pytest.mark.asyncio


def _ping_of_size(size: int, id: str = "big") -> bytes:
    """A ``ping`` frame whose payload is exactly ``size`` bytes (padded with JSON whitespace: a
    ``ping`` declares no field to pad with, and an undeclared one is refused)."""
    head = json.dumps({"type": "ping", "id": id})
    payload = head[:-1] + " " * (size - len(head)) + "}"
    assert len(payload) == size
    return frame(payload)


async def test_a_frame_of_exactly_the_read_limit_gets_too_large_and_keeps_the_socket(tmp_path: Path) -> None:
    """docs/protocol.md: frames *over* 1 MiB close the socket; 1 MiB itself is answered."""
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(_ping_of_size(READ_LIMIT))
        error = await raw.reply()
        assert (error["code"], error["id"]) == ("too_large", "big")
        await raw.send(message("ping", id="after"))
        assert await raw.reply() == {"type": "pong", "id": "after"}
        raw.close()


async def test_one_byte_over_the_read_limit_closes_with_1009(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(_ping_of_size(READ_LIMIT + 1))
        assert await raw.close_code() == 1009
        raw.close()


async def test_the_frame_size_limit_is_inclusive_too(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(_ping_of_size(MAX_FRAME_BYTES, "edge"), _ping_of_size(MAX_FRAME_BYTES + 1, "over"))
        assert await raw.reply() == {"type": "pong", "id": "edge"}
        assert (await raw.reply())["code"] == "too_large"
        raw.close()


async def test_odd_frames_get_errors_and_the_socket_serves_on(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        # A message split over three frames is one message.
        await raw.send(
            frame('{"type": "pi', fin=False),
            frame('ng", "id"', CONTINUATION, fin=False),
            frame(': "f"}', CONTINUATION),
        )
        assert await raw.reply() == {"type": "pong", "id": "f"}
        # Text that is not UTF-8, binary frames, JSON nested thirty thousand deep.
        await raw.send(frame(b'{"type": "ping", "id": "\xff\xfe"}'))
        assert (await raw.reply())["code"] == "bad_json"
        await raw.send(frame(b'{"type": "ping"}', BINARY))
        assert (await raw.reply())["code"] == "invalid"
        await raw.send(
            frame('{"type": "odds", "id": "deep", "request": ' + "[" * 30_000 + "]" * 30_000 + "}")
        )
        assert (await raw.reply())["code"] == "invalid"
        # A websocket-level ping is answered by a websocket-level pong, carrying the same bytes.
        await raw.send(frame(b"are you there", PING))
        assert await raw.receive() == (PONG, b"are you there")
        await raw.send(message("ping", id="last"))
        assert await raw.receive() == (TEXT, b'{"type":"pong","id":"last"}')
        raw.close()


async def test_a_frame_with_a_reserved_opcode_closes_with_protocol_error(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(frame(b"??", 0x3))
        assert await raw.close_code() == 1002
        raw.close()
