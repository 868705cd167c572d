"""Tools for treating the bridge the way a hostile or clumsy world would.

A raw websocket client (frames built by hand, written in one TCP write, read or never read), bridges
started the way ``volley serve`` starts them (``devkit.serve``: in this process, held to stopping in time,
or as a real ``volley serve`` process), and what the door and the server hold (open sockets).
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import json
import os
import socket
import struct
from collections.abc import Iterable
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from bridge.server.app import CONNECTIONS, BridgeSettings, Serving
from bridge.server.door import Door
from bridge.server.gate import GATE
from bridge.server.outbox import Pace
from devkit.serve import BUDGET_S, TOKEN, bridge_settings
from devkit.serve import bridge as serve_bridge

TEXT, BINARY, CLOSE, PING, PONG, CONTINUATION = 0x1, 0x2, 0x8, 0x9, 0xA, 0x0


def settings_for(tmp: Path, **changes: Any) -> BridgeSettings:
    """Test settings: small caps (this process holds both ends of every socket), no rules warm-up."""
    door = Door(max_connections=24, max_strangers=16, request_timeout=5.0)
    return replace(bridge_settings(tmp / "data", door=door, pace=Pace()), **changes)


#: However hostile the test, the bridge must stop within this many seconds when asked (a quarter of
#: the budget: 15 s on an idle machine).
STOP_WITHIN = BUDGET_S / 4


def bridge(settings: BridgeSettings) -> contextlib.AbstractAsyncContextManager[Serving]:
    """A bridge for one test (``devkit.serve.bridge``); stopping it may not take over ``STOP_WITHIN``."""
    return serve_bridge(settings, stop_within=STOP_WITHIN)


def door_of(served: Serving) -> dict[str, int]:
    return served.app[GATE].as_dict()


def open_connections(served: Serving) -> int:
    return len(served.app[CONNECTIONS])


# --- frames by hand -----------------------------------------------------------------------------


def frame(payload: bytes | str, opcode: int = TEXT, *, fin: bool = True) -> bytes:
    """One client frame (masked, as RFC 6455 requires of clients; the zero mask keeps it cheap)."""
    data = payload.encode() if isinstance(payload, str) else payload
    head = bytes([(0x80 if fin else 0) | opcode])
    length = len(data)
    if length < 126:
        head += bytes([0x80 | length])
    elif length < 1 << 16:
        head += bytes([0x80 | 126]) + struct.pack("!H", length)
    else:
        head += bytes([0x80 | 127]) + struct.pack("!Q", length)
    return head + b"\0\0\0\0" + data


def message(kind: str, **fields: Any) -> bytes:
    return frame(json.dumps({"type": kind, **fields}))


@dataclass
class RawSocket:
    """A websocket spoken by hand: nothing is read unless the test reads it."""

    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    status: int
    headers: dict[str, str]

    async def send(self, *frames: bytes) -> None:
        """Every frame in one write."""
        self.writer.write(b"".join(frames))
        await self.writer.drain()

    async def receive(self, timeout: float = BUDGET_S) -> tuple[int, bytes]:
        """The next frame from the bridge: (opcode, payload)."""
        async with asyncio.timeout(timeout):
            first, second = await self.reader.readexactly(2)
            length = second & 0x7F
            if length == 126:
                (length,) = struct.unpack("!H", await self.reader.readexactly(2))
            elif length == 127:
                (length,) = struct.unpack("!Q", await self.reader.readexactly(8))
            return first & 0x0F, await self.reader.readexactly(length)

    async def reply(self, timeout: float = BUDGET_S) -> dict[str, Any]:
        opcode, payload = await self.receive(timeout)
        assert opcode == TEXT, (opcode, payload[:200])
        data: dict[str, Any] = json.loads(payload)
        return data

    async def close_code(self, timeout: float = BUDGET_S) -> int | None:
        """Read until the bridge's close frame; its code (``None`` if the socket just ended)."""
        try:
            while True:
                opcode, payload = await self.receive(timeout)
                if opcode == CLOSE:
                    return int(struct.unpack("!H", payload[:2])[0]) if len(payload) >= 2 else None
        except (asyncio.IncompleteReadError, ConnectionError):
            return None

    def close(self) -> None:
        self.writer.transport.abort()


async def raw_websocket(
    port: int,
    *,
    headers: dict[str, str] | None = None,
    receive_buffer: int | None = None,
    hello: bool = True,
) -> RawSocket:
    """Open ``/ws`` by hand (optionally with a tiny receive buffer), and say hello."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    if receive_buffer is not None:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, ("127.0.0.1", port))
    # A small buffer: the StreamReader stops reading the socket at twice this, so a test that does not
    # read really leaves the bytes in the kernel (and the bridge feels it).
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 14)
    key = base64.b64encode(os.urandom(16)).decode()
    lines = {
        "Host": f"127.0.0.1:{port}",
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Key": key,
        "Sec-WebSocket-Version": "13",
        **(headers or {}),
    }
    request = "GET /ws HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in lines.items()) + "\r\n"
    writer.write(request.encode())
    head = (await reader.readuntil(b"\r\n\r\n")).decode()
    status_line, *header_lines = head.strip().split("\r\n")
    status = int(status_line.split()[1])
    parsed = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    raw = RawSocket(reader, writer, status, parsed)
    if status == 101 and hello:
        await raw.send(message("hello", token=TOKEN, client="hostile"))
        welcome = await raw.reply()
        assert welcome["type"] == "welcome", welcome
    return raw


async def idle_socket(port: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A TCP connection that will never say anything."""
    return await asyncio.open_connection("127.0.0.1", port)


async def closed_by_server(reader: asyncio.StreamReader, timeout: float) -> bool:
    """Whether the bridge ends this connection within ``timeout`` seconds."""
    try:
        async with asyncio.timeout(timeout):
            while await reader.read(1 << 16):
                pass
    except TimeoutError:
        return False
    except ConnectionError:
        return True
    return True


async def http_get(
    port: int, path: str, headers: Iterable[tuple[str, str]] = ()
) -> tuple[int, dict[str, str]]:
    """A one-off HTTP/1.1 request by hand (so the Host header is exactly what the test says)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    try:
        request = f"GET {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in headers)
        writer.write((request + "Connection: close\r\n\r\n").encode())
        head = (await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), BUDGET_S)).decode()
    finally:
        writer.transport.abort()
    status_line, *header_lines = head.strip().split("\r\n")
    parsed = {k.strip().lower(): v.strip() for k, _, v in (line.partition(":") for line in header_lines)}
    return int(status_line.split()[1]), parsed
