"""``volley sandbox --no-warm-up`` (the browser tests start it so): no rules worker until an attack
needs one, then a cold one that resolves it; without the flag the worker starts at once and warms."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from devkit.serve import BUDGET_S, GURPS_MP5

ROOT = Path(__file__).resolve().parents[2]


def _health(origin: str) -> Any:
    with urllib.request.urlopen(origin + "/healthz", timeout=BUDGET_S) as response:
        return json.loads(response.read())["workers"]


def _token(origin: str) -> str:
    with urllib.request.urlopen(origin + "/sandbox/config.json", timeout=BUDGET_S) as response:
        token: str = json.loads(response.read())["token"]
        return token


def _warm_within_budget(origin: str) -> Any:
    deadline = time.monotonic() + BUDGET_S
    while time.monotonic() < deadline:
        workers = _health(origin)
        if workers["warm"]:
            return workers
        time.sleep(0.05)
    raise AssertionError(f"the sandbox's rules worker never became warm: {workers}")


@pytest.mark.parametrize("cold", [True, False], ids=["--no-warm-up", "default"])
def test_the_sandbox_warms_its_rules_worker_unless_told_not_to(cold: bool) -> None:
    command = [sys.executable, "-m", "bridge.cli", "sandbox", "--no-open", "--port", "0"]
    command += ["--no-warm-up"] if cold else []
    process = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        assert line.startswith("Sandbox: "), (line, process.stderr.read() if process.poll() else "")
        origin = line.removeprefix("Sandbox: ").strip().removesuffix("/sandbox")
        if not cold:
            assert _warm_within_budget(origin)["pids"]
            return
        assert _health(origin) == {"warm": False, "pids": [], "offloaded": 0}
        with connect(origin.replace("http://", "ws://") + "/ws", open_timeout=BUDGET_S) as ws:
            ws.send(json.dumps({"type": "hello", "token": _token(origin)}))
            assert json.loads(ws.recv(timeout=BUDGET_S))["type"] == "welcome"
            ws.send(json.dumps({"type": "attack", "id": "cold-1", "request": GURPS_MP5}))
            assert json.loads(ws.recv(timeout=BUDGET_S))["type"] == "result"
    finally:
        process.send_signal(signal.SIGTERM)
        _, err = process.communicate(timeout=BUDGET_S)
    assert process.returncode == 0, err
