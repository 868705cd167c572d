"""Helpers for breaking the store's promises: a bridge in this process, a socket to it, the journals.

``running(data)`` serves a bridge on a free loopback port through ``devkit.serve.bridge`` (the path
``volley serve`` takes); ``Client`` sends requests and collects raw reply frames; ``lines(data)`` is
every resolved line of every journal, in order (duplicates kept: a test counts them).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import aiohttp

from bridge.server.app import BridgeSettings
from devkit.serve import BUDGET_S, GURPS_MP5, TOKEN, bridge, bridge_settings, say_hello

__all__ = ["TOKEN", "Client", "first_session", "ids", "lines", "running", "settings"]


def settings(data: Path) -> BridgeSettings:
    """A bridge whose rate limit never refuses the tests' bursts."""
    return bridge_settings(data, rate=100000.0, burst=100000)


@dataclass
class Client:
    ws: aiohttp.ClientWebSocketResponse

    async def raw(self, message: dict[str, Any]) -> str:
        await self.ws.send_str(json.dumps(message))
        frame = await self.ws.receive(timeout=BUDGET_S)
        assert frame.type == aiohttp.WSMsgType.TEXT, frame
        return str(frame.data)

    async def attack(self, id: str) -> str:
        return await self.raw({"type": "attack", "id": id, "request": GURPS_MP5})

    async def attack_many(self, ids: list[str]) -> dict[str, str]:
        """Send every id at once, then gather the replies (in whatever order they come)."""
        for id in ids:
            await self.ws.send_str(json.dumps({"type": "attack", "id": id, "request": GURPS_MP5}))
        replies = {}
        while len(replies) < len(ids):
            frame = await self.ws.receive(timeout=BUDGET_S)
            assert frame.type == aiohttp.WSMsgType.TEXT, frame
            replies[json.loads(frame.data)["id"]] = str(frame.data)
        return replies

    async def attack_until_answered(self, id: str) -> str:
        """Send ``id`` until the answer is not the retryable ``journal_unreadable`` (the index being
        rebuilt answers that for a moment); every answer before is checked to be that code."""
        while True:
            frame = await self.attack(id)
            reply = json.loads(frame)
            if reply.get("code") != "journal_unreadable":
                return frame


@contextlib.asynccontextmanager
async def running(data: Path) -> AsyncIterator[Client]:
    async with (
        bridge(settings(data)) as served,
        aiohttp.ClientSession() as http,
        http.ws_connect(served.url) as ws,
    ):
        await say_hello(ws)
        yield Client(ws)


def lines(data: Path) -> list[dict[str, Any]]:
    """Every resolved line of every journal, in order (whole lines only)."""
    found = []
    for path in sorted((data / "sessions").glob("*.jsonl")):
        for line in path.read_bytes().split(b"\n")[:-1]:
            record = json.loads(line)
            if record.get("kind") == "resolved":
                found.append(record)
    return found


def ids(data: Path) -> list[str]:
    return [record["id"] for record in lines(data)]


async def first_session(data: Path, count: int) -> dict[str, str]:
    """Serve once and resolve ``count`` attacks: id -> the raw reply frame."""
    replies = {}
    async with running(data) as client:
        for k in range(count):
            replies[f"a{k}"] = await client.attack(f"a{k}")
    return replies
