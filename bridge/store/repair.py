"""What a file in the sessions directory is, and cutting the one thing a crash can leave: a torn tail.

The journal is append-only: lines are written whole, each ending in a newline, over zeros laid ahead
of them, and synced in order. So a crash can only leave the *end* of the record damaged: the last
line without its newline, the zeros past it, and (a power loss can persist the pages of a batch out of
order) zeros with a fragment of a later write after them. The record ends at the first zero byte (no
journal line holds one: JSON escapes it): nothing after it was ever acknowledged, since the sync
that acknowledges a line makes every byte before it durable too. So repair cuts the file at the start
of the line that holds the first zero (or, when no zero is left, at the start of a last line that lacks
its newline), whatever follows; a line that ends in a newline before the first zero was written whole
and is never cut.

Before the bridge reads a file it decides what the file is:

* a Volley journal of a format this version reads: its torn tail, if any, is cut (or, if the last line
  is a whole record that only lacks its newline, the newline is added); one that then holds nothing
  but its header (a server killed before it resolved anything) is removed, as a clean stop removes it;
* the same, when the tail cannot be cut (an immutable file, a read-only mount, no write permission):
  it is still the record. It is left as it is and read only up to its first zero byte, like every
  reader reads it (``bridge.store.files.LineReader``): its whole lines are answered, and the note says
  which file and why it was not cut;
* a file that is not a Volley journal (no session header on line 1: someone's ``my_notes.jsonl``), or a
  journal of a newer format: left byte for byte as it is, and reported once;
* a file that cannot be read at all, or that is not a regular file (a FIFO, a socket: never opened for
  a blocking read, ``bridge.store.files``): reported and skipped, never fatal.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import BinaryIO

import msgspec

from bridge.store.files import open_for_reading, open_regular
from bridge.store.journal_file import discard_session
from bridge.store.lines import FORMAT_VERSION, Header

__all__ = ["MAX_HEADER_BYTES", "FileKind", "Inspection", "inspect"]

#: A session header is a few hundred bytes; a first line longer than this is not one.
MAX_HEADER_BYTES = 64 * 1024
#: How much of the file's end is read at a time when looking for the start of its last line.
_TAIL_STEP = 64 * 1024
#: How much is read at a time when looking for the first zero byte.
_SCAN_STEP = 1 << 20

_header_decoder = msgspec.json.Decoder(Header)


class _AnyKind(msgspec.Struct):
    """Enough of a journal line to know it is one whole record: a JSON object with a ``kind``."""

    kind: str


_record_decoder = msgspec.json.Decoder(_AnyKind)


class FileKind(Enum):
    JOURNAL = "journal"
    EMPTY = "empty"
    FOREIGN = "foreign"
    NEWER = "newer"
    UNREADABLE = "unreadable"


@dataclass(frozen=True)
class Inspection:
    """What a file turned out to be, and the one line to report about it (``note``), if any."""

    path: Path
    kind: FileKind
    #: The header line, newline included (journals only): identifies the file in the ledger's index.
    head: bytes = b""
    #: The file's size after any repair.
    size: int = 0
    #: What to report about the file, if anything; an unreadable file's says only why (the caller
    #: says what becomes of its ids).
    note: str | None = None

    @property
    def usable(self) -> bool:
        """Whether the bridge should read this file's ids."""
        return self.kind is FileKind.JOURNAL


def inspect(path: Path, *, repair: bool = True) -> Inspection:
    """Classify ``path`` and, for a journal this version reads, repair a torn last line (unless
    ``repair`` is off: a journal still being written is only read, its unfinished line left alone)."""
    name = path.name
    try:
        with open_for_reading(path) as handle:
            first = handle.read(MAX_HEADER_BYTES)
            size = os.fstat(handle.fileno()).st_size
    except OSError as error:
        return Inspection(path, FileKind.UNREADABLE, note=f"{name}: cannot be read ({_reason(error)})")
    if not first:
        return Inspection(path, FileKind.EMPTY)
    end = first.find(b"\n")
    line = first if end < 0 else first[: end + 1]
    header = _header(line)
    if header is None:
        return Inspection(
            path,
            FileKind.FOREIGN,
            note=f"{name}: not a Volley journal (no session header on line 1); left as it is",
        )
    if header.format > FORMAT_VERSION:
        return Inspection(
            path,
            FileKind.NEWER,
            note=(
                f"{name}: a journal of format {header.format}, newer than this Volley reads "
                f"({FORMAT_VERSION}); left as it is and its ids are not remembered"
            ),
        )
    note = None
    head = line if line.endswith(b"\n") else line + b"\n"
    if repair:
        try:
            size, note = _repair_tail(path, size)
        except _CannotCut as failed:
            note = (
                f"{name}: its torn tail cannot be cut ({_reason(failed.error)}); left as it is, and its "
                f"ids are answered from its whole lines (up to byte {failed.end:,}), read only"
            )
        except OSError as error:
            return Inspection(path, FileKind.UNREADABLE, note=f"{name}: cannot be read ({_reason(error)})")
    if repair and size == len(head) and line.endswith(b"\n") and _discarded(path):
        # A server that resolved nothing and was killed (a clean stop removes its own): no record to
        # keep, and ``volley sessions`` would list it with 0 requests.
        return Inspection(
            path,
            FileKind.EMPTY,
            note=f"{name}: removed: a session that resolved nothing (its server was killed)",
        )
    return Inspection(path, FileKind.JOURNAL, head=head, size=size, note=note)


