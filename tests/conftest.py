"""What every test folder may share: headless Chromium (Debian's, driven by Playwright) for the
browser tests of the Foundry module (``tests/browser``) and of the session report (``tests/report``).

A missing Chromium fails the test that needs it, never skips it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = Path(os.environ.get("VOLLEY_CHROMIUM", "/usr/bin/chromium"))
#: What Debian's Chromium needs to run headless here, and nothing that reaches the network.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@contextmanager
def _chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium (scripts/setup --test does)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def launch_chromium() -> Callable[[], AbstractContextManager[Any]]:
    """``with launch_chromium() as browser:`` runs a headless Chromium (a Playwright ``Browser``) for
    as long as the block: a test's, or a test module's, as its fixture chooses."""
    return _chromium
