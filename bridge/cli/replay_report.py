"""What a replay found (``ReplayReport``): the requests that came out differently and the problems
met, kept up to what will be printed and counted beyond; one entry's comparison recorded into it
(``compare``), reports of pieces merged (``merge``), and the report printed (``print_report``)."""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any, TextIO

import msgspec

from bridge.cli.differences import Difference, differing, small, without_text
from bridge.protocol import current_shape
from bridge.store.lines import Entry

__all__ = ["KEPT_PROBLEMS", "Mismatch", "ReplayReport", "compare", "merge", "print_report"]


@dataclass
class Mismatch:
    """A request that came out differently: what a report prints of it, and nothing more (not the
    journal line, which may be megabytes)."""

    id: str
    #: the message type and the system/action, as printed
    type: str
    what: str
    differences: list[Difference]
    error: str | None = None


#: Problems (unreadable lines...) a report keeps word for word; the rest are only counted.
KEPT_PROBLEMS = 100


@dataclass
class ReplayReport:
    """What a replay found. It holds what it will print, never the whole session: the first
    mismatches, as many differences as ``keep`` (``--max-differences``), and the first
    ``KEPT_PROBLEMS`` problems; everything else is counted. Memory stays flat in the journal's size
    and in the number of differences."""

    session: str
    total: int = 0
    matched: int = 0
    #: the first requests that differ, holding ``keep`` differences in all (at least one each)
    mismatches: list[Mismatch] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: how many differences to keep (what ``print_report`` shows)
    keep: int = 10
    #: how many requests differ in all
    differing: int = 0
    #: problems counted but not kept
    problems_left_out: int = 0
    _kept: int = 0

    @property
    def ok(self) -> bool:
        return self.total > 0 and not self.differing and not self.problems and not self.problems_left_out

    def room(self) -> int:
        """How many more differences the report will keep (0 once its lines are spent)."""
        return max(self.keep - self._kept, 0)

    def differ(self, mismatch: Mismatch) -> None:
        """Count a request that differs; keep it if the report still has room for its lines."""
        self.differing += 1
        room = self.room()
        if not room:
            return
        mismatch.differences = mismatch.differences[: max(room, 1)]
        self._kept += (1 if mismatch.error is not None else 0) + len(mismatch.differences)
        self.mismatches.append(mismatch)

    def problem(self, text: str) -> None:
        if len(self.problems) < KEPT_PROBLEMS:
            self.problems.append(text)
        else:
            self.problems_left_out += 1


def _mismatch(entry: Entry, found: list[Difference], error: str | None = None) -> Mismatch:
    return Mismatch(entry.id, str(entry.type), _system_action(entry), found, error)


def _system_action(entry: Entry) -> str:
    system = entry.request.get("system", "?")
    action = entry.request.get("action", "default action")
    return f"{system}/{action}"


def compare(
    report: ReplayReport,
    entry: Entry,
    replayed: Any,
    error: str | None,
    *,
    english: bool = False,
    shaped: bool = False,
) -> None:
    """Count one replayed entry into ``report``: refused (``error``), or compared with its record."""
    report.total += 1
    if error is not None:
        report.differ(_mismatch(entry, [], error))
        return
    recorded = msgspec.json.decode(entry.reply)
    if shaped:
        recorded, replayed = current_shape(recorded), current_shape(replayed)
    if english:
        recorded, replayed = without_text(recorded), without_text(replayed)
    # Only the differences the report will print are built (at least one: it says whether any).
    wanted = max(report.room(), 1)
    found = [
        Difference(d.path, small(d.recorded), small(d.replayed))
        for d in itertools.islice(differing(recorded, replayed, "$"), wanted)
    ]
    if found:
        report.differ(_mismatch(entry, found))
    else:
        report.matched += 1


def merge(into: ReplayReport, part: ReplayReport) -> None:
    into.total += part.total
    into.matched += part.matched
    for mismatch in part.mismatches:
        into.differ(mismatch)
    into.differing += part.differing - len(part.mismatches)  # the part counted but did not keep these
    for problem in part.problems:
        into.problem(problem)
    into.problems_left_out += part.problems_left_out


def print_report(report: ReplayReport, out: TextIO, *, max_differences: int = 10) -> None:
    """Summary line, then the first differences field by field (at most what the report kept)."""
    from bridge.cli.inert import inert  # ids, kinds and values come from the journal: shown escaped

    for problem in report.problems:
        print(f"problem: {inert(problem)}", file=out)
    if report.problems_left_out:
        print(f"problem: ... and {report.problems_left_out} more", file=out)
    verdict = "all match" if report.ok else f"{report.differing} differ"
    print(
        f"{inert(report.session)}: {report.matched}/{report.total} requests replayed identically ({verdict})",
        file=out,
    )
    shown = printed = 0
    for mismatch in report.mismatches:
        if shown >= max_differences:
            break
        printed += 1
        print(f"request {mismatch.id!r} ({inert(mismatch.type)}, {inert(mismatch.what)}):", file=out)
        if mismatch.error is not None:
            print(f"  {inert(str(mismatch.error))}", file=out)
            shown += 1
        for difference in mismatch.differences[: max(max_differences - shown, 1)]:
            print(f"  {inert(str(difference))}", file=out)
            shown += 1
    if report.differing > printed:
        print(f"... and more ({report.differing} requests differ in all)", file=out)
