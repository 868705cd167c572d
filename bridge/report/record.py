"""Reading journals for the report: take what can be used, count what cannot, never raise, never hold
the session.

``bridge.store.reader.read_session`` reads a journal strictly, for replay. The report is more forgiving:
a journal copied by hand, cut short by a crash or edited by someone may still tell most of a
session's story, so each line stands on its own. A line that is not JSON, or whose fields are not
the shape a resolved request has, is skipped and counted with its reason; a line of a kind the
report does not use is counted by kind; an ``undo`` line names a request the referee took back.

**Two passes, memory flat in the session's size.** A session of a hundred thousand requests is
hundreds of megabytes of JSON; the report never holds it. ``read_record`` reads the journal once,
line by line with the store's reader (``bridge.store.files.LineReader``), and keeps only what is small
and needed before the figures can be added up: the header, the lines it skipped (the first
``KEPT_SKIPPED`` of them, and how many), the ids the referee undid, the first steps of two-step attacks
that were allocated, and the seeds. ``SessionRecord.resolutions`` then reads the same bytes again and
yields one ``Resolution`` at a time, for ``tally`` to add up and forget. The second pass stops where
the first did, so a live journal that grew in between tells both passes the same story.

**The zero tail.** The journal writes its lines over zeros laid ahead (``bridge.store.journal_file``), so
a live journal, or one whose server was killed, ends in zeros after its last line. Those zeros are
not damage; a closed journal's last stretch of anything else (a torn line) is.
"""

from __future__ import annotations

from array import array
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO

import msgspec

from bridge.protocol import reply_pending
from bridge.store.files import MAX_LINE, LineReader, open_for_reading

__all__ = [
    "KEPT_OUTSIDE",
    "KEPT_SKIPPED",
    "Resolution",
    "Resolutions",
    "SessionRecord",
    "Skipped",
    "read_record",
    "read_record_bytes",
]

_decoder = msgspec.json.Decoder()
#: Skipped lines kept one by one per session (the page lists twenty); the rest are only counted, so a
#: file of garbage costs no memory.
KEPT_SKIPPED = 100
#: Changes made outside Volley kept one by one per session (the rest are counted).
KEPT_OUTSIDE = 100
#: Seeds are kept as 64-bit integers (8 bytes a request) to find the ones a campaign repeats.
_SEED_RANGE = (-(1 << 63), (1 << 63) - 1)


@dataclass(frozen=True)
class Resolution:
    """One resolved request: what was asked, how it was rolled and what came of it.

    ``result`` is the rules' result inside the reply (hits, weapon, rolls, updates); ``pool`` is
    what the first step of a two-step attack rolled (the reply's ``pending``), or None.
    """

    session: str
    id: str
    type: str
    outcome: str
    request: dict[str, Any]
    result: dict[str, Any]
    seed: int | None
    scripted: bool
    pending_id: str | None = None
    pool: Any = None


@dataclass(frozen=True)
class Skipped:
    """A journal line the report could not use: where it was and why."""

    session: str
    line: int
    reason: str


@dataclass
class _Undo:
    target: str


Opener = Callable[[], AbstractContextManager[BinaryIO]]