def _discarded(path: Path) -> bool:
    """Remove a journal that holds only its header; whether it is gone."""
    try:
        discard_session(path)
    except OSError:
        return False
    return not path.exists()


def _reason(error: OSError) -> str:
    return error.strerror or str(error)


def _header(line: bytes) -> Header | None:
    try:
        return _header_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return None


def _is_record(line: bytes) -> bool:
    try:
        _record_decoder.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
        return False
    return True


class _CannotCut(Exception):
    """The tail could be read but not cut: ``error`` says why; the record's whole lines end at ``end``."""

    def __init__(self, error: OSError, end: int) -> None:
        super().__init__(str(error))
        self.error = error
        self.end = end


def _repair_tail(path: Path, size: int) -> tuple[int, str | None]:
    """Cut what a crash left past the last whole line: everything from the line holding the first zero
    byte on (the zeros the journal lays ahead of its lines, ``bridge.store.journal``, and whatever a
    power loss left after them), or a last line that lacks its newline, unless what precedes the cut
    is a whole record (then finish it).

    Returns the file's new size and a warning when something was cut. Raises ``_CannotCut`` when the
    file can be read but not changed, ``OSError`` when it cannot be read.
    """
    with open_for_reading(path) as handle:
        zero = _first_zero(handle, size)
        if zero is None:
            handle.seek(size - 1)
            if handle.read(1) == b"\n":
                return size, None
            end = size
        else:
            end = zero
        start = _last_line_start(handle, end)
        handle.seek(start)
        tail = handle.read(end - start)
        # Bytes up to the last one that is not a zero, from the first zero on: a write's fragment.
        after = _data_end(handle, size) - end if zero is not None else 0
    cut = size - end
    try:
        fd = open_regular(path, os.O_RDWR)
    except OSError as error:
        raise _CannotCut(error, start) from None
    try:
        if tail.strip(b" \t\r") and _is_record(tail):
            if cut:
                os.ftruncate(fd, end)
            os.lseek(fd, end, os.SEEK_SET)
            os.write(fd, b"\n")  # a whole record whose newline never made it: keep it
            os.fsync(fd)
            return end + 1, _past_end_cut(path, cut, after)
        number = _count_lines(path, start) + 1 if end > start else 0
        os.ftruncate(fd, start)
        os.fsync(fd)
    except OSError as error:
        raise _CannotCut(error, start) from None
    finally:
        os.close(fd)
    if end == start:
        return start, _past_end_cut(path, cut, after)
    return start, (
        f"{path.name}: cut a torn last line (line {number}, {end - start} bytes) left by a crash"
        + (f", and the {cut:,} bytes after it ({_what_follows(after)})" if cut else "")
    )


def _what_follows(after: int) -> str:
    return "zeros" if not after else "zeros, and part of a later write a crash left among them"


def _past_end_cut(path: Path, cut: int, after: int) -> str | None:
    if not after:
        return _zeros_cut(path, cut)
    return f"{path.name}: cut {cut:,} bytes past its last whole line ({_what_follows(after)})"


def _zeros_cut(path: Path, zeros: int) -> str | None:
    if not zeros:
        return None
    return f"{path.name}: cut {zeros:,} zero bytes past its last line (its server stopped without closing it)"


def _first_zero(handle: BinaryIO, size: int) -> int | None:
    """Offset of the file's first zero byte before ``size`` (None if there is none), read forward a
    megabyte at a time: once per repaired file, at start."""
    handle.seek(0)
    offset = 0
    while offset < size:
        chunk = handle.read(min(_SCAN_STEP, size - offset))
        if not chunk:
            return None
        found = chunk.find(b"\0")
        if found >= 0:
            return offset + found
        offset += len(chunk)
    return None


def _data_end(handle: BinaryIO, size: int) -> int:
    """Offset just past the last byte before ``size`` that is not a zero (0 if there is none)."""
    return _back_to(handle, size, lambda chunk: len(chunk.rstrip(b"\0")))


def _last_line_start(handle: BinaryIO, size: int) -> int:
    """Offset just after the last newline before ``size`` (0 if there is none)."""
    return _back_to(handle, size, lambda chunk: chunk.rfind(b"\n") + 1)


def _back_to(handle: BinaryIO, size: int, past_last: Callable[[bytes], int]) -> int:
    """Read back from ``size`` a step at a time until ``past_last(chunk)`` (where in the chunk the
    sought byte ends, 0 if it is not there) finds it; the file offset it names, or 0."""
    stop = size
    while stop > 0:
        start = max(0, stop - _TAIL_STEP)
        handle.seek(start)
        past = past_last(handle.read(stop - start))
        if past:
            return start + past
        stop = start
    return 0


def _count_lines(path: Path, stop: int) -> int:
    """Newlines before ``stop`` (only for the warning's line number: a torn file is rare)."""
    count = 0
    with open_for_reading(path) as handle:
        left = stop
        while left > 0:
            chunk = handle.read(min(left, 1 << 20))
            if not chunk:
                break
            count += chunk.count(b"\n")
            left -= len(chunk)
    return count
