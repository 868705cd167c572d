"""A bridge on a real socket, for the tests of the endpoints Foundry installs the module from."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest_asyncio
from aiohttp.test_utils import TestClient

from bridge.server.app import BridgeSettings, create_app
from bridge.server.door import Door


@pytest_asyncio.fixture
async def module_client(aiohttp_client: Any, tmp_path: Path) -> TestClient[Any, Any]:
    settings = BridgeSettings(token="packaging-test-token", data_dir=tmp_path / "data", warm_up=False)
    client: TestClient[Any, Any] = await aiohttp_client(create_app(settings))
    return client


@pytest_asyncio.fixture
async def remote_module_client(aiohttp_client: Any, tmp_path: Path) -> TestClient[Any, Any]:
    """A bridge started with ``--allow-remote``: Foundry may reach it by any name (no Host check)."""
    settings = BridgeSettings(
        token="packaging-test-token",
        data_dir=tmp_path / "remote",
        warm_up=False,
        door=Door(allow_remote=True),
    )
    client: TestClient[Any, Any] = await aiohttp_client(create_app(settings))
    return client
