"""Fixtures for the module's browser tests: a real ``volley serve``, a static server for the module and
its harness page, and headless Chromium through Playwright.

The harness page (``harness/``) fakes the handful of Foundry globals the module touches; it is a test
stand-in, not Foundry. Everything else is real: the module's ES modules, templates and styles, the
bridge process, the rules engine behind it, and the browser's own WebSocket.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from browserkit import Bridge, Pages, Table

ROOT = Path(__file__).resolve().parents[2]
MODULE_DIR = ROOT / "vtt_module"
HARNESS_DIR = Path(__file__).resolve().parent / "harness"
HANDLEBARS = MODULE_DIR / "node_modules" / "handlebars" / "dist" / "handlebars.min.js"
CHROMIUM = Path(os.environ.get("VOLLEY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
START_TIMEOUT_S = 20.0


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[Bridge]:
    """``volley serve`` on a free loopback port with its own token, config and data directories, drawing
    seeds from a fixed base so every run rolls the same dice."""
    port = free_port()
    token = secrets.token_urlsafe(24)
    data_dir = tmp_path / "data"
    log = (tmp_path / "bridge.log").open("w")
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bridge.cli",
            "serve",
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--token",
            token,
            "--config-dir",
            str(tmp_path / "config"),
            "--data-dir",
            str(data_dir),
            "--seed-base",  # the same dice on every run, so a failure can be reproduced
            "20261129",
            "--log-level",
            "info",
        ],
        cwd=ROOT,
        stdout=log,
        stderr=subprocess.STDOUT,
        text=True,
    )
    log_path = tmp_path / "bridge.log"
    try:
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            if process.poll() is not None:
                pytest.fail(f"volley serve exited with {process.returncode}:\n{_read(log_path)}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    pytest.fail(f"volley serve did not listen in {START_TIMEOUT_S} s:\n{_read(log_path)}")
                time.sleep(0.05)
        yield Bridge(f"ws://127.0.0.1:{port}/ws", token, data_dir, process)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8", errors="replace")[-4000:]


@pytest.fixture
def static_site() -> Iterator[str]:
    """The module at ``/modules/volley/`` (where Foundry serves it), the harness and Handlebars."""
    if not HANDLEBARS.exists():
        pytest.fail(f"{HANDLEBARS} is missing: run `cd vtt_module && npm ci` (scripts/setup --test does)")
    app = web.Application()

    async def handlebars(_request: web.Request) -> web.FileResponse:
        return web.FileResponse(HANDLEBARS)

    app.router.add_get("/vendor/handlebars.min.js", handlebars)
    for part in ("scripts", "templates", "lang", "styles"):
        app.router.add_static(f"/modules/volley/{part}/", MODULE_DIR / part)
    app.router.add_static("/harness/", HARNESS_DIR)

    loop = asyncio.new_event_loop()
    runner = web.AppRunner(app)
    port = free_port()
    started = threading.Event()

    def serve() -> None:
        asyncio.set_event_loop(loop)
        loop.run_until_complete(runner.setup())
        loop.run_until_complete(web.TCPSite(runner, "127.0.0.1", port).start())
        started.set()
        loop.run_forever()

    thread = threading.Thread(target=serve, name="harness-http", daemon=True)
    thread.start()
    if not started.wait(START_TIMEOUT_S):
        pytest.fail("the harness web server did not start")
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result(timeout=10)
        loop.call_soon_threadsafe(loop.stop)
        thread.join(timeout=10)
        loop.close()


@pytest.fixture
def pages() -> Iterator[Pages]:
    """Headless Debian Chromium. A missing Chromium fails the test, never skips it."""
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium (scripts/setup --test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield Pages(browser.new_context(viewport={"width": 1200, "height": 800}))
        finally:
            browser.close()


@pytest.fixture
def table(pages: Pages, static_site: str, bridge: Bridge) -> Table:
    return Table(bridge, static_site, pages)
