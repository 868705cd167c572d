"""The session journal: one append-only JSON-lines file per server run, fsynced before any reply.

Line 1 is a ``header`` (format version, rules and bridge versions, start time, systems). Every later
line records one resolved request: the request as the client sent it, the seed or scripted dice it was
rolled with, and the exact reply bytes sent back, so that

* a retried request id gets the very same bytes, even after a restart (``bridge.ledger``);
* a session can be re-resolved later and compared (``bridge.replay``).

Durability: a result is only sent once its line is on disk. Lines waiting at the same moment share one
``write`` and one ``fsync`` (group commit), done in a worker thread so the event loop keeps serving.
A crash can leave a torn last line; ``repair`` cuts it off on the next start, with a warning.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import msgspec

__all__ = [
    "FORMAT_VERSION",
    "CommitStats",
    "Entry",
    "Header",
    "Journal",
    "JournalError",
    "SessionLog",
    "UndoLine",
    "discard_session",
    "read_session",
    "repair",
    "session_files",
]

#: Version of the line format below; a reader refuses files from a newer format. 2: the replies inside
#: carry protocol-2 message objects (log lines, roll purposes, card titles) instead of English text;
#: replay compares a format-1 file's text fields leniently (``bridge.replay``).
FORMAT_VERSION = 2


class Header(msgspec.Struct, kw_only=True, tag="header", tag_field="kind"):
    """First line of a session file."""

    format: int
    session: str
    started: str
    rules_version: str
    bridge_version: str
    systems: dict[str, str] = msgspec.field(default_factory=dict)


class Entry(msgspec.Struct, kw_only=True, tag="resolved", tag_field="kind"):
    """One resolved request.

    ``type`` is the client message type (attack, action, allocate); ``outcome`` the reply type
    (``result``, or ``pending`` for the first step of a two-step attack). Exactly one of ``seed`` and
    ``dice`` is set. ``reply`` holds the bytes that were sent, verbatim.
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


JournalLine = Header | Entry | UndoLine

_line_decoder = msgspec.json.Decoder(JournalLine)
_encoder = msgspec.json.Encoder()


class JournalError(Exception):
    """The journal could not be written: nothing may be acknowledged."""


# --- reading ------------------------------------------------------------------------------------


@dataclass
class SessionLog:
    """A session file as read back: its header, its entries and what was wrong with it."""

    path: Path
    header: Header | None
    entries: list[Entry] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    #: Undo lines, kept apart from ``entries`` so replay (which re-resolves entries) never sees them.
    undos: list[UndoLine] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem


def session_files(directory: Path) -> list[Path]:
    """Session journals in start order (their names begin with a UTC timestamp)."""
    if not directory.is_dir():
        return []
    return sorted(directory.glob("*.jsonl"))


def _lines(data: bytes) -> Iterator[tuple[int, int, bytes]]:
    """(line number, byte offset, content) of every line, the last one possibly without newline."""
    offset = 0
    number = 0
    while offset < len(data):
        end = data.find(b"\n", offset)
        stop = len(data) if end < 0 else end + 1
        number += 1
        yield number, offset, data[offset:stop]
        offset = stop


def decode_line(line: bytes) -> Header | Entry | UndoLine:
    return _line_decoder.decode(line)


def read_session(path: Path) -> SessionLog:
    """Read a journal without changing it; an undecodable line is reported and skipped."""
    data = path.read_bytes()
    log = SessionLog(path=path, header=None)
    for number, _, line in _lines(data):
        if not line.strip():
            continue
        try:
            record = decode_line(line)
        except (msgspec.DecodeError, msgspec.ValidationError) as error:
            log.problems.append(f"{path.name}:{number}: unreadable line skipped ({error})")
            continue
        if isinstance(record, Header):
            if record.format > FORMAT_VERSION:
                log.problems.append(f"{path.name}: format {record.format} is newer than {FORMAT_VERSION}")
                return log
            log.header = record
        elif isinstance(record, UndoLine):
            log.undos.append(record)
        else:
            log.entries.append(record)
    return log


