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
"""

from __future__ import annotations

import itertools
import os
import sys
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, BinaryIO, TextIO

import msgspec

import rules
from bridge.protocol import ProtocolError, current_shape
from bridge.resolution import decode, dice_for, reply_for, resolve
from bridge.store.files import CHUNK, LineReader, open_for_reading
from bridge.store.lines import FORMAT_VERSION, LINE_DECODER, Entry, Header, decode_line, read_line, too_long
from bridge.store.reader import SessionLog, SessionReader

__all__ = [
    "Difference",
    "Mismatch",
    "ProgressBar",
    "ReplayReport",
    "differences",
    "print_report",
    "replay_against",
    "replay_entry",
    "replay_session",
]


@dataclass(frozen=True)
class Difference:
    path: str
    recorded: Any
    replayed: Any

    def __str__(self) -> str:
        return f"{self.path}: recorded {_show(self.recorded)}, replayed {_show(self.replayed)}"


_MISSING = object()


#: The longest a value is shown (a longer one is cut, with "...").
_SHOWN_CHARS = 120


def _show(value: Any) -> str:
    if value is _MISSING:
        return "(absent)"
    if isinstance(value, _Shown):
        return str(value)
    text = msgspec.json.encode(value).decode()
    return text if len(text) <= _SHOWN_CHARS else text[: _SHOWN_CHARS - 3] + "..."


def differences(recorded: Any, replayed: Any, path: str = "$") -> list[Difference]:
    """Every leaf where two decoded JSON values differ, in document order."""
    return list(_differing(recorded, replayed, path))


def _differing(recorded: Any, replayed: Any, path: str) -> Iterator[Difference]:
    """``differences``, one at a time: a caller that shows ten never builds the millionth."""
    if isinstance(recorded, dict) and isinstance(replayed, dict):
        for key in list(recorded) + [k for k in replayed if k not in recorded]:
            yield from _differing(recorded.get(key, _MISSING), replayed.get(key, _MISSING), f"{path}.{key}")
        return
    if isinstance(recorded, list) and isinstance(replayed, list):
        for index in range(max(len(recorded), len(replayed))):
            left = recorded[index] if index < len(recorded) else _MISSING
            right = replayed[index] if index < len(replayed) else _MISSING
            yield from _differing(left, right, f"{path}[{index}]")
        return
    if recorded is replayed or (type(recorded) is type(replayed) and recorded == replayed):
        return
    yield Difference(path, recorded, replayed)


class _Shown(str):
    """A value too big to keep, kept as the text a report prints for it."""


def _kept(value: Any) -> Any:
    """``value`` if it is small, else what ``_show`` prints of it: a report holds no more than it prints."""
    if value is _MISSING or value is None or isinstance(value, (bool, int, float)):
        return value
    if isinstance(value, str) and len(value) <= _SHOWN_CHARS:
        return value
    return _Shown(_show(value))


#: What protocol 1 wrote as English text and protocol 2 writes as messages: a result's ``log`` and each
#: roll's ``for``; a card's ``title``, ``system_title`` and ``log``; a d100 check's ``note`` and a
#: suppression's ``reason``; a GURPS unjam attempt's ``time``.
TEXT_FIELDS = frozenset({"log", "for", "title", "system_title", "note", "reason", "time"})
#: The last journal format whose replies carried English text.
LAST_TEXT_FORMAT = 1


def without_text(value: Any) -> Any:
    """``value`` (decoded JSON) with every :data:`TEXT_FIELDS` member removed, at any depth."""
    if isinstance(value, dict):
        return {key: without_text(item) for key, item in value.items() if key not in TEXT_FIELDS}
    if isinstance(value, list):
        return [without_text(item) for item in value]
    return value


def _speaks_english(log: SessionLog | SessionReader) -> bool:
    """Whether the journal was written when replies carried English text (format 1)."""
    return log.header is not None and log.header.format <= LAST_TEXT_FORMAT


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


#: A log this long gets a progress bar (on a terminal) when none was asked for or refused.
LONG_LOG = 100


def want_progress(requested: bool | None, total: int, stream: TextIO | None = None) -> bool:
    """``--progress`` / ``--no-progress`` win; otherwise long logs on a terminal get a bar."""
    if requested is not None:
        return requested
    return total >= LONG_LOG and (stream or sys.stderr).isatty()


class ProgressBar:
    """A one-line bar on stderr for long work (a long log; ``volley report`` over many sessions)."""

    WIDTH = 30

    def __init__(
        self, total: int, *, enabled: bool, stream: TextIO | None = None, label: str = "replay"
    ) -> None:
        self.label = label
        self.total = total
        self.enabled = enabled and total > 0
        self.stream = stream or sys.stderr
        self.done = 0

    def advance(self, count: int = 1) -> None:
        before = self.done
        self.done += count
        step = max(1, self.total // 100)
        if self.enabled and (self.done == self.total or self.done // step != before // step):
            filled = self.WIDTH * self.done // self.total
            bar = "#" * filled + "." * (self.WIDTH - filled)
            self.stream.write(f"\r{self.label} [{bar}] {self.done}/{self.total}")
            if self.done == self.total:
                self.stream.write("\n")
            self.stream.flush()


def replay_entry(entry: Entry, format: int = FORMAT_VERSION) -> bytes:
    """Resolve a journaled request again with its journaled dice; the reply bytes it gives now, in
    the shape of the journal's ``format`` (a format-2 reply carried copies a format-3 one does not)."""
    request = decode(entry.request, id=entry.id, lenient=True)
    result = resolve(request, dice_for(request, entry.seed), id=entry.id)
    return reply_for(entry.id, entry.request, result, format=format)[1]


