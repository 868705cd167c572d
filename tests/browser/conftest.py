"""Fixtures for the module's browser tests: ``volley sandbox`` (a real bridge, the real module over the
sandbox's stand-in for the Foundry client) and headless Chromium through Playwright.

The stand-in (``vtt_module/sandbox/stand-in/``) fakes the Foundry client's globals; it is not Foundry.
Everything else is real: the module's ES modules, templates, styles and lang files, the bridge, the
rules engine behind it, and the browser's own WebSocket.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from browserkit import BUDGET_S, DEFAULT_GENERATION, Pages, Sandbox, Shots, Table, ms


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "foundry(*generations): run the test on each of these Foundry generations (13, 14) of the stand-in;"
        " unmarked browser tests run on 14",
    )


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    """A test (or a module, with ``pytestmark``) marked ``foundry(13, 14)`` runs once per generation."""
    marker = metafunc.definition.get_closest_marker("foundry")
    if marker is not None and "generation" in metafunc.fixturenames:
        generations = tuple(int(g) for g in marker.args)
        metafunc.parametrize("generation", generations, ids=[f"foundry{g}" for g in generations])


@pytest.fixture
def generation() -> int:
    """The Foundry generation the test's pages play (``?foundry=``): 14 unless marked otherwise."""
    return DEFAULT_GENERATION


class SandboxPool:
    """Each test gets a fresh ``volley sandbox`` of its own; the pool starts the next one as it hands one
    out, so the next test's sandbox (half a second of Python's start-up on an idle machine, several
    seconds on a busy one) starts while this test's pages wait on Chromium. A test still never shares a
    sandbox, its journal, its seeds or its data directory with another."""

    def __init__(self, folders: pytest.TempPathFactory) -> None:
        self.folders = folders
        self.spare: Sandbox | None = None

    def take(self) -> Sandbox:
        server, self.spare = self.spare or self.launched(), None
        server.wait_started()
        self.spare = self.launched()
        return server

    def launched(self) -> Sandbox:
        server = Sandbox(self.folders.mktemp("sandbox"))
        server.launch()
        return server

    def close(self) -> None:
        if self.spare is not None:
            self.spare.stop()


@pytest.fixture(scope="session")
def sandbox_pool(tmp_path_factory: pytest.TempPathFactory) -> Iterator[SandboxPool]:
    pool = SandboxPool(tmp_path_factory)
    try:
        yield pool
    finally:
        pool.close()


@pytest.fixture
def sandbox(sandbox_pool: SandboxPool) -> Iterator[Sandbox]:
    try:
        server = sandbox_pool.take()
    except RuntimeError as error:
        pytest.fail(str(error))
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture
def pages(shared_chromium: Any) -> Iterator[Pages]:
    """A fresh browser context per test in the run's headless Chromium (``shared_chromium``:
    tests/conftest.py): nothing of another test's pages is seen. The test fails if Volley's own code
    logged a Foundry compatibility warning on any of its pages."""
    context = shared_chromium.browser().new_context(viewport={"width": 1440, "height": 900})
    # Every page of the context waits as long as the budget, a popup too (the session report's).
    context.set_default_timeout(ms(BUDGET_S))
    context.set_default_navigation_timeout(ms(BUDGET_S))
    try:
        pages = Pages(context)
        yield pages
    finally:
        context.close()
    assert pages.volley_warnings == [], "Volley's code logged Foundry compatibility warnings"


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
    """A failing browser test's report says what its pages said and showed (console warnings and errors,
    notifications, open windows), so a failure on CI can be read from its log alone."""
    report = yield
    pages = getattr(item, "funcargs", {}).get("pages")
    if report.failed and call.when == "call" and isinstance(pages, Pages):
        try:
            report.sections.append(("browser pages", pages.report()))
        except Exception as error:  # never hide the failure itself behind a failing report
            report.sections.append(("browser pages", f"unreadable: {error!r}"))
    return report


@pytest.fixture(scope="session")
def shots() -> Shots:
    return Shots()


@pytest.fixture
def table(pages: Pages, sandbox: Sandbox, shots: Shots, generation: int) -> Table:
    return Table(sandbox, pages, shots, generation)
