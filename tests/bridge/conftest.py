"""Real bridges on real sockets for the tests, with temporary directories.

Each bridge is started by ``devkit.serve.bridge`` (``bridge.server.app.serving``, the same path
``volley serve`` takes, the door's gated site included), and wrapped for aiohttp's ``TestClient``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import Start

import rules.registry
from bridge.server.app import BridgeSettings
from devkit.serve import BridgeTestServer, bridge_settings


@pytest.fixture(autouse=True)
def skirmish_system(monkeypatch: pytest.MonkeyPatch) -> None:
    """The test-only system, registered for this test alone."""
    monkeypatch.setitem(rules.registry.SYSTEMS, skirmish.NAME, skirmish.SYSTEM)


@pytest.fixture
def settings(tmp_path: Path) -> BridgeSettings:
    return bridge_settings(tmp_path / "data", allow_scripted_dice=True)


@pytest.fixture
def start_bridge(aiohttp_client: Any, settings: BridgeSettings) -> Start:
    """Start a bridge (``start_bridge(allow_scripted_dice=False)`` changes a setting)."""

    async def start(**changes: Any) -> TestClient[Any, Any]:
        client: TestClient[Any, Any] = await aiohttp_client(BridgeTestServer(replace(settings, **changes)))
        return client

    return start


@pytest_asyncio.fixture
async def bridge_client(start_bridge: Start) -> AsyncIterator[TestClient[Any, Any]]:
    yield await start_bridge()
