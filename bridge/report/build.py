"""From journals to the page: read, add up, test, draw. The CLI and the bridge's route both call this."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bridge.i18n import Catalogue
from bridge.report.fairness import calibration, die_tests
from bridge.report.page import Findings, render_page
from bridge.report.record import SessionRecord
from bridge.report.tally import tally

__all__ = ["findings", "report_html", "write_page"]


def findings(records: Iterable[SessionRecord]) -> Findings:
    """Everything the report says, before it is put into words."""
    counted = tally(records)
    return Findings(counted, die_tests(counted.dice.faces), calibration(counted.percentiles))


def report_html(records: Iterable[SessionRecord], language: str) -> str:
    """The whole page for these sessions, in ``language`` (an unknown one gets English)."""
    return render_page(findings(records), Catalogue.load(language))


def write_page(out: Path, html: str) -> Path:
    """Write the page to ``out``, creating its folder; a reader never sees half a page."""
    out.parent.mkdir(parents=True, exist_ok=True)
    partial = out.with_name(out.name + ".part")
    partial.write_text(html, encoding="utf-8")
    partial.replace(out)
    return out
