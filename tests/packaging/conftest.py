"""A bridge on a real socket, for the tests of the endpoints Foundry installs the module from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest_asyncio
from aiohttp.test_utils import TestClient

from bridge.server.door import Door
from devkit.serve import BridgeTestServer, bridge_settings


@pytest_asyncio.fixture
async def module_client(aiohttp_client: Any, tmp_path: Path) -> TestClient[Any, Any]:
    client: TestClient[Any, Any] = await aiohttp_client(BridgeTestServer(bridge_settings(tmp_path / "data")))
    return client


@pytest_asyncio.fixture
async def remote_module_client(aiohttp_client: Any, tmp_path: Path) -> TestClient[Any, Any]:
    """A bridge started with ``--allow-remote``: Foundry may reach it by any name (no Host check)."""
    settings = bridge_settings(tmp_path / "remote", door=Door(allow_remote=True))
    client: TestClient[Any, Any] = await aiohttp_client(BridgeTestServer(settings))
    return client
