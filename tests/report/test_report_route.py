"""``GET /report/current`` on a real bridge: the token in a header or nothing, CORS for the module."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import pytest_asyncio
from aiohttp.test_utils import TestClient

from bridge.report import build as report_build
from bridge.report.route import build_in_child
from devkit.serve import TOKEN, BridgeTestServer, bridge_settings

pytestmark = pytest.mark.asyncio


@pytest_asyncio.fixture
async def bridge(aiohttp_client: Any, tmp_path: Path) -> AsyncIterator[TestClient[Any, Any]]:
    settings = bridge_settings(tmp_path / "data", allow_scripted_dice=True)
    client: TestClient[Any, Any] = await aiohttp_client(BridgeTestServer(settings))
    yield client


async def _attack(client: TestClient[Any, Any]) -> None:
    async with client.ws_connect("/ws") as ws:
        await ws.send_json({"type": "hello", "token": TOKEN, "client": "test"})
        await ws.receive_json()
        request = {
            "system": "gurps",
            "attacker": {"id": "a1", "name": "Kane", "skill": 12},
            "weapon": {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 30, "capacity": 30, "malf": 17},
            "shots": 10,
            "targets": [{"id": "t1", "name": "Ganger", "modifier": -2, "dodge": 9}],
        }
        await ws.send_json({"type": "attack", "id": "r1", "request": request})
        assert (await ws.receive_json())["type"] == "result"


async def test_the_current_session_with_the_token(bridge: TestClient[Any, Any]) -> None:
    await _attack(bridge)
    response = await bridge.get("/report/current?lang=en", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status == 200
    assert response.content_type == "text/html"
    assert response.headers["Cache-Control"] == "no-store"
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert response.headers["Access-Control-Allow-Origin"] == "*"
    html = await response.text()
    assert "Session report" in html and "Kane" in html and "1 request resolved" in html


async def test_the_language_follows_the_browser(bridge: TestClient[Any, Any]) -> None:
    headers = {"Authorization": f"Bearer {TOKEN}", "Accept-Language": "ru-RU,ru;q=0.9,en;q=0.8"}
    response = await bridge.get("/report/current", headers=headers)
    assert "Отчёт о сессии" in await response.text()


@pytest.mark.parametrize(
    "headers",
    [{}, {"Authorization": "Bearer wrong"}, {"Authorization": TOKEN}, {"Authorization": f"Basic {TOKEN}"}],
    ids=["none", "wrong", "no scheme", "basic"],
)
async def test_no_report_without_the_token(bridge: TestClient[Any, Any], headers: dict[str, str]) -> None:
    response = await bridge.get("/report/current", headers=headers)
    assert response.status == 401
    assert response.headers["WWW-Authenticate"].startswith("Bearer")
    assert "<html" not in await response.text()


async def test_a_token_in_the_url_is_refused_even_when_right(bridge: TestClient[Any, Any]) -> None:
    response = await bridge.get(
        f"/report/current?token={TOKEN}", headers={"Authorization": f"Bearer {TOKEN}"}
    )
    assert response.status == 400
    assert "never in the URL" in await response.text()


async def test_the_browser_preflight_is_answered(bridge: TestClient[Any, Any]) -> None:
    response = await bridge.options(
        "/report/current",
        headers={
            "Origin": "http://localhost:30000",
            "Access-Control-Request-Method": "GET",
            "Access-Control-Request-Headers": "authorization",
        },
    )
    assert response.status == 204
    assert response.headers["Access-Control-Allow-Headers"] == "Authorization"
    assert "GET" in response.headers["Access-Control-Allow-Methods"]


async def test_the_page_is_built_outside_the_serving_process(
    bridge: TestClient[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Nothing of the report runs in the bridge: with the builder broken in this process, the page
    still comes (from a child, which has its own)."""

    def broken(*_: object, **__: object) -> str:
        raise AssertionError("the report was built inside the serving process")

    monkeypatch.setattr(report_build, "report_html", broken)
    await _attack(bridge)
    response = await bridge.get("/report/current?lang=en", headers={"Authorization": f"Bearer {TOKEN}"})
    assert response.status == 200
    assert "Kane" in await response.text()


async def test_a_request_given_up_takes_its_child_with_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sessions_dir: Path, fair_sessions: list[Path]
) -> None:
    started: list[asyncio.subprocess.Process] = []
    spawn = asyncio.create_subprocess_exec

    async def spawned(*args: Any, **kwargs: Any) -> asyncio.subprocess.Process:
        child = await spawn(*args, **kwargs)
        started.append(child)
        return child

    monkeypatch.setattr(asyncio, "create_subprocess_exec", spawned)
    building = asyncio.create_task(build_in_child(fair_sessions[0], "en"))
    while not started:  # the child exists
        await asyncio.sleep(0.01)
    building.cancel()
    with pytest.raises(asyncio.CancelledError):
        await building
    assert started[0].returncode is not None  # killed and reaped, not left running