@dataclass
class SessionRecord:
    """One journal as the report reads it: what the first pass kept, and the way back to its lines.

    ``count`` is the number of resolved lines; ``undone`` the ids its undo lines name;
    ``allocated`` the first steps of two-step attacks that an ``allocate`` in it finished; ``seeds``
    the seed of every resolved line rolled with one. ``skipped`` holds the first ``KEPT_SKIPPED``
    unusable lines and ``skipped_count`` all of them.
    """

    name: str
    started: str | None = None
    rules_version: str | None = None
    skipped: list[Skipped] = field(default_factory=list)
    skipped_count: int = 0
    other_kinds: Counter[str] = field(default_factory=Counter)
    count: int = 0
    undone: set[str] = field(default_factory=set)
    undo_lines: int = 0
    #: First steps of two-step attacks cancelled at the table (``cancel`` lines).
    cancelled: set[str] = field(default_factory=set)
    #: What ``applied`` marks say changed outside Volley: the first ``KEPT_OUTSIDE``, and how many.
    outside: list[dict[str, Any]] = field(default_factory=list)
    outside_count: int = 0
    allocated: set[str] = field(default_factory=set)
    seeds: array[int] = field(default_factory=lambda: array("q"))
    #: How to read the journal's bytes again, and how far the first pass read.
    _open: Opener | None = None
    _end: int | None = None
    _tail: int = 0

    def skip(self, line: int, reason: str) -> None:
        self.skipped_count += 1
        if len(self.skipped) < KEPT_SKIPPED:
            self.skipped.append(Skipped(self.name, line, reason))

    @property
    def resolutions(self) -> Resolutions:
        """The resolved lines: ``len`` is their number, and each iteration reads them again from the
        journal, one at a time (the lines the first pass skipped are left out)."""
        return Resolutions(self)

    def _read_again(self) -> Iterator[Resolution]:
        if self._open is None:
            return
        try:
            with self._open() as handle:
                for _, line in _lines(handle, self._end, self._tail):
                    obj = _object(line)
                    if obj is not None and obj.get("kind") == "resolved":
                        resolution = _resolution(self.name, obj)
                        if isinstance(resolution, Resolution):
                            yield resolution
        except OSError as error:  # the file went away between the passes: say so, once
            self.skip(0, f"cannot read the file again: {error.strerror or error}")


class Resolutions:
    """A session's resolved requests, never held: iterating reads them from the journal again."""

    def __init__(self, record: SessionRecord) -> None:
        self._record = record

    def __iter__(self) -> Iterator[Resolution]:
        return self._record._read_again()

    def __len__(self) -> int:
        return self._record.count


def _lines(handle: BinaryIO, stop: int | None, tail: int) -> Iterator[tuple[int, bytes | None]]:
    """The whole lines up to ``stop``, then ``tail`` bytes more: a last stretch without its newline."""
    reader = LineReader(handle, stop=stop)
    for number, _, line in reader:
        yield number, line
    if tail:
        handle.seek(reader.position)
        yield reader.lines + 1, handle.read(tail) if tail <= MAX_LINE else None


def _survey(record: SessionRecord, handle: BinaryIO, *, live: bool) -> None:
    """The first pass: every line, keeping only what ``SessionRecord`` holds.

    The store's reader stops at the first zero byte, where the record ends (the zeros a running
    journal lays ahead of its lines, or what a killed one left): those are not damage. A closed
    file's last stretch without its newline, before the zeros or the end of the file, is a torn line
    (or a last line that lost its newline), read as one more line; a live one's is still being
    written.
    """
    reader = LineReader(handle)
    for number, _, line in reader:
        _take(record, number, line)
    record._end = reader.position
    if reader.unterminated and not live:
        record._tail = reader.unterminated
        handle.seek(reader.position)
        tail = handle.read(reader.unterminated) if reader.unterminated <= MAX_LINE else None
        _take(record, reader.lines + 1, tail)


def read_record(path: Path, *, live: bool = False) -> SessionRecord:
    """Read the journal at ``path`` (memory flat in the file's size); a file that cannot be read at
    all gives one skipped line. ``live``: the session is still being written, so an unfinished last
    line is simply not there yet rather than damage."""
    record = SessionRecord(name=path.stem, _open=lambda: open_for_reading(path))
    try:
        with open_for_reading(path) as handle:
            _survey(record, handle, live=live)
    except OSError as error:
        record._open = None
        record.skip(0, f"cannot read the file: {error.strerror or error}")
    return record


def read_record_bytes(name: str, data: bytes, *, live: bool = False) -> SessionRecord:
    """Read a journal's bytes (as ``read_record`` reads a file)."""
    record = SessionRecord(name=name, _open=lambda: nullcontext(BytesIO(data)))
    _survey(record, BytesIO(data), live=live)
    return record


