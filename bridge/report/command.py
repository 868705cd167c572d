"""``volley report SESSION [SESSION...] [-o FILE] [--open] [--all] [--lang en|ru]``.

Writes one self-contained HTML page and prints its path. Sessions are named as ``volley show`` names
them (a name, an unambiguous prefix, or a path); several sessions, or ``--all``, make a campaign
report. The page's words follow ``--lang``, else the environment's language.

Matplotlib and SciPy (the ``report`` extra) are imported only when a report is written, so the rest
of ``volley`` starts as fast as before.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

from bridge.cli.sessions import find_session
from bridge.i18n import add_language
from bridge.paths import add_data_dir, data_dir, sessions_dir

__all__ = ["default_output", "register"]

EXIT_FAILED = 1
EXIT_USAGE = 2
#: Where reports go unless ``-o`` says otherwise: beside the journals they come from.
REPORTS_DIR = "reports"
#: A report over this many sessions shows its progress (on stderr, when that is a terminal).
MANY_SESSIONS = 2
EXTRA_MISSING = (
    "volley report: matplotlib or SciPy is missing (matplotlib draws the charts, SciPy the tests); "
    "they come with Volley: reinstall it (pipx install --force volley-<version>-py3-none-any.whl)"
)


def default_output(journals: list[Path], data: Path) -> Path:
    """``<data dir>/reports/<session>.html``, or ``campaign-<first>--<last>.html`` for several."""
    names = [path.stem for path in journals]
    name = names[0] if len(names) == 1 else f"campaign-{names[0]}--{names[-1]}"
    return data / REPORTS_DIR / f"{name}.html"


def _journals(args: argparse.Namespace) -> list[Path]:
    directory = sessions_dir(data_dir(args.data_dir))
    chosen: list[Path] = []
    if args.all:
        from bridge.store.files import session_files

        chosen.extend(session_files(directory))
    for name in args.sessions:
        path = find_session(name, directory)  # LookupError names what is wrong
        if path not in chosen:
            chosen.append(path)
    return chosen


def cmd_report(args: argparse.Namespace) -> int:
    if not args.sessions and not args.all:
        print(
            "volley report: name at least one session (see `volley sessions`), or pass --all", file=sys.stderr
        )
        return EXIT_USAGE
    try:
        journals = _journals(args)
    except LookupError as error:
        print(f"volley report: {error}", file=sys.stderr)
        return EXIT_USAGE
    if not journals:
        print(f"volley report: no sessions in {sessions_dir(data_dir(args.data_dir))}", file=sys.stderr)
        return EXIT_USAGE
    try:
        from bridge.report.build import report_html, write_page
    except ImportError:
        print(EXTRA_MISSING, file=sys.stderr)
        return EXIT_USAGE
    from bridge.cli.progress import ProgressBar
    from bridge.report.record import read_record

    records = []
    # Over several sessions, a bar on stderr while the journals are read, only when it is a terminal.
    bar = ProgressBar(
        len(journals), enabled=len(journals) >= MANY_SESSIONS and sys.stderr.isatty(), label="report"
    )
    for path in journals:
        records.append(read_record(path))
        bar.advance()
    unusable = [r.name for r in records if r.started is None and not r.count]
    if len(unusable) == len(records):
        print(f"volley report: {', '.join(unusable)}: not a Volley session journal", file=sys.stderr)
        return EXIT_USAGE
    out: Path = args.output or default_output(journals, data_dir(args.data_dir))
    try:
        write_page(out, report_html(records, args.lang))
    except OSError as error:
        print(f"volley report: cannot write {out}: {error.strerror or error}", file=sys.stderr)
        return EXIT_FAILED
    print(out)
    if args.open:
        import webbrowser  # only here: it imports subprocess and threading, every command would pay

        webbrowser.open(out.resolve().as_uri())
    return 0


def register(commands: Any) -> None:
    """Add ``report`` to ``volley``'s subcommands."""
    report = commands.add_parser(
        "report", help="write an HTML report of sessions: rounds, hits, luck, and whether the dice were fair"
    )
    report.add_argument("sessions", nargs="*", metavar="SESSION", help="session name, unique prefix, or path")
    report.add_argument("--all", action="store_true", help="every recorded session (a campaign report)")
    report.add_argument(
        "-o", "--output", type=Path, default=None, help="the page to write (default: <data dir>/reports/)"
    )
    report.add_argument("--open", action="store_true", help="open the page in a browser")
    add_language(report, "page")
    add_data_dir(report)
    report.set_defaults(run=cmd_report)
