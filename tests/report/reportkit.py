"""The report's tests' sessions: the recorded replays (``tests/replays``, real bridge journals of every
system) and the synthetic skirmishes ``devkit.sessions`` plays out, shared with
``scripts/bench_report.py``; and ``Built``, the findings and pages a test module shares."""

from __future__ import annotations

from pathlib import Path

from bridge.i18n import Catalogue
from bridge.report.build import findings
from bridge.report.findings import Findings
from bridge.report.page import render_page
from bridge.report.record import read_record
from devkit.sessions import write_session

__all__ = ["REPLAYS", "Built", "write_session"]

#: The recorded sessions (``tests/replays``), real bridge journals of every system.
REPLAYS = sorted((Path(__file__).resolve().parents[1] / "replays").glob("*.jsonl"))


class Built:
    """Each session's (or campaign's) findings and pages, made once and shared by the tests of a module
    (the ``built`` fixture), which read them and never change them: a 600-request session takes a
    second or more to tally. ``page`` is what ``report_html`` writes: ``render_page`` of the findings."""

    def __init__(self) -> None:
        self._found: dict[tuple[Path, ...], Findings] = {}
        self._pages: dict[tuple[str, tuple[Path, ...]], str] = {}

    def findings(self, *paths: Path) -> Findings:
        """``findings`` of these sessions' records."""
        if paths not in self._found:
            self._found[paths] = findings([read_record(path) for path in paths])
        return self._found[paths]

    def page(self, language: str, *paths: Path) -> str:
        """``report_html`` of these sessions' records in ``language``."""
        if (language, paths) not in self._pages:
            self._pages[language, paths] = render_page(self.findings(*paths), Catalogue.load(language))
        return self._pages[language, paths]
