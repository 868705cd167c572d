"""Helpers for talking to a bridge in tests: an authenticated socket and the journal on disk."""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp.test_utils import TestClient

from bridge.store.lines import FORMAT_VERSION, Header
from devkit.serve import BUDGET_S, GURPS_MP5, TOKEN, say_hello

__all__ = [
    "BUDGET_S",
    "GURPS_MP5",
    "HEADER",
    "TOKEN",
    "Session",
    "Start",
    "entries",
    "journal_lines",
    "open_session",
]

#: ``start_bridge(**setting_changes)``: start a bridge on a real socket, get its test client.
Start = Callable[..., Awaitable[TestClient[Any, Any]]]

#: The header of the journals the tests write by hand.
HEADER = Header(
    format=FORMAT_VERSION,
    session="20261129T200000.000000Z-abcdef",
    started="2026-11-29T20:00:00Z",
    rules_version="0.1.0",
    bridge_version="0.1.0",
)


class Session:
    """One authenticated websocket, with helpers that read like the protocol."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, welcome: dict[str, Any]) -> None:
        self.ws = ws
        self.welcome = welcome

    async def send(self, message: dict[str, Any] | str) -> None:
        await self.ws.send_str(message if isinstance(message, str) else json.dumps(message))

    async def reply(self) -> dict[str, Any]:
        frame = await self.ws.receive(timeout=BUDGET_S)
        assert frame.type == aiohttp.WSMsgType.TEXT, frame
        data: dict[str, Any] = json.loads(frame.data)
        return data

    async def raw_reply(self) -> str:
        frame = await self.ws.receive(timeout=BUDGET_S)
        assert frame.type == aiohttp.WSMsgType.TEXT, frame
        return str(frame.data)

    async def ask(self, message: dict[str, Any] | str) -> dict[str, Any]:
        await self.send(message)
        return await self.reply()


async def open_session(client: TestClient[Any, Any], token: str = TOKEN) -> Session:
    ws = await client.ws_connect("/ws")
    return Session(ws, await say_hello(ws, token))


def journal_bytes(path: Path) -> bytes:
    """A journal's lines: a live one's end where the zeros it lays ahead of them begin
    (``bridge.store.journal_file``)."""
    return path.read_bytes().rstrip(b"\0")


def journal_lines(data_dir: Path) -> list[dict[str, Any]]:
    """Every line of every session journal (live ones too), decoded, in order."""
    lines: list[dict[str, Any]] = []
    for path in sorted((data_dir / "sessions").glob("*.jsonl")):
        data = journal_bytes(path)
        lines.extend(json.loads(line) for line in data.split(b"\n") if line.strip())
    return lines


def entries(data_dir: Path) -> list[dict[str, Any]]:
    return [line for line in journal_lines(data_dir) if line["kind"] == "resolved"]