def _object(line: bytes | None) -> dict[str, Any] | None:
    if line is None or not line.strip():
        return None
    try:
        obj = _decoder.decode(line)
    except (msgspec.DecodeError, RecursionError):
        return None
    return obj if isinstance(obj, dict) else None


def _take(record: SessionRecord, number: int, line: bytes | None) -> None:
    """One line into ``record`` (None: a line too long for any journal, skipped unread)."""
    if line is None:
        record.skip(number, "not JSON (torn or edited line)")
        return
    if not line.strip():
        return
    try:
        obj = _decoder.decode(line)
    except (msgspec.DecodeError, RecursionError):
        record.skip(number, "not JSON (torn or edited line)")
        return
    if not isinstance(obj, dict):
        record.skip(number, "not a JSON object")
        return
    kind = obj.get("kind")
    if kind == "header":
        _read_header(record, obj)
    elif kind == "resolved":
        resolution = _resolution(record.name, obj)
        if isinstance(resolution, str):
            record.skip(number, resolution)
        else:
            _note(record, resolution)
    elif kind == "undo":
        target = obj.get("target_id")
        if isinstance(target, str):
            record.undone.add(target)
            record.undo_lines += 1
        else:
            record.skip(number, "an undo line without the id it undoes")
    elif kind == "cancel":
        pending = obj.get("pending_id")
        if isinstance(pending, str):
            record.cancelled.add(pending)
        else:
            record.skip(number, "a cancel line without the id it cancels")
    elif kind == "applied":
        _read_outside(record, obj.get("outside"))
    else:
        record.other_kinds[str(kind)] += 1


def _note(record: SessionRecord, resolution: Resolution) -> None:
    record.count += 1
    if resolution.type == "allocate" and resolution.pending_id is not None:
        record.allocated.add(resolution.pending_id)
    seed = resolution.seed
    if seed is not None and not resolution.scripted and _SEED_RANGE[0] <= seed <= _SEED_RANGE[1]:
        record.seeds.append(seed)


def _read_outside(record: SessionRecord, outside: Any) -> None:
    """An ``applied`` mark's changes made outside Volley (``docs/protocol.md``): each an object."""
    for change in outside if isinstance(outside, list) else []:
        if isinstance(change, dict):
            record.outside_count += 1
            if len(record.outside) < KEPT_OUTSIDE:
                record.outside.append(change)


def _read_header(record: SessionRecord, obj: dict[str, Any]) -> None:
    started = obj.get("started")
    version = obj.get("rules_version")
    record.started = started if isinstance(started, str) else None
    record.rules_version = version if isinstance(version, str) else None


def _resolution(session: str, obj: dict[str, Any]) -> Resolution | str:
    """A ``Resolution``, or why the line is not one (a short reason for the page)."""
    id_ = obj.get("id")
    type_ = obj.get("type")
    outcome = obj.get("outcome")
    request = obj.get("request")
    reply = obj.get("reply")
    if not isinstance(id_, str) or not isinstance(type_, str) or not isinstance(outcome, str):
        return "a resolved line without its id, type or outcome"
    if not isinstance(request, dict):
        return f"{id_}: no request"
    if not isinstance(reply, dict) or not isinstance(reply.get("result"), dict):
        return f"{id_}: no result in the reply"
    seed = obj.get("seed")
    dice = obj.get("dice")
    if not (isinstance(seed, int) and not isinstance(seed, bool)):
        seed = None
    pending_id = obj.get("pending_id")
    return Resolution(
        session=session,
        id=id_,
        type=type_,
        outcome=outcome,
        request=request,
        result=reply["result"],
        seed=seed,
        scripted=isinstance(dice, list),
        pending_id=pending_id if isinstance(pending_id, str) else None,
        pool=reply_pending(reply),  # the reply's copy (journal format 2) or the result's own
    )
