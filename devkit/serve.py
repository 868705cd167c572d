"""A bridge for the tests and the benchmarks to talk to: the one way they start one.

In this process: ``bridge(settings)`` serves it as ``volley serve`` does, on a free loopback port, and
stops it when the block ends (``bridge_settings`` gives a test's settings, ``say_hello`` opens a session
on its websocket, ``BridgeTestServer`` is the same bridge for aiohttp's ``TestClient``). As a process of
its own: ``serve_process`` (``volley serve`` on a free port with its own directories and file limit), or
``ServeProcess`` for any command line ``serve_command`` builds; it reads the start-up lines up to the one
it waits for (by default the last one ``volley serve`` prints, where to install the Foundry module), and
stops the process with a signal.

Every bridge has the access token ``TOKEN``; every wait is taken from ``BUDGET_S`` (``devkit.budget``:
``VOLLEY_TEST_SLOWDOWN`` scales it). ``GURPS_MP5`` is the request the tests and benchmarks fire.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
from aiohttp import web
from aiohttp.test_utils import BaseTestServer
from yarl import URL

from bridge.server.app import BridgeSettings, Serving, serving
from devkit.budget import BUDGET_S

ROOT = Path(__file__).resolve().parents[1]
#: Kane fires ten shots from his MP5 at a ganger (``docs/examples/gurps/mp5_burst.json``, the README's
#: first example): the request the bridge's tests and benchmarks fire.
GURPS_MP5: dict[str, Any] = json.loads(
    (ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json").read_text(encoding="utf-8")
)
#: The start of the last line ``volley serve`` prints once it listens.
LAST_START_LINE = "Foundry module:"
#: What the line with the address says before the address (``volley serve`` and the echo server).
LISTENING = "listening on "


#: The access token of every bridge the tests and the benchmarks start (in this process or not).
TOKEN = "test-token-0123456789"


def bridge_settings(data: Path, **changes: Any) -> BridgeSettings:
    """A bridge's settings for a test: ``TOKEN``, ``data`` as its data directory and no rules warm-up (a
    few hundred ms of cache filling per bridge would slow every test down); ``changes`` on top."""
    return replace(BridgeSettings(token=TOKEN, data_dir=data, warm_up=False), **changes)


@contextlib.asynccontextmanager
async def bridge(settings: BridgeSettings, *, stop_within: float = BUDGET_S) -> AsyncIterator[Serving]:
    """A bridge in this process, served as ``volley serve`` serves it (``bridge.server.app.serving``, the
    door's gated site included) on a free loopback port: the one way the tests start one in process.

    Stopping it may not hang: past ``stop_within`` seconds the test fails, saying so.
    """
    running = serving(settings, "127.0.0.1", 0)
    served = await running.__aenter__()
    try:
        yield served
    finally:
        try:
            async with asyncio.timeout(stop_within):
                await running.__aexit__(None, None, None)
        except TimeoutError:
            raise AssertionError(f"the bridge did not stop within {stop_within:g} s") from None


class BridgeTestServer(BaseTestServer):
    """A bridge served by ``bridge`` on a free loopback port, for aiohttp's ``TestClient``
    (``aiohttp_client(BridgeTestServer(settings))``)."""

    def __init__(self, settings: BridgeSettings) -> None:
        super().__init__(host="127.0.0.1")
        self.settings = settings
        self.app: web.Application | None = None
        self._stack = contextlib.AsyncExitStack()

    async def start_server(self, loop: Any = None, **kwargs: Any) -> None:
        served = await self._stack.enter_async_context(bridge(self.settings))
        self.app, self.port = served.app, served.port
        self._root = URL(f"http://127.0.0.1:{served.port}")

    async def _make_runner(self, **kwargs: Any) -> web.BaseRunner:
        raise NotImplementedError("served by devkit.serve.bridge")

    async def close(self) -> None:
        await self._stack.aclose()


async def say_hello(ws: aiohttp.ClientWebSocketResponse, token: str = TOKEN) -> dict[str, Any]:
    """Say hello on a bridge's websocket: its ``welcome`` (the test fails on anything else)."""
    await ws.send_str(json.dumps({"type": "hello", "token": token, "client": "pytest"}))
    welcome: dict[str, Any] = json.loads((await ws.receive(timeout=BUDGET_S)).data)
    assert welcome["type"] == "welcome", welcome
    return welcome


def serve_command(
    data: Path, config: Path, *options: str, python: Sequence[str] = ("-m", "bridge.cli")
) -> list[str]:
    """``volley serve`` with its own ``data`` and ``config`` directories, then ``options``.

    ``python`` is what the interpreter runs (``-c`` and a launcher that sets limits first, say).
    """
    return [
        sys.executable,
        *python,
        "serve",
        "--data-dir",
        str(data),
        "--config-dir",
        str(config),
        *options,
    ]


class ServeProcess:
    """A server started from ``command``; ``url`` and ``port`` are where it listens.

    ``until``: the start of the line that says it has started (read with every line before it into
    ``said``); ``seconds_to_listen``: how long until it said where it listens. A server that has not
    said it within the budget is killed, and the start fails.
    """

    def __init__(
        self,
        command: Sequence[str],
        *,
        until: str = LAST_START_LINE,
        stderr: int = subprocess.PIPE,
        env: dict[str, str] | None = None,
    ) -> None:
        started = time.perf_counter()
        self.process = subprocess.Popen(
            list(command),
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
            cwd=ROOT,
            env={**(os.environ if env is None else env), "PYTHONUNBUFFERED": "1"},
        )
        assert self.process.stdout is not None
        self.said: list[str] = []
        # Reading a pipe has no timeout: past the budget the process is killed, which ends the reading.
        watchdog = threading.Timer(BUDGET_S, self.process.kill)
        watchdog.start()
        try:
            for line in self.process.stdout:
                self.said.append(line)
                if LISTENING in line:
                    self.seconds_to_listen = time.perf_counter() - started
                    self.url = line.split(LISTENING, 1)[1].strip()
                    self.port = int(self.url.rsplit(":", 1)[1].split("/")[0])
                if line.startswith(until):
                    return
        finally:
            watchdog.cancel()
        code, err = self.stop()
        raise RuntimeError(
            f"{' '.join(command[1:4])} did not start (exit {code}; the budget: {BUDGET_S:g} s): {err}"
        )

    @property
    def pid(self) -> int:
        return self.process.pid

    def http(self, path: str) -> str:
        """The address of ``path`` on the server's HTTP side (``/healthz``)."""
        return self.url.replace("wss://", "https://").replace("ws://", "http://").removesuffix("/ws") + path

    def stop(self, signum: int = signal.SIGTERM, timeout: float = BUDGET_S) -> tuple[int, str]:
        """Send ``signum`` (if it still runs) and wait: its exit code and what it wrote on stderr.

        A server that has not stopped within ``timeout`` seconds is killed (and its exit code says so).
        """
        if self.process.poll() is None:
            self.process.send_signal(signum)
        try:
            _, err = self.process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            _, err = self.process.communicate()
        return self.process.returncode, err or ""


def memory_kib(pid: int, field: str = "VmRSS") -> int:
    """``VmRSS`` (now) or ``VmHWM`` (the peak so far) of a process, in KiB (Linux: /proc/PID/status)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise AssertionError(f"no {field} for pid {pid}")


def serve_process(
    tmp: Path, *options: str, file_limit: int | None = None, env: dict[str, str] | None = None
) -> ServeProcess:
    """``volley serve`` in a process of its own (its own file limit, its own memory to measure), on a free
    port with ``TOKEN``, its data in ``tmp/data`` and its config in ``tmp/config``; then ``options``."""
    # ``ulimit -n`` for the server alone, set by the interpreter it runs in before the CLI starts.
    limit = (
        f"resource.setrlimit(resource.RLIMIT_NOFILE, ({file_limit}, {file_limit})); " if file_limit else ""
    )
    launcher = (
        f"import resource, runpy, sys; {limit}"
        "sys.argv[0] = 'volley'; runpy.run_module('bridge.cli', run_name='__main__')"
    )
    options = ("--port", "0", "--token", TOKEN, *options)
    command = serve_command(tmp / "data", tmp / "config", *options, python=("-c", launcher))
    return ServeProcess(command, env=env)
