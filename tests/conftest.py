"""What every test folder may share: headless Chromium (Debian's, driven by Playwright) for the
browser tests of the Foundry module (``tests/browser``) and of the session report (``tests/report``),
one per process (``SharedChromium``), a fresh context per test.

A missing Chromium fails the test that needs it, never skips it.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, suppress
from typing import Any

import pytest

from devkit.browser import CHROMIUM, CHROMIUM_ARGS


class SharedChromium:
    """One headless Chromium for consecutive browser tests of this process (a pytest-xdist worker is a
    process of its own), launched when a test asks for it and again if it went away (a test that crashed
    it). Each test gets a context of its own (``tests/browser/conftest.py`` ``pages``): no cookie, storage,
    BroadcastChannel or page of one test is seen by the next. Starting a Chromium took 2-3 s, per test.

    Playwright's synchronous API holds its event loop as the thread's running loop while it is started,
    so an asyncio test (pytest-aiohttp, ``asyncio.run``) cannot run beside it, nor another Playwright:
    ``pytest_runtest_setup`` stops it before any test that does not use it (the run's order keeps a
    folder's tests together, so that is rare). Browser tests that run an event loop themselves (the
    session report's) take a Chromium of their own (``launch_chromium``).
    """

    def __init__(self) -> None:
        self._playwright: Any = None
        self._browser: Any = None

    @property
    def started(self) -> bool:
        return self._playwright is not None

    def browser(self) -> Any:
        if not CHROMIUM.exists():
            pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium (scripts/setup --test)")
        if self._browser is not None and self._browser.is_connected():
            return self._browser
        if self._playwright is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
        self._browser = self._playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        return self._browser

    def stop(self) -> None:
        if self._browser is not None:
            with suppress(Exception):  # gone already: nothing to close
                self._browser.close()
        if self._playwright is not None:
            self._playwright.stop()
        self._browser = self._playwright = None


@contextmanager
def _chromium() -> Iterator[Any]:
    if not CHROMIUM.exists():
        pytest.fail(f"Chromium not found at {CHROMIUM}: apt-get install chromium (scripts/setup --test)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS)
        try:
            yield browser
        finally:
            browser.close()


@pytest.fixture(scope="session")
def launch_chromium() -> Callable[[], AbstractContextManager[Any]]:
    """``with launch_chromium() as browser:`` runs a headless Chromium (a Playwright ``Browser``) of its
    own for as long as the block: a test's, or a test module's, as its fixture chooses."""
    return _chromium


CHROMIUM_OF_THIS_RUN = SharedChromium()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test that does not use it, the run's shared Chromium stops (see ``SharedChromium``)."""
    if CHROMIUM_OF_THIS_RUN.started and "shared_chromium" not in getattr(item, "fixturenames", ()):
        CHROMIUM_OF_THIS_RUN.stop()


@pytest.fixture(scope="session")
def shared_chromium() -> Iterator[SharedChromium]:
    """The run's headless Chromium, one per process (``SharedChromium``): ``.browser()`` gives it,
    launched when needed. A test takes a context of its own in it, and closes it."""
    try:
        yield CHROMIUM_OF_THIS_RUN
    finally:
        CHROMIUM_OF_THIS_RUN.stop()


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    """A failing test is named the moment it fails, not only in the summary at the end: a long run that is
    stopped, or whose worker dies, still says which tests failed. (Under xdist the controller receives
    every worker's reports; a worker itself writes nothing here.)"""
    if not report.failed:
        return
    config = _CONFIG.get("config")
    if config is None or hasattr(config, "workerinput"):
        return
    reporter = config.pluginmanager.get_plugin("terminalreporter")
    if reporter is not None:
        reporter.write_line("")
        reporter.write_line(f"FAILED {report.nodeid} ({report.when})", red=True, bold=True)


_CONFIG: dict[str, pytest.Config] = {}


def pytest_configure(config: pytest.Config) -> None:
    _CONFIG["config"] = config


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """On CI (``CI`` set, as ``.ci/run`` is run) every test runs: a skipped one fails the run, as no test
    collected does (pytest's exit 5)."""
    if not os.environ.get("CI") or hasattr(session.config, "workerinput"):
        return
    reporter = session.config.pluginmanager.get_plugin("terminalreporter")
    skipped = len(reporter.stats.get("skipped", [])) if reporter is not None else 0
    if skipped and session.exitstatus == pytest.ExitCode.OK:
        reporter.write_line(f"CI: {skipped} test(s) skipped; every test must run here", red=True)
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
