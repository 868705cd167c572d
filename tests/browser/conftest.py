"""Fixtures for the module's browser tests: a real ``volley serve``, a static server for the module and
its harness page, and headless Chromium through Playwright.

The harness page (``harness/``) fakes the handful of Foundry globals the module touches; it is a test
stand-in, not Foundry. Everything else is real: the module's ES modules, templates and styles, the
bridge process, the rules engine behind it, and the browser's own WebSocket.
"""

from __future__ import annotations

import asyncio
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from aiohttp import web
from browserkit import Bridge, Pages, Table, free_port

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


@pytest.fixture
def bridge(tmp_path: Path) -> Iterator[Bridge]:
    """A real ``volley serve`` for one test (see ``browserkit.Bridge``)."""
    server = Bridge(ROOT, tmp_path)
    try:
        try:
            server.start()
        except RuntimeError as error:
            pytest.fail(str(error))
        yield server
    finally:
        server.stop()


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
