"""``volley sandbox``: one line when ready, the page and the module served next to a real bridge with a
throwaway token, and nothing of it in ``volley serve``."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import websockets
from aiohttp.test_utils import TestClient

from devkit.serve import BUDGET_S, GURPS_MP5

ROOT = Path(__file__).resolve().parents[2]


def start_sandbox(*extra: str) -> tuple[str, subprocess.Popen[str]]:
    command = [sys.executable, "-m", "bridge.cli", "sandbox", "--no-open", "--port", "0", *extra]
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert process.stdout is not None
    line = process.stdout.readline()
    if not (line.startswith("Sandbox: http://127.0.0.1:") and line.endswith("/sandbox\n")):
        stop(process)
        pytest.fail(f"volley sandbox said {line!r}")
    return line.removeprefix("Sandbox: ").strip(), process


def stop(process: subprocess.Popen[str]) -> None:
    if process.poll() is None:
        process.terminate()
        process.wait(timeout=BUDGET_S)


@pytest.fixture
def sandbox() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    url, process = start_sandbox()
    try:
        yield url, process
    finally:
        stop(process)


def get(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    request = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(request, timeout=BUDGET_S) as response:
            return response.status, response.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def post(url: str) -> Any:
    request = urllib.request.Request(url, method="POST", data=b"")
    with urllib.request.urlopen(request, timeout=BUDGET_S) as response:
        return json.loads(response.read())


async def attack_twice(ws_url: str, token: str) -> list[dict[str, Any]]:
    """Two GURPS MP5 attacks without dice: the bridge draws the seeds."""
    async with websockets.connect(ws_url, open_timeout=BUDGET_S) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        assert json.loads(await ws.recv())["type"] == "welcome"
        replies = []
        for k in range(2):
            await ws.send(json.dumps({"type": "attack", "id": f"seeded-{k}", "request": GURPS_MP5}))
            reply: dict[str, Any] = json.loads(await ws.recv())
            assert reply["type"] == "result", reply
            replies.append(reply["result"])
        return replies


async def hello(ws_url: str, token: str) -> dict[str, Any]:
    async with websockets.connect(ws_url, open_timeout=BUDGET_S) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        reply: dict[str, Any] = json.loads(await ws.recv())
        return reply


def test_sandbox_prints_one_line_and_serves_page_module_and_bridge(
    sandbox: tuple[str, subprocess.Popen[str]],
) -> None:
    url, process = sandbox
    origin = url.removesuffix("/sandbox")
    status, page = get(url)
    assert status == 200 and b'src="/sandbox/boot.js"' in page
    assert get(f"{origin}/sandbox/vendor/handlebars.min.js")[0] == 200
    assert get(f"{origin}/sandbox/vendor/handlebars.LICENSE")[0] == 200
    assert get(f"{origin}/modules/volley/scripts/volley.js")[0] == 200
    assert json.loads(get(f"{origin}/modules/volley/module.json")[1])["id"] == "volley"
    token = json.loads(get(f"{origin}/sandbox/config.json")[1])["token"]
    assert len(token) >= 40
    ws_url = origin.replace("http://", "ws://") + "/ws"
    assert asyncio.run(hello(ws_url, token))["type"] == "welcome"
    # Another host name (a rebinding attack) gets nothing, the token least of all.
    assert get(f"{origin}/sandbox/config.json", {"Host": "evil.example:80"})[0] == 403

    # The bridge can be taken down and brought back for the page's outage demo.
    assert post(f"{origin}/sandbox/bridge/stop")["bridge"] == "stopped"
    with pytest.raises(websockets.exceptions.InvalidStatus):
        asyncio.run(hello(ws_url, token))
    assert post(f"{origin}/sandbox/bridge/start")["bridge"] == "running"
    assert asyncio.run(hello(ws_url, token))["type"] == "welcome"

    process.terminate()
    out, _ = process.communicate(timeout=BUDGET_S)
    assert process.returncode == 0
    assert out == "", "nothing but the one line on stdout"


@pytest.mark.asyncio
async def test_volley_serve_has_no_sandbox(bridge_client: TestClient[Any, Any]) -> None:
    for path in ("/sandbox", "/sandbox/config.json", "/modules/volley/scripts/volley.js"):
        assert (await bridge_client.get(path)).status == 404, path
    assert (await bridge_client.post("/sandbox/bridge/stop")).status in (404, 405)


def test_sandbox_refuses_a_bad_port() -> None:
    command = [sys.executable, "-m", "bridge.cli", "sandbox", "--no-open", "--port", "70000"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 2 and "0-65535" in done.stderr and done.stdout == ""


def test_sandbox_with_a_seed_base_rolls_the_same_dice_every_run() -> None:
    """``--seed-base N`` (what the browser tests start) gives the same rolls in every sandbox, so a
    test that fires without scripted dice cannot meet a malfunction one run in fifty."""
    rolls = []
    for base in ("41", "41", "42"):
        url, process = start_sandbox("--seed-base", base)
        try:
            origin = url.removesuffix("/sandbox")
            token = json.loads(get(f"{origin}/sandbox/config.json")[1])["token"]
            rolls.append(asyncio.run(attack_twice(origin.replace("http://", "ws://") + "/ws", token)))
        finally:
            stop(process)
    assert rolls[0] == rolls[1]
    assert rolls[0] != rolls[2], "another base, other dice"
