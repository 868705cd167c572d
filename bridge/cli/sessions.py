"""Reading journals back for people: ``volley sessions`` lists them, ``volley show`` prints one.

``show`` prints what the table saw, in the reader's language: for each request its time, id and kind,
then the chat card's title, the rules engine's log lines, one line per target and the weapon's state
afterwards (rendered by ``bridge.cli.card_text``). A damaged entry is shown as far as it goes, each bad
field named, and the caller is told which entries were incomplete.

``sessions`` reads only what its table shows (the header, and each line's kind and system): the
rest of every line is skipped unread, so listing years of sessions stays quick.

Both read a line at a time (``bridge.store.files.LineReader``): memory stays flat whatever a
journal's size, and anything in the directory that is not a regular file is named and skipped.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

import msgspec

from bridge.cli.card_text import (
    CANCEL,
    ENTRY,
    NO_HEADER,
    OUTSIDE,
    SCRIPTED,
    SEED,
    SESSION,
    UNDO,
    Flaw,
    card_lines,
)
from bridge.cli.inert import inert
from bridge.i18n import Catalogue
from bridge.store.files import LineReader, odd_files, open_for_reading, session_files
from bridge.store.lines import AppliedLine, CancelLine, Entry, UndoLine
from bridge.store.reader import SessionLog, SessionReader

__all__ = ["SessionSummary", "find_session", "list_sessions", "print_session", "print_sessions"]


@dataclass(frozen=True)
class SessionSummary:
    name: str
    started: str
    requests: int
    systems: tuple[str, ...]
    path: Path


class _System(msgspec.Struct):
    system: Any = "?"


class _Listed(msgspec.Struct):
    """What the listing needs of a journal line; everything else is skipped without being built."""

    kind: Any = None
    started: Any = None
    request: _System | None = None


_listed = msgspec.json.Decoder(_Listed)


def summarise_file(path: Path) -> SessionSummary:
    """A session's row in the listing, counted from its lines (resolved requests only)."""
    started = "?"
    requests = 0
    systems: set[str] = set()
    try:
        with open_for_reading(path) as handle:
            for number, _, line in LineReader(handle):
                if line is None:
                    continue  # longer than any journal line: for ``show`` to report
                try:
                    listed = _listed.decode(line)
                except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
                    continue  # unreadable lines are for ``show`` to report
                if number == 1 and listed.kind == "header" and isinstance(listed.started, str):
                    started = listed.started
                elif listed.kind == "resolved":
                    requests += 1
                    system = listed.request.system if listed.request is not None else "?"
                    systems.add(str(system))
    except OSError:
        pass
    return SessionSummary(path.stem, started, requests, tuple(sorted(systems)), path)


def list_sessions(directory: Path) -> list[SessionSummary]:
    return [summarise_file(path) for path in session_files(directory)]


def skipped_files(directory: Path) -> list[str]:
    """What ``sessions``, ``show`` and ``replay`` skip in ``directory`` (FIFOs, sockets...), one line each."""
    return odd_files(directory)


def print_sessions(summaries: list[SessionSummary], out: TextIO) -> None:
    if not summaries:
        print("no sessions yet", file=out)
        return
    # A file's name and a header's text are shown escaped: a terminal never acts on them (bridge.cli.inert).
    names = [inert(summary.name) for summary in summaries]
    width = max(len(name) for name in names)
    print(f"{'SESSION':<{width}}  {'STARTED':<20}  {'REQUESTS':>8}  SYSTEMS", file=out)
    for name, summary in zip(names, summaries, strict=True):
        systems = ", ".join(inert(system) for system in summary.systems) or "-"
        print(f"{name:<{width}}  {inert(summary.started):<20}  {summary.requests:>8}  {systems}", file=out)


def find_session(name: str, directory: Path) -> Path:
    """A path, a session name, or an unambiguous prefix of one."""
    given = Path(name)
    if given.is_file():
        return given
    if given.exists() and (given.suffix == ".jsonl" or given.parent != Path(".")):
        raise LookupError(f"{given}: not a regular file; skipped")
    candidates = [
        path for path in session_files(directory) if path.stem.startswith(name.removesuffix(".jsonl"))
    ]
    exact = [path for path in candidates if path.stem == name.removesuffix(".jsonl")]
    if exact:
        return exact[0]
    if len(candidates) == 1:
        return candidates[0]
    if not candidates:
        odd = [note for note in odd_files(directory) if note.startswith(name.removesuffix(".jsonl"))]
        if odd:
            raise LookupError(odd[0])
        raise LookupError(f"no session {name!r} in {directory}")
    raise LookupError(f"{name!r} matches {len(candidates)} sessions; give more of the name")


