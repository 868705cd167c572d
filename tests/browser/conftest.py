"""Fixtures for the module's browser tests: ``volley sandbox`` (a real bridge, the real module over the
sandbox's stand-in for the Foundry client) and headless Chromium through Playwright.

The stand-in (``vtt_module/sandbox/stand-in/``) fakes the Foundry client's globals; it is not Foundry.
Everything else is real: the module's ES modules, templates, styles and lang files, the bridge, the
rules engine behind it, and the browser's own WebSocket.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from browserkit import Pages, Sandbox, Shots, Table

CHROMIUM = Path(os.environ.get("VOLLEY_CHROMIUM", "/usr/bin/chromium"))
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def sandbox(tmp_path: Path) -> Iterator[Sandbox]:
    server = Sandbox(tmp_path)
    try:
        server.start()
    except RuntimeError as error:
        pytest.fail(str(error))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pages() -> Iterator[Pages]:
    """Headless Debian Chromium. A missing Chromium fails the test, never skips it."""
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium (scripts/setup --test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield Pages(browser.new_context(viewport={"width": 1440, "height": 900}))
        finally:
            browser.close()


@pytest.fixture(scope="session")
def shots() -> Shots:
    return Shots()


@pytest.fixture
def table(pages: Pages, sandbox: Sandbox, shots: Shots) -> Table:
    return Table(sandbox, pages, shots)