def _mismatch(entry: Entry, found: list[Difference], error: str | None = None) -> Mismatch:
    return Mismatch(entry.id, str(entry.type), _system_action(entry), found, error)


def _compare(
    report: ReplayReport,
    entry: Entry,
    replayed: Any,
    error: str | None,
    *,
    english: bool = False,
    shaped: bool = False,
) -> None:
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
        Difference(d.path, _kept(d.recorded), _kept(d.replayed))
        for d in itertools.islice(_differing(recorded, replayed, "$"), wanted)
    ]
    if found:
        report.differ(_mismatch(entry, found))
    else:
        report.matched += 1


def _check(report: ReplayReport, entry: Entry, format: int) -> None:
    """Replay one entry into ``report``: equal bytes settle it; otherwise the differences say where
    (leaving the text fields out for a format-1 journal)."""
    english = format <= LAST_TEXT_FORMAT
    try:
        replayed = replay_entry(entry, format)
    except ProtocolError as refused:
        _compare(report, entry, None, f"now refused: {refused.code} at {refused.path}: {refused.message}")
        return
    except rules.RuleError as refused:
        _compare(report, entry, None, f"now refused: {refused.path}: {refused.message}")
        return
    except Exception as error:  # a bug in a rules system: a difference to report, not a traceback
        _compare(report, entry, None, f"replay failed: {error!r}")
        return
    if replayed == bytes(entry.reply):
        report.total += 1
        report.matched += 1
        return
    try:
        _compare(report, entry, msgspec.json.decode(replayed), None, english=english)
    except RecursionError:
        _compare(report, entry, None, "the reply is nested too deeply to compare")


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


def _merge(into: ReplayReport, part: ReplayReport) -> None:
    into.total += part.total
    into.matched += part.matched
    for mismatch in part.mismatches:
        into.differ(mismatch)
    into.differing += part.differing - len(part.mismatches)  # the part counted but did not keep these
    for problem in part.problems:
        into.problem(problem)
    into.problems_left_out += part.problems_left_out


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
    lines = max(_count_lines(path) - 1, 0) if maybe else 0
    bar = ProgressBar(lines, enabled=maybe and want_progress(progress, lines))
    workers = workers or replay_workers()
    jobs = ((path, report.session, header.format, keep, piece) for piece in _pieces(path, size))
    done = 1  # the header line
    if workers < 2 or size < PARALLEL_FROM:
        for job in jobs:
            part, count, ended = _replay_piece(job)
            _renumber(part, report.session, done)
            _merge(report, part)
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
            _merge(report, part)
            done += count
            bar.advance(count)
            if ended:  # later pieces lie past the record's end: their work is let go unread
                break
    return report