def print_session(log: SessionLog | SessionReader, out: TextIO, catalogue: Catalogue) -> list[str]:
    """Print ``log`` in ``catalogue``'s language; the ids of entries that could not be shown in full.

    A malformed entry (a reply that is not an object, a card that is a list, a row that is a number...)
    is shown as far as it goes, with one line per bad field naming it; it never stops the listing.
    A ``SessionReader`` is printed as it is read; problems found on the way are printed at the end.
    """
    header = log.header
    if header is not None:
        print(
            catalogue.render(
                SESSION(
                    session=header.session,
                    started=header.started,
                    rules=header.rules_version,
                    bridge=header.bridge_version,
                    format=header.format,
                ),
            ),
            file=out,
        )
    else:
        print(catalogue.render(NO_HEADER(session=log.name)), file=out)
    for problem in log.problems:
        print(f"  ! {inert(problem)}", file=out)
    shown = len(log.problems)
    incomplete: list[str] = []
    # Undo lines go where they happened, between the requests: in the journal's order.
    for entry in log.records if isinstance(log, SessionLog) else log:
        if isinstance(entry, UndoLine):
            undo = UNDO(at=entry.at, id=entry.id, target=entry.target_id, user=entry.user)
            print("\n" + catalogue.render(undo), file=out)
            continue
        if isinstance(entry, CancelLine):
            cancel = CANCEL(at=entry.at, id=entry.id, pending=entry.pending_id, user=entry.user)
            print("\n" + catalogue.render(cancel), file=out)
            continue
        if isinstance(entry, AppliedLine):
            # Only what changed outside Volley is told: that a key was applied is the ordinary case.
            for change in entry.outside:
                print(catalogue.render(_outside(entry, change)), file=out)
            continue
        flaws: list[Flaw] = []
        lines = _entry_lines(catalogue, entry, flaws)
        print("", file=out)
        for line in lines:
            print(line, file=out)
        for flaw in flaws:
            print("  ! " + catalogue.render(flaw.message()), file=out)
        if flaws:
            incomplete.append(entry.id)
    if len(log.problems) > shown:
        print("", file=out)
        for problem in log.problems[shown:]:
            print(f"  ! {inert(problem)}", file=out)
    return incomplete


def _outside(entry: AppliedLine, change: Any) -> Any:
    """One change made outside Volley before ``entry``'s request, as ``show`` tells it."""
    got = change if isinstance(change, dict) else {}

    def text(name: str) -> str:
        value = got.get(name)
        return "—" if value is None else str(value)

    return OUTSIDE(
        at=entry.at,
        target=entry.target_id,
        token=text("token_name") if got.get("token_name") else text("token"),
        weapon=text("weapon_name") if got.get("weapon_name") else text("weapon"),
        field=text("field"),
        was=text("from"),
        now=text("to"),
        by=got.get("by_name") or got.get("by") or None,
        kept=got.get("kept") is not False,
    )


def _entry_lines(catalogue: Catalogue, entry: Entry, flaws: list[Flaw]) -> list[str]:
    dice = SEED(seed=entry.seed) if entry.seed is not None else SCRIPTED(faces=entry.dice or [])
    heading = ENTRY(
        at=entry.at,
        id=entry.id,
        type=entry.type,
        pending_id=entry.pending_id,
        outcome=entry.outcome,
        dice=dice,
    )
    lines = [catalogue.render(heading)]
    try:
        reply: Any = msgspec.json.decode(entry.reply)
    except (msgspec.DecodeError, RecursionError):
        reply = None
    if not isinstance(reply, dict):
        flaws.append(Flaw("reply", "object", reply))
        return lines
    system = entry.request.get("system")
    card = reply.get("card")
    if card is None:
        flaws.append(Flaw("reply.card", "object", card))
        return lines
    shown = system if isinstance(system, str) else "?"
    lines.extend(card_lines(catalogue, card, flaws, system=shown, result=reply.get("result")))
    return lines
