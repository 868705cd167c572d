"""Replay: re-resolve a recorded session and check every outcome comes out as it did at the table.

Each journal line holds the request, the seed (or scripted dice) and the reply that was sent. Locally,
the request is resolved again with the same dice through the same code path as the server
(``bridge.resolution``), and the two replies are compared field by field. ``--against`` does the same
over the wire: each request is sent to a running bridge with its recorded faces as scripted dice
(the server must allow them) under a fresh id, and the answer is compared with the record.

A rules change that alters an old outcome therefore shows up as a difference, with its JSON path.

Journaled requests are decoded leniently: the bridge once ignored fields a request type does not
declare and now refuses them (``common.error.unknown_field``), so a field of an old request that no
type declares is dropped (``rules.drop_unknown_fields``), which is exactly what resolving it did at
the table; ``--against`` sends the request without it, for the same reason. Nothing else is relaxed:
a request that is now refused for any other reason is reported as a difference.

Journals of format 1 (protocol 1) recorded what the rules said as English text; the rules now say it
in messages (docs/i18n.md). Such a journal still replays: its text fields (:data:`TEXT_FIELDS`, the
log lines, roll purposes, card titles and notes) are left out of the comparison on both sides, and
everything else (every face, hit, flag and update) is compared exactly as before.

A long session is replayed on every core: the file is cut into chunks of lines, each decoded,
re-resolved and compared in a worker process. Comparing starts with the bytes: a reply that comes out
byte for byte as recorded (the usual case) is not decoded at all; only one that differs is walked
field by field to say where.

This file re-resolves (locally, in workers); ``differences`` compares two replies, ``replay_report``
keeps and prints what was found, ``replay_wire`` is ``--against``, ``progress`` the terminal's bar.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

import msgspec

import rules
from bridge.cli.differences import LAST_TEXT_FORMAT
from bridge.cli.progress import ProgressBar, count_lines, want_progress
from bridge.cli.replay_report import ReplayReport, compare, merge
from bridge.protocol import ProtocolError
from bridge.resolution import decode, dice_for, reply_for, resolve
from bridge.store.files import CHUNK, LineReader, open_for_reading
from bridge.store.lines import FORMAT_VERSION, LINE_DECODER, Entry, Header, decode_line, read_line, too_long

__all__ = ["PARALLEL_FROM", "PIECE_BYTES", "replay_entry", "replay_session", "replay_workers"]


def replay_entry(entry: Entry, format: int = FORMAT_VERSION) -> bytes:
    """Resolve a journaled request again with its journaled dice; the reply bytes it gives now, in
    the shape of the journal's ``format`` (a format-2 reply carried copies a format-3 one does not)."""
    request = decode(entry.request, id=entry.id, lenient=True)
    result = resolve(request, dice_for(request, entry.seed), id=entry.id)
    return reply_for(entry.id, entry.request, result, format=format)[1]


def _check(report: ReplayReport, entry: Entry, format: int) -> None:
    """Replay one entry into ``report``: equal bytes settle it; otherwise the differences say where
    (leaving the text fields out for a format-1 journal)."""
    english = format <= LAST_TEXT_FORMAT
    try:
        replayed = replay_entry(entry, format)
    except ProtocolError as refused:
        compare(report, entry, None, f"now refused: {refused.code} at {refused.path}: {refused.message}")
        return
    except rules.RuleError as refused:
        compare(report, entry, None, f"now refused: {refused.path}: {refused.message}")
        return
    except Exception as error:  # a bug in a rules system: a difference to report, not a traceback
        compare(report, entry, None, f"replay failed: {error!r}")
        return
    if replayed == bytes(entry.reply):
        report.total += 1
        report.matched += 1
        return
    try:
        compare(report, entry, msgspec.json.decode(replayed), None, english=english)
    except RecursionError:
        compare(report, entry, None, "the reply is nested too deeply to compare")


#: Bytes of journal per piece handed to a replay worker (cut at a line's end).
PIECE_BYTES = 1 << 20
#: Sessions shorter than this are replayed in this process (starting workers would cost more).
PARALLEL_FROM = 1 << 20


def _replay_lines(
    name: str, numbered: Iterable[tuple[int, int, bytes | None]], format: int, keep: int
) -> ReplayReport:
    """Decode, re-resolve and compare a run of a journal's lines (in a worker, or in this process).

    Problems name their line as ``{name}:{number}``; a worker numbers from 1 within its piece and the
    parent shifts them (``_renumber``), so no one has to count the lines before the work starts.
    """
    report = ReplayReport(session=name, keep=keep)
    for number, _, line in numbered:
        if line is None:
            report.problem(too_long(f"{name}:{number}"))
            continue
        if not line.strip():
            continue
        record = read_line(LINE_DECODER, line, f"{name}:{number}", report.problem)
        if isinstance(record, Entry):
            _check(report, record, format)
        elif isinstance(record, Header):
            report.problem(f"{name}:{number}: a second session header")
    return report


Piece = tuple[int, int]  # (byte offset, length), whole lines