def _count_lines(path: Path) -> int:
    """The newlines before the first zero byte (where every reader stops)."""
    count = 0
    with open_for_reading(path) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            zero = chunk.find(b"\0")
            if zero >= 0:
                return count + chunk.count(b"\n", 0, zero)
            count += chunk.count(b"\n")
    return count


def _recorded_faces(entry: Entry) -> list[int]:
    reply = msgspec.json.decode(entry.reply)
    result = reply.get("result") if isinstance(reply, dict) else None
    rolls = result.get("rolls", []) if isinstance(result, dict) else []
    return [int(roll["face"]) for roll in rolls]


def _wire_message(entry: Entry, prefix: str) -> dict[str, Any]:
    """The request as it would be sent again, under a fresh id, with its recorded faces scripted."""
    faces = _recorded_faces(entry)
    if entry.type == "allocate":
        return {
            "type": "allocate",
            "id": prefix + entry.id,
            "pending_id": prefix + (entry.pending_id or ""),
            "allocation": entry.request.get("allocation"),
            "dice": faces,
        }
    request, _ = rules.drop_unknown_fields(entry.request)  # what the table's bridge ignored then
    return {"type": entry.type, "id": prefix + entry.id, "request": {**request, "dice": faces}}


def _text(message: dict[str, Any]) -> str:
    """The protocol is JSON *text* frames (``websockets`` would send bytes as a binary frame)."""
    return msgspec.json.encode(message).decode()


async def replay_against(
    path: Path, url: str, token: str, *, progress: bool | None = False, keep: int = 10
) -> ReplayReport:
    """Replay every entry of ``path`` through a running bridge at ``url`` (it needs scripted dice on)."""
    from websockets.asyncio.client import connect

    log = SessionReader(path)  # streamed: memory stays flat in the journal's size
    report = ReplayReport(session=log.name, keep=keep)
    prefix = f"replay-{uuid.uuid4().hex[:12]}-"
    maybe = progress if progress is not None else sys.stderr.isatty()
    total = max(_count_lines(path) - 1, 0) if maybe and log.header is not None else 0
    bar = ProgressBar(total, enabled=maybe and want_progress(progress, total))
    try:
        async with connect(url, max_size=2**22) as socket:
            await socket.send(_text({"type": "hello", "token": token, "client": "volley replay"}))
            welcome = msgspec.json.decode(await socket.recv())
            if welcome.get("type") != "welcome":
                report.problem(f"the server refused us: {welcome.get('message')}")
                return report
            if not welcome.get("scripted_dice"):
                report.problem("the server does not allow scripted dice; start it with --allow-scripted-dice")
                return report
            english = _speaks_english(log)
            for entry in log:
                if not isinstance(entry, Entry):
                    continue
                await socket.send(_text(_wire_message(entry, prefix)))
                reply = msgspec.json.decode(await socket.recv())
                if isinstance(reply, dict) and reply.get("type") == "error":
                    _compare(report, entry, None, f"server error {reply.get('code')}: {reply.get('message')}")
                else:
                    if isinstance(reply, dict):
                        reply["id"] = entry.id
                    # The server answers in its protocol's shape, the journal holds its own version's:
                    # both are compared without the copies the older shape carried.
                    _compare(report, entry, reply, None, english=english, shaped=True)
                bar.advance()
    finally:
        log.close()
        report.problems[:0] = log.problems
    return report


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


def _system_action(entry: Entry) -> str:
    system = entry.request.get("system", "?")
    action = entry.request.get("action", "default action")
    return f"{system}/{action}"
