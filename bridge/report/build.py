"""From journals to the page: read, add up, test, draw. The CLI and the bridge's route both call this."""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path

from bridge.i18n import Catalogue
from bridge.report.fairness import calibration_of, die_tests, judge, order_tests
from bridge.report.findings import Findings
from bridge.report.luck import judge_luck
from bridge.report.page import render_page
from bridge.report.record import SessionRecord
from bridge.report.tally import tally
from bridge.report.totals import Tally

__all__ = ["findings", "judged", "report_html", "write_page"]


def findings(records: Iterable[SessionRecord]) -> Findings:
    """Everything the report says, before it is put into words."""
    return judged(tally(records))


def judged(counted: Tally) -> Findings:
    """The tests made on a tally, each verdict corrected for the other looks on the same page."""
    dice = counted.dice
    chart = counted.luck_chart
    tests, luck, orders = judge(
        die_tests(dice.faces),
        calibration_of(chart.histogram, chart.mean),
        order_tests(dice.pairs, dice.repeats),
    )
    shooters = judge_luck({name: shooter.luck for name, shooter in counted.shooters.items()})
    return Findings(counted, tests, luck, shooters, orders)


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
