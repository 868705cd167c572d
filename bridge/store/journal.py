"""The session journal: one append-only JSON-lines file per server run, fsynced before any reply.

Line 1 is a ``header`` (format version, rules and bridge versions, start time, systems). Every later
line records one resolved request: the request as the client sent it, the seed or scripted dice it was
rolled with, and the exact reply bytes sent back, so that

* a retried request id gets the very same bytes, even after a restart (``bridge.store.ledger`` indexes
  where each reply's line is, and reads it back from here);
* a session can be re-resolved later and compared (``bridge.replay``).

Durability: a result is only sent once its line is on disk. Lines waiting at the same moment share one
``write`` and one ``fsync`` (group commit). A lone line on a fast disk is written on the event loop
itself, since handing it to a thread and back costs more than the fsync; bigger batches, and every
batch while the disk is slow, go to the journal's writer thread so the loop keeps serving. Once a
batch is durable its writers are answered first, and only then is the index told where the lines
went (``on_written``): nothing the index does can delay, fail or hang a reply.
Lines are written over zeros laid ahead past the last line, so that the sync has only data to commit
(``_ZeroTail``); a clean close truncates the file to its last line. A crash can leave a torn last line
and those zeros; ``bridge.store.repair`` cuts both on the next start, with a warning, and every reader
stops at the first zero byte and skips a last stretch that has no newline yet.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple, TypeVar

import msgspec

from bridge.paths import O_BINARY
from bridge.store.files import LineReader, open_for_reading, session_files

if TYPE_CHECKING:
    import asyncio
    import threading
    from contextlib import AbstractContextManager

__all__ = [
    "FORMAT_VERSION",
    "INLINE_FSYNC_LIMIT",
    "LAST_COPYING_FORMAT",
    "LINE_DECODER",
    "AppliedLine",
    "CancelLine",
    "CommitStats",
    "Entry",
    "Header",
    "Journal",
    "JournalError",
    "SessionLog",
    "SessionReader",
    "TableLine",
    "UndoLine",
    "Written",
    "decode_line",
    "discard_session",
    "line_time",
    "read_line",
    "read_session",
    "session_files",
]

#: Version of the line format below; a reader refuses files from a newer format. 2: the replies inside
#: carry protocol-2 message objects (log lines, roll purposes, card titles) instead of English text;
#: replay compares a format-1 file's text fields leniently (``bridge.replay``). 3: the replies are
#: protocol 3's, each thing once (``bridge.protocol.ResultReply``); replay re-resolves a format-2 file
#: into the older shape, so its bytes still compare.
FORMAT_VERSION = 3
#: The last format whose replies carried copies (the card's log and pending, the reply's updates).
LAST_COPYING_FORMAT = 2
#: A batch of one line is fsynced on the event loop while the disk's recent fsyncs average less than
#: this (seconds); otherwise, and for every bigger batch, the writer thread does it.
INLINE_FSYNC_LIMIT = 0.001
#: Zeros written past the journal's last line at a time, for the next lines to be written over.
ZERO_TAIL_BYTES = 1 << 20
#: Only a batch up to this size lays new zeros when it passes their end; a bigger one is appended.
ZERO_BATCH_BYTES = 16 << 10


class _ZeroTail:
    """Zeros written ahead past the journal's last line, for the next lines to be written over.

    A line written over blocks the file already holds, inside its size, leaves the sync nothing to
    commit but the data: ``fdatasync`` writes no metadata. On this project's ext4 disks that took the
    sync of a lone line from about 125-175 µs (an append, even into space reserved ahead) to 90-115 µs
    (``scripts/bench_fsync.py``), the largest part of a lone attack's round trip. Growing the tail is a
    write of ``ZERO_TAIL_BYTES`` and a full ``fsync``, always in the writer thread, and only by a small
    batch (``ZERO_BATCH_BYTES``): under a heavy load, batches of a hundred lines share one sync, which
    the metadata barely adds to, and writing every byte twice (zeros, then lines) would cost more than
    it saves; such a batch is appended past the zeros, and the next small one lays them again.

    The price is a file that, while open and after a crash, ends in up to ``ZERO_TAIL_BYTES`` of zeros
    past its last line. No journal line holds a NUL byte (JSON escapes it), so every reader stops at
    the first zero (``bridge.store.files.LineReader``), whatever a later read finds after it;
    the next start cuts them (``bridge.store.repair``), and a clean close truncates the file to its
    last line. Where ``pwrite`` or ``fdatasync`` is missing (Windows, macOS), or the zeros cannot be
    written (a full disk), lines are written at the end and fsynced, as before.
    """

    def __init__(self, size: int) -> None:
        #: The file's size: the lines and the zeros past them.
        self.end = size
        self.on = _can_lay_zeros()

    def covers(self, end: int) -> bool:
        """Whether a write ending at ``end`` falls inside zeros already durable (a data-only sync)."""
        return self.on and end <= self.end


def _can_lay_zeros() -> bool:
    """Whether this platform writes at an offset and syncs data alone (not Windows, not macOS)."""
    return _pwrite is not None and hasattr(os, "fdatasync")


#: ``os.pwrite``: writes at an offset without moving the file position. Windows has none.
_pwrite: Callable[[int, memoryview, int], int] | None
if sys.platform == "win32":
    _pwrite = None
else:
    _pwrite = os.pwrite


def _write_at(fd: int, data: bytes, offset: int) -> None:
    """All of ``data`` at ``offset`` (the file is not opened for appending: lines go over the zeros)."""
    view = memoryview(data)
    pwrite = _pwrite
    if pwrite is None:
        os.lseek(fd, offset, os.SEEK_SET)
    while view:
        written = os.write(fd, view) if pwrite is None else pwrite(fd, view, offset)
        view = view[written:]
        offset += written


def _datasync(fd: int) -> None:
    """``fdatasync``, called only where it exists (``_ZeroTail.on``)."""
    if sys.platform == "win32" or sys.platform == "darwin":
        os.fsync(fd)
    else:
        os.fdatasync(fd)


class Header(msgspec.Struct, kw_only=True, tag="header", tag_field="kind"):
    """First line of a session file."""

    format: int
    session: str
    started: str
    rules_version: str
    bridge_version: str
    systems: dict[str, str] = msgspec.field(default_factory=dict)


class Entry(msgspec.Struct, kw_only=True, tag="resolved", tag_field="kind", gc=False):
    """One resolved request.

    ``type`` is the client message type (attack, action, allocate); ``outcome`` the reply type
    (``result``, or ``pending`` for the first step of a two-step attack). Exactly one of ``seed`` and
    ``dice`` is set. ``reply`` holds the bytes that were sent, verbatim. ``request`` is read back as a
    dict; the server may write it as the client's own JSON bytes (a ``msgspec.Raw`` of one line,
    ``bridge.resolution.journaled``), which read back as the same dict.
    """

    id: str
    type: str
    at: str
    outcome: str
    request: dict[str, Any]
    seed: int | None = None
    dice: list[int] | None = None
    pending_id: str | None = None
    reply: msgspec.Raw


class UndoLine(msgspec.Struct, kw_only=True, tag="undo", tag_field="kind"):
    """The referee undid request ``target_id`` (``bridge/undo.py``). Replay skips these lines: the
    request itself is replayed as it was resolved; the undo is part of the story, not of the rules.
    ``reply`` holds the ``undone`` bytes sent back, for a retried undo id."""

    id: str
    target_id: str
    at: str
    user: str | None = None
    reply: msgspec.Raw


class CancelLine(msgspec.Struct, kw_only=True, tag="cancel", tag_field="kind"):
    """The first step ``pending_id`` of a two-step attack was cancelled at the table (issue #31,
    ``bridge/undo.py``): it spent nothing, and its ``pending_id`` settles it for the ledger as an
    allocation would. Replay skips these lines. ``reply`` holds the ``cancelled`` bytes sent back."""

    id: str
    pending_id: str
    at: str
    user: str | None = None
    reply: msgspec.Raw


class AppliedLine(msgspec.Struct, kw_only=True, tag="applied", tag_field="kind"):
    """The updates of request ``target_id`` were applied at the table (issue #31, ``bridge/undo.py``):
    the record no player can delete that a repeat of the key must change nothing. The line's ``id`` is
    the bridge's own, ``applied:<target_id>`` (one line per key); ``mark`` is the client's id for the
    mark; ``outside`` what changed outside Volley since the weapon's last card (docs/protocol.md).
    Replay skips these lines. ``reply`` holds the ``applied`` bytes sent back."""

    id: str
    target_id: str
    mark: str
    at: str
    user: str | None = None
    outside: list[Any] = msgspec.field(default_factory=list)
    reply: msgspec.Raw


#: Lines that tell what happened at the table around the requests: replay never re-resolves them.
TableLine = UndoLine | CancelLine | AppliedLine

JournalLine = Header | Entry | UndoLine | CancelLine | AppliedLine

#: Reads one whole journal line, whatever its kind.
LINE_DECODER = msgspec.json.Decoder(JournalLine)
T = TypeVar("T")
_encoder = msgspec.json.Encoder()


class _Clock:
    """UTC timestamps to the millisecond for journal lines (``2026-11-29T19:48:10.408Z``); the part
    up to the second is formatted once per second, not once per request."""

    def __init__(self) -> None:
        self._second = -1
        self._prefix = ""

    def __call__(self) -> str:
        now = time.time()
        second = int(now)
        if second != self._second:
            self._second = second
            self._prefix = datetime.fromtimestamp(second, UTC).strftime("%Y-%m-%dT%H:%M:%S")
        return f"{self._prefix}.{int((now - second) * 1000):03d}Z"


#: ``line_time()``: now, as a journal line's ``at`` says it (every kind of line, the same way).
line_time = _Clock()


class JournalError(Exception):
    """The journal could not be written: nothing may be acknowledged."""


class Written(NamedTuple):
    """Where one journaled line landed in its session file (what the ledger indexes)."""

    line: Any
    offset: int
    length: int


# --- reading ------------------------------------------------------------------------------------


@dataclass
class SessionLog:
    """A session file as read back: its header, its entries and what was wrong with it."""

    path: Path
    header: Header | None
    #: Entries and undo lines, in the order they were written (``volley show``). Timestamps cannot
    #: order them: two lines written within the same millisecond share one.
    records: list[Entry | TableLine] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def entries(self) -> list[Entry]:
        """The resolved requests (what replay re-resolves; it never sees the undo lines)."""
        return [record for record in self.records if isinstance(record, Entry)]

    @property
    def undos(self) -> list[UndoLine]:
        return [record for record in self.records if isinstance(record, UndoLine)]


def decode_line(line: bytes) -> Header | Entry | TableLine:
    return LINE_DECODER.decode(line)


def read_line(
    decoder: msgspec.json.Decoder[T], line: bytes, where: str, report: Callable[[str], None]
) -> T | None:
    """``line`` decoded, or None after telling ``report`` why it was skipped.

    Every reader of journals (``read_session``, replay, the ledger's index) skips an unreadable line
    the same way and says so in the same words, naming it by ``where`` (``file:line``). "Unreadable"
    includes a line nested too deeply for any recursive reader (``RecursionError``). ``decoder`` reads
    as much of the line as its caller needs: ``LINE_DECODER`` reads whole journal lines.
    """
    try:
        return decoder.decode(line)
    except msgspec.DecodeError as error:  # a ValidationError is a DecodeError too
        report(f"{where}: unreadable line skipped ({error})")
    except RecursionError:
        report(f"{where}: unreadable line skipped (nested too deeply)")
    return None


def too_long(where: str) -> str:
    """What every reader says of a line past ``MAX_LINE`` bytes (skipped without being held)."""
    return f"{where}: unreadable line skipped (longer than any journal line)"


class SessionReader:
    """A journal read one line at a time: its header first, then its records as they are iterated.

    Memory stays flat in the file's size (``bridge.store.files.LineReader``): ``volley show`` prints
    each record as it comes. Problems (unreadable lines, a file that cannot be opened) gather in
    ``problems``; a last line without its newline (a live or killed session) is skipped silently.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header: Header | None = None
        self.problems: list[str] = []
        self._lines: Iterator[tuple[int, int, bytes | None]] | None = None
        self._first: Entry | TableLine | None = None
        self._handle = None
        try:
            self._handle = open_for_reading(path)
        except OSError as error:
            self.problems.append(f"{path.name}: cannot be read ({error.strerror or error})")
            return
        self._lines = iter(LineReader(self._handle))
        for record in self._records():
            if isinstance(record, Header):
                if record.format > FORMAT_VERSION:
                    self.problems.append(
                        f"{path.name}: format {record.format} is newer than {FORMAT_VERSION}"
                    )
                    self.close()
                    return
                self.header = record
            else:
                self._first = record
            break

    @property
    def name(self) -> str:
        return self.path.stem

    def empty(self) -> bool:
        """Whether the file holds no record at all after its header (reads ahead at most one)."""
        if self._first is None:
            for record in self:
                self._first = record
                break
        return self._first is None

    def _records(self) -> Iterator[Header | Entry | TableLine]:
        if self._lines is None:
            return
        name = self.path.name
        try:
            for number, _, line in self._lines:
                if line is None:
                    self.problems.append(too_long(f"{name}:{number}"))
                    continue
                if not line.strip():
                    continue
                record = read_line(LINE_DECODER, line, f"{name}:{number}", self.problems.append)
                if record is not None:
                    yield record
        except OSError as error:
            self.problems.append(f"{name}: reading stopped ({error.strerror or error})")

    def __iter__(self) -> Iterator[Entry | TableLine]:
        """The entries and undo lines, in the order they were written (a later header is a problem)."""
        if self._first is not None:
            first, self._first = self._first, None
            yield first
        for record in self._records():
            if isinstance(record, Header):
                self.problems.append(f"{self.path.name}: a second session header skipped")
                continue
            yield record
        self.close()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        self._lines = None


def read_session(path: Path) -> SessionLog:
    """Read a journal without changing it; an unreadable line (``read_line``), or a whole file that
    cannot be opened, is reported and skipped, never fatal. (It holds every record: readers that need
    memory flat in the file's size iterate a ``SessionReader`` instead.)"""
    reader = SessionReader(path)
    records = list(reader)
    return SessionLog(path=path, header=reader.header, records=records, problems=reader.problems)


# --- writing ------------------------------------------------------------------------------------


@dataclass
class CommitStats:
    """How group commit is doing: lines per fsync and how long the fsyncs take."""

    batches: int = 0
    lines: int = 0
    largest_batch: int = 0
    inline_batches: int = 0
    fsync_seconds: float = 0.0
    slowest_fsync: float = 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "batches": self.batches,
            "lines": self.lines,
            "largest_batch": self.largest_batch,
            "inline_batches": self.inline_batches,
            "lines_per_fsync": round(self.lines / self.batches, 2) if self.batches else 0.0,
            "mean_fsync_ms": round(1000 * self.fsync_seconds / self.batches, 3) if self.batches else 0.0,
            "slowest_fsync_ms": round(1000 * self.slowest_fsync, 3),
        }


def _fsync_directory(directory: Path) -> None:
    """Make a file's creation or removal durable: POSIX needs the directory itself synced.

    Windows cannot open a directory as a file, and has no directory sync to call: NTFS logs its
    directory changes itself. There this does nothing (the file's own fsync still happens).
    """
    if sys.platform == "win32":
        return
    fd = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def discard_session(path: Path) -> None:
    """Remove a closed session file that holds only its header (nothing was resolved)."""
    log = read_session(path)
    if log.entries or log.problems:
        return  # never throw away a record of play, nor a file we cannot fully read
    path.unlink(missing_ok=True)
    _fsync_directory(path.parent)


#: ``on_written(lines)``: told, on the event loop and in file order, where each line of a batch landed,
#: right after their writers were answered (in the same turn of the loop, so no retry comes between).
WrittenCallback = Callable[[list[Written]], None]

#: ``then(error)``: told once whether a line reached the disk (``None``) or why not.
Then = Callable[["JournalError | None"], None]

_Waiting = tuple[bytes, Any, Then]


class _Writer:
    """The journal's one writing thread: a batch goes in, and ``done(batch, seconds, error)`` comes back
    on the loop once it is durable (or failed).

    A queue and a thread of its own rather than a one-worker ``ThreadPoolExecutor``: the executor's
    future, locks and done-callback per batch were a measurable share of the loop's time per attack
    under load (the loop does everything else). Started with the first batch; a daemon, so a journal
    never closed (a test's) cannot keep the interpreter alive, and nothing is lost by that: a line is
    acknowledged only after ``done`` has run on the loop.
    """

    __slots__ = ("_done", "_loop", "_queue", "_started", "_write")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        write: Callable[[bytes], float],
        done: Callable[[list[_Waiting], float, BaseException | None], None],
    ) -> None:
        import queue

        self._loop = loop
        self._write = write
        self._done = done
        self._queue: queue.SimpleQueue[tuple[list[_Waiting], bytes] | None] = queue.SimpleQueue()
        self._started: threading.Thread | None = None

    def write(self, batch: list[_Waiting], data: bytes) -> None:
        if self._started is None:
            import threading

            self._started = threading.Thread(target=self._run, name="journal", daemon=True)
            self._started.start()
        self._queue.put((batch, data))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            batch, data = item
            seconds, error = 0.0, None
            try:
                seconds = self._write(data)
            except BaseException as failure:  # told to the loop, as a future would have held it
                error = failure
            try:
                self._loop.call_soon_threadsafe(self._done, batch, seconds, error)
            except RuntimeError:  # the loop has closed: nobody is left to tell
                return

    def shutdown(self) -> None:
        """Let the batch being written finish, then end the thread (blocks as long as that takes)."""
        if self._started is not None:
            self._queue.put(None)
            self._started.join()


