"""The report page in a real browser (headless Chromium): it renders offline, quietly, and fits.

Set ``VOLLEY_REPORT_SCREENSHOTS=docs/images`` to refresh the README's screenshots from this test.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from pathlib import Path
from typing import Any

import pytest

from bridge.report.build import report_html, write_page
from bridge.report.record import read_record

WIDTH = 1200


@pytest.fixture(scope="module")
def browser(launch_chromium: Callable[[], AbstractContextManager[Any]]) -> Iterator[Any]:
    """Headless Chromium for the module's tests (``launch_chromium``, tests/conftest.py)."""
    with launch_chromium() as launched:
        yield launched


def _show(browser: Any, page_file: Path, screenshot: Path) -> dict[str, Any]:
    page = browser.new_page(viewport={"width": WIDTH, "height": 900})
    problems: list[str] = []
    requests: list[str] = []
    page.on("console", lambda message: problems.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: problems.append(str(error)))
    page.on("request", lambda request: requests.append(request.url))
    page.goto(page_file.as_uri())
    page.screenshot(path=str(screenshot), full_page=True)
    seen = page.evaluate(
        """() => ({
            banner: document.querySelector('#verdict').innerText,
            sections: [...document.querySelectorAll('section h2')].map(h => h.innerText),
            charts: document.querySelectorAll('svg.chart').length,
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            tablesOverflow: [...document.querySelectorAll('.scroll')].map(d => d.scrollWidth - d.clientWidth),
            chartWidths: [...document.querySelectorAll('svg.chart')]
                .map(s => s.getBoundingClientRect().width),
        })"""
    )
    page.close()
    return {"problems": problems, "requests": requests, **seen}


@pytest.mark.parametrize(
    ("language", "session", "banner", "sections"),
    [
        (
            "en",
            "fair",
            "No sign of loaded dice, but some dice had too few rolls to judge.",
            ["Shooters", "Targets", "Dice fairness", "How to read this"],
        ),
        (
            "ru",
            "loaded",
            "Похоже, кости нечестные.",
            ["Стрелки", "Цели", "Честность костей", "Как это читать"],
        ),
    ],
)
def test_the_page_renders_offline_without_errors(
    browser: Any,
    tmp_path: Path,
    fair_sessions: list[Path],
    loaded_session: Path,
    *,
    language: str,
    session: str,
    banner: str,
    sections: list[str],
) -> None:
    journal = fair_sessions[0] if session == "fair" else loaded_session
    page_file = write_page(
        tmp_path / f"report-{language}.html", report_html([read_record(journal)], language)
    )
    screenshot = tmp_path / f"report-{language}.png"
    seen = _show(browser, page_file, screenshot)
    assert seen["problems"] == []
    assert seen["requests"] == [page_file.as_uri()]  # nothing else fetched: it opens offline
    assert banner in seen["banner"]
    assert all(section in seen["sections"] for section in sections)
    assert seen["charts"] == 4 and all(width > 300 for width in seen["chartWidths"])
    assert seen["overflow"] <= 0  # nothing spills sideways at a laptop's width
    assert all(extra <= 0 for extra in seen["tablesOverflow"])  # no table needs scrolling there either
    assert screenshot.stat().st_size > 50_000
    keep = os.environ.get("VOLLEY_REPORT_SCREENSHOTS")
    if keep:
        shutil.copyfile(screenshot, Path(keep) / screenshot.name)