def _next_line_end(handle: BinaryIO, offset: int, size: int) -> int:
    """The offset just past the first newline at or after ``offset`` (``size`` if there is none),
    found a chunk at a time: a line of any length costs no memory."""
    handle.seek(offset)
    while offset < size:
        chunk = handle.read(CHUNK)
        if not chunk:
            return size
        found = chunk.find(b"\n")
        if found >= 0:
            return offset + found + 1
        offset += len(chunk)
    return size


def _pieces(path: Path, size: int) -> Iterator[Piece]:
    """The file after its header line, in pieces of about ``PIECE_BYTES`` cut at line ends.

    Each cut is found by reading from a guessed offset to the next newline, so the file is not read
    here: workers read their own piece, and only these two numbers cross to them.
    """
    with open_for_reading(path) as handle:
        offset = _next_line_end(handle, 0, size)
        while offset < size:
            end = _next_line_end(handle, min(offset + PIECE_BYTES, size), size)
            yield offset, end - offset
            offset = end


def _replay_piece(job: tuple[Path, str, int, int, Piece]) -> tuple[ReplayReport, int, bool]:
    """One piece of a journal, replayed (in a worker process); its lines are numbered from 1.
    A last line without its newline (a live or killed session) is skipped. The third value says the
    piece met a zero byte: the journal's record ends there, and no later piece counts."""
    path, name, format, keep, (offset, length) = job
    with open_for_reading(path) as handle:
        reader = LineReader(handle, start=offset, stop=offset + length)
        report = _replay_lines(name, reader, format, keep)
    return report, reader.lines, reader.zeros is not None


def _renumber(part: ReplayReport, name: str, before: int) -> None:
    """Shift the line numbers a piece's problems name by the lines of the pieces before it."""
    prefix = f"{name}:"
    for k, problem in enumerate(part.problems):
        number, colon, rest = problem.removeprefix(prefix).partition(":")
        if problem.startswith(prefix) and colon and number.isdigit():
            part.problems[k] = f"{prefix}{int(number) + before}:{rest}"


def _worker_start() -> None:
    """A forked replay worker: what it inherited is never garbage, keep it out of every collection
    (a full pass would walk it, and touch every page it shares with the parent)."""
    import gc

    gc.freeze()


def _header_of(path: Path, report: ReplayReport) -> Header | None:
    """The session header the file starts with, if this version reads it (else says why in ``report``)."""
    try:
        with open_for_reading(path) as handle:
            first = next((line for _, _, line in LineReader(handle, max_line=1 << 16)), None) or b""
    except OSError as error:
        report.problem(f"{path.name}: cannot be read ({error.strerror or error})")
        return None
    try:
        header = decode_line(first) if first.strip() else None
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        header = None
    if not isinstance(header, Header):
        report.problem(f"{path.name}: no header line; not a Volley session journal")
        return None
    if header.format > FORMAT_VERSION:
        report.problem(f"{path.name}: format {header.format} is newer than {FORMAT_VERSION}")
        return None
    return header


def replay_workers() -> int:
    """Every core this process may use."""
    if sys.platform == "linux":
        return len(os.sched_getaffinity(0))
    return os.cpu_count() or 1


def replay_session(
    path: Path, *, progress: bool | None = False, workers: int | None = None, keep: int = 10
) -> ReplayReport:
    """Replay every entry of ``path``; a long session on every core (``workers``: how many). The
    report keeps ``keep`` differences (what ``print_report`` shows) and counts the rest."""
    report = ReplayReport(session=path.stem, keep=keep)
    header = _header_of(path, report)
    if header is None:
        return report
    try:
        size = path.stat().st_size
    except OSError as error:
        report.problem(f"{path.name}: cannot be read ({error.strerror or error})")
        return report
    # The bar needs the number of lines up front; counting them reads the file once more, so only
    # when the bar is shown.
    maybe = progress if progress is not None else sys.stderr.isatty()
    lines = max(count_lines(path) - 1, 0) if maybe else 0
    bar = ProgressBar(lines, enabled=maybe and want_progress(progress, lines))
    workers = workers or replay_workers()
    jobs = ((path, report.session, header.format, keep, piece) for piece in _pieces(path, size))
    done = 1  # the header line
    if workers < 2 or size < PARALLEL_FROM:
        for job in jobs:
            part, count, ended = _replay_piece(job)
            _renumber(part, report.session, done)
            merge(report, part)
            done += count
            bar.advance(count)
            if ended:  # the zeros a running or killed journal ends in: nothing after them is a line
                break
        return report
    # Fork where it is safe (Linux; the CLI runs no threads), so workers start at once and know every
    # registered system; spawn elsewhere.
    import multiprocessing  # only a long session needs it (its import is a few ms of every start)

    method = "fork" if sys.platform == "linux" else "spawn"
    with multiprocessing.get_context(method).Pool(workers, initializer=_worker_start) as pool:
        for part, count, ended in pool.imap(_replay_piece, jobs):
            _renumber(part, report.session, done)
            merge(report, part)
            done += count
            bar.advance(count)
            if ended:  # later pieces lie past the record's end: their work is let go unread
                break
    return report