class Journal:
    """The open journal of the running session: group commit, on the loop or in its writer thread."""

    def __init__(self, path: Path, fd: int, head: bytes, fsync_seconds: float, *, zeroed: int = 0) -> None:
        # Only a running server writes a journal: its readers (show, sessions, replay, report) do not
        # pay for asyncio and a writer thread at start-up.
        import asyncio

        self.path = path
        self.head = head
        self.stats = CommitStats()
        self.on_written: WrittenCallback | None = None
        #: What a batch's replies are told inside: the server's ``bridge.connection.one_write_per_socket``,
        #: so that a batch's replies to one socket leave in one write. Nothing by default.
        self.replying: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext
        self._fd = fd
        self._size = len(head)
        self._loop = asyncio.get_running_loop()
        self._waiting: list[_Waiting] = []
        self._scheduled = False
        self._busy = False
        self._closing = False
        self._idle = asyncio.Event()
        self._idle.set()
        self._recent_fsync = fsync_seconds
        self._zeros = _ZeroTail(max(zeroed, len(head)))
        self._writer = _Writer(self._loop, self._write_and_sync, self._finished)

    @property
    def session(self) -> str:
        return self.path.stem

    @classmethod
    def create(cls, directory: Path, header: Header) -> Journal:
        """Start a new session file (must be called from a running event loop)."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{header.session}.jsonl"
        head = _encoder.encode(header) + b"\n"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | O_BINARY, 0o600)
        zeroed = len(head)
        try:
            if _can_lay_zeros():  # the first lines' zeros come with the header, in its fsync
                try:
                    _write_at(fd, head + bytes(ZERO_TAIL_BYTES), 0)
                    zeroed += ZERO_TAIL_BYTES
                except OSError:  # no room for them: the header alone, and lines are appended
                    os.ftruncate(fd, 0)
                    _write_at(fd, head, 0)
            else:
                _write_at(fd, head, 0)
            started = time.perf_counter()
            os.fsync(fd)
            seconds = time.perf_counter() - started
            _fsync_directory(directory)  # the new file's name must survive a crash too
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, head, seconds, zeroed=zeroed)

    async def append(self, line: Entry | TableLine, *, alone: bool = False) -> None:
        """Queue one line and return once it is on disk (raises ``JournalError`` if it never gets there).

        ``alone``: the caller knows no other line is coming this moment (the referee has nothing else
        in flight), so on a fast disk the line is written at once, without waiting a turn of the loop
        for company.
        """
        done: asyncio.Future[None] = self._loop.create_future()

        def settle(error: JournalError | None) -> None:
            if done.done():  # the caller was cancelled meanwhile; the line is written regardless
                return
            if error is None:
                done.set_result(None)
            else:
                done.set_exception(error)

        self.append_then(line, settle, alone=alone)
        await done

    def append_then(self, line: Entry | TableLine, then: Then, *, alone: bool = False) -> None:
        """Queue one line; ``then(None)`` once it is on disk, ``then(JournalError)`` if it never gets
        there. Called exactly once: at once for a line written inline (below), else from the loop.

        The referee's path: a callback per line rather than a future, so a batch's replies go out
        from the batch's own completion, with no task to wake per request.
        """
        if self._closing:
            then(JournalError("the journal is closed"))
            return
        data = _encoder.encode(line) + b"\n"
        if alone and not (self._waiting or self._busy) and self._inline(len(data)):
            try:
                seconds = self._write_and_sync(data)
            except Exception as error:
                then(JournalError(f"could not write the journal {self.path}: {error}"))
                return
            self.stats.inline_batches += 1
            self._written([(data, line, then)], seconds)
            return
        self._waiting.append((data, line, then))
        self._idle.clear()
        if not self._scheduled and not self._busy:
            # Run after the callbacks already due, so lines arriving together share one fsync.
            self._scheduled = True
            self._loop.call_soon(self._start_batch)

    async def close(self) -> None:
        """Write everything still queued, then close the file."""
        first = not self._closing
        self._closing = True
        await self._idle.wait()
        if first:
            self._writer.shutdown()
            if self._zeros.end > self._size:
                with contextlib.suppress(OSError):  # else the next start cuts the zeros
                    os.ftruncate(self._fd, self._size)  # the file ends with its last line again
                    os.fsync(self._fd)
            os.close(self._fd)

    def _start_batch(self) -> None:
        self._scheduled = False
        if self._busy or not self._waiting:
            return
        batch, self._waiting = self._waiting, []
        data = b"".join(data for data, _, _ in batch)
        if len(batch) == 1 and self._inline(len(data)):
            try:
                seconds = self._write_and_sync(data)
            except Exception as error:  # whatever went wrong, no waiter may hang
                self._failed(batch, error)
            else:
                self.stats.inline_batches += 1
                self._written(batch, seconds)
            self._settle()
            return
        self._busy = True
        self._writer.write(batch, data)

    def _finished(self, batch: list[_Waiting], seconds: float, error: BaseException | None) -> None:
        self._busy = False
        if error is not None:
            self._failed(batch, error)
        else:
            self._written(batch, seconds)
        self._settle()

    def _settle(self) -> None:
        if self._waiting:
            self._scheduled = True
            self._loop.call_soon(self._start_batch)
        elif not self._busy:
            self._idle.set()

    def _written(self, batch: list[_Waiting], seconds: float) -> None:
        stats = self.stats
        stats.batches += 1
        stats.lines += len(batch)
        stats.largest_batch = max(stats.largest_batch, len(batch))
        stats.fsync_seconds += seconds
        stats.slowest_fsync = max(stats.slowest_fsync, seconds)
        self._recent_fsync = 0.8 * self._recent_fsync + 0.2 * seconds
        size = self._size
        placed: list[Written] = []
        for data, line, _ in batch:
            placed.append(Written(line, size, len(data)))
            size += len(data)
        self._size = size
        # The lines are durable: answer first. The index hears of them after, and whatever it does
        # (a locked or full ledger, a bug) cannot delay, fail or hang a reply.
        with self.replying():
            for _, _, then in batch:
                _tell(then, None)
        if self.on_written is not None:
            try:
                self.on_written(placed)
            except Exception:
                import logging

                logging.getLogger("volley.bridge").exception("indexing journal lines failed")

    def _failed(self, batch: list[_Waiting], error: BaseException) -> None:
        failure = JournalError(f"could not write the journal {self.path}: {error}")
        for _, _, then in batch:
            _tell(then, failure)

    def _inline(self, length: int) -> bool:
        """Whether a lone line of ``length`` bytes may be written on the loop: recent syncs are fast and
        it needs no new zeros (growing them is a megabyte and a full fsync: the thread does that)."""
        zeros = self._zeros
        return self._recent_fsync < INLINE_FSYNC_LIMIT and (not zeros.on or zeros.covers(self._size + length))

    def _write_and_sync(self, data: bytes) -> float:
        """One write and one sync for the whole batch; on failure the file is put back as it was.

        Inside the zero tail the sync is ``fdatasync``; a small batch past it writes fresh zeros after
        its lines in the same write, and a full ``fsync`` makes the new size durable with them."""
        size = self._size
        end = size + len(data)
        zeros = self._zeros
        try:
            if zeros.covers(end):
                _write_at(self._fd, data, size)
                started = time.perf_counter()
                _datasync(self._fd)
                return time.perf_counter() - started
            if zeros.on and len(data) <= ZERO_BATCH_BYTES:
                grown = end + ZERO_TAIL_BYTES
                try:
                    _write_at(self._fd, data + bytes(grown - end), size)
                except OSError:  # no room for the zeros (a full disk): lines alone, as before
                    zeros.on = False
                    os.ftruncate(self._fd, size)
                    zeros.end = size
                    _write_at(self._fd, data, size)
                else:
                    zeros.end = grown
            else:
                _write_at(self._fd, data, size)
                zeros.end = end
            started = time.perf_counter()
            os.fsync(self._fd)
            return time.perf_counter() - started
        except OSError:
            with contextlib.suppress(OSError):  # else the next start's repair cuts what was left
                os.ftruncate(self._fd, size)
            zeros.end = size  # the cut took the zeros too; the next write lays them again
            raise


def _tell(then: Then, error: JournalError | None) -> None:
    """One waiter's callback; a failing one is logged and never keeps the rest of a batch waiting."""
    try:
        then(error)
    except Exception:
        import logging  # a server has it loaded already; readers of journals never get here

        logging.getLogger("volley.bridge").exception("a journal waiter failed")