def repair(path: Path) -> str | None:
    """Cut off a torn last line (a crash mid-write); returns a warning when something was cut.

    Only the tail can be torn: lines are appended whole and fsynced in order. An unreadable line
    in the middle is left alone (``read_session`` reports and skips it).
    """
    data = path.read_bytes()
    last: tuple[int, int, bytes] | None = None
    for last in _lines(data):  # noqa: B007 - only the last line matters
        pass
    if last is None:
        return None
    number, offset, line = last
    complete = line.endswith(b"\n")
    if not line.strip():
        return None if complete else _truncate(path, offset, number, len(data) - offset)
    try:
        decode_line(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return _truncate(path, offset, number, len(data) - offset)
    if not complete:  # a whole record whose newline never made it: keep it, finish the line
        with path.open("ab") as handle:
            handle.write(b"\n")
            handle.flush()
            os.fsync(handle.fileno())
    return None


def _truncate(path: Path, offset: int, number: int, size: int) -> str:
    with path.open("r+b") as handle:
        handle.truncate(offset)
        handle.flush()
        os.fsync(handle.fileno())
    return f"{path.name}: cut a torn last line (line {number}, {size} bytes) left by a crash"


# --- writing ------------------------------------------------------------------------------------


@dataclass
class CommitStats:
    """How group commit is doing: lines per fsync and how long the fsyncs take."""

    batches: int = 0
    lines: int = 0
    largest_batch: int = 0
    fsync_seconds: float = 0.0
    slowest_fsync: float = 0.0

    def as_dict(self) -> dict[str, float | int]:
        return {
            "batches": self.batches,
            "lines": self.lines,
            "largest_batch": self.largest_batch,
            "lines_per_fsync": round(self.lines / self.batches, 2) if self.batches else 0.0,
            "mean_fsync_ms": round(1000 * self.fsync_seconds / self.batches, 3) if self.batches else 0.0,
            "slowest_fsync_ms": round(1000 * self.slowest_fsync, 3),
        }


#: Binary mode on Windows (else the C runtime would write every newline as CR LF); 0 elsewhere.
O_BINARY: int = getattr(os, "O_BINARY", 0)


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


class Journal:
    """The open journal of the running session, with its group-commit writer task."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path = path
        self.stats = CommitStats()
        self._fd = fd
        self._waiting: list[tuple[bytes, asyncio.Future[None]]] = []
        self._wakeup = asyncio.Event()
        self._closing = False
        self._writer = asyncio.create_task(self._write_batches(), name=f"journal {path.name}")

    @property
    def session(self) -> str:
        return self.path.stem

    @classmethod
    def create(cls, directory: Path, header: Header) -> Journal:
        """Start a new session file (must be called from a running event loop)."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / f"{header.session}.jsonl"
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_APPEND | O_BINARY, 0o600)
        try:
            os.write(fd, _encoder.encode(header) + b"\n")
            os.fsync(fd)
            _fsync_directory(directory)  # the new file's name must survive a crash too
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd)

    async def append(self, entry: Entry | UndoLine) -> None:
        """Queue one line and return once it is on disk (raises ``JournalError`` if it never gets there)."""
        if self._closing:
            raise JournalError("the journal is closed")
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.append((_encoder.encode(entry) + b"\n", future))
        self._wakeup.set()
        await future

    async def close(self) -> None:
        """Write everything still queued, then close the file."""
        if self._closing:
            await self._writer
            return
        self._closing = True
        self._wakeup.set()
        await self._writer
        os.close(self._fd)

    async def _write_batches(self) -> None:
        while True:
            await self._wakeup.wait()
            self._wakeup.clear()
            while self._waiting:
                batch, self._waiting = self._waiting, []
                data = b"".join(line for line, _ in batch)
                try:
                    seconds = await asyncio.to_thread(self._write_and_sync, data)
                except Exception as error:  # whatever went wrong, no waiter may hang
                    failure = JournalError(f"could not write the journal {self.path}: {error}")
                    for _, future in batch:
                        if not future.done():
                            future.set_exception(failure)
                    continue
                self.stats.batches += 1
                self.stats.lines += len(batch)
                self.stats.largest_batch = max(self.stats.largest_batch, len(batch))
                self.stats.fsync_seconds += seconds
                self.stats.slowest_fsync = max(self.stats.slowest_fsync, seconds)
                for _, future in batch:
                    if not future.done():
                        future.set_result(None)
            if self._closing:
                return

    def _write_and_sync(self, data: bytes) -> float:
        """One write and one fsync for the whole batch; on failure the file is put back as it was."""
        size = os.fstat(self._fd).st_size
        try:
            view = memoryview(data)
            while view:
                written = os.write(self._fd, view)
                view = view[written:]
            started = time.perf_counter()
            os.fsync(self._fd)
            return time.perf_counter() - started
        except OSError:
            with contextlib.suppress(OSError):  # else the next start's repair() cuts what was left
                os.ftruncate(self._fd, size)
            raise
