"""Opening files in the data directory safely, and reading their lines without holding them whole.

Anyone can leave anything in ``sessions/``: a FIFO named ``x.jsonl`` (opening it for reading would wait
forever for a writer), a socket, a device, a directory, a 2 GB file of zeros. So:

* every file is opened with ``O_NONBLOCK`` and checked with ``fstat`` to be a regular file before a
  byte is read (``open_regular``); anything else raises ``NotRegularFile``, an ``OSError``, so every
  reader that already reports an unreadable file reports this one the same way, and moves on;
* listings (``session_files``) only ever name regular files; ``odd_files`` names the rest, so each
  command can say what it skipped;
* lines are read a chunk at a time (``LineReader``): memory stays flat whatever the file's size, a
  line longer than ``MAX_LINE`` is skipped without being held, and a last line without its newline
  (still being written, or torn by a crash) is not a line yet and is never handed out;
* reading stops at the first zero byte. No journal line holds one (JSON escapes it), so a zero is
  where the record ends: the zeros a running journal lays ahead of its lines
  (``bridge.store.journal``), or what a crash left. Nothing after it is ever joined to what came
  before, so a reader racing the writer (a chunk read while its end was still zeros, the next one
  after new lines covered them) never sees a line made of both.
"""

from __future__ import annotations

import errno
import os
import stat
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from bridge.paths import O_BINARY

__all__ = [
    "CHUNK",
    "MAX_LINE",
    "LineReader",
    "NotRegularFile",
    "odd_files",
    "open_for_reading",
    "open_regular",
    "read_at",
    "session_files",
]

#: The longest journal line any reader takes: a line holds a request (a frame of at most 64 KiB) and
#: its reply (at most the 1 MiB outbox), so 8 MiB is far past anything the bridge writes.
MAX_LINE = 8 << 20
#: Bytes read at a time.
CHUNK = 1 << 20

_NONBLOCK: int = getattr(os, "O_NONBLOCK", 0)
_NOCTTY: int = getattr(os, "O_NOCTTY", 0)


class NotRegularFile(OSError):
    """The path is a FIFO, socket, device or directory: never read, reported and skipped."""


def _kind(mode: int) -> str:
    for test, name in (
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISDIR, "a directory"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    ):
        if test(mode):
            return name
    return "not a regular file"


def _not_regular(path: Path, mode: int) -> NotRegularFile:
    return NotRegularFile(errno.EINVAL, f"not a regular file ({_kind(mode)})", str(path))


def open_regular(path: Path, flags: int = os.O_RDONLY, mode: int = 0o600) -> int:
    """A descriptor of ``path`` if it is a regular file; ``NotRegularFile`` (an ``OSError``) if not.

    ``O_NONBLOCK`` makes opening a FIFO return at once instead of waiting for a writer; on a regular
    file it changes nothing, so it is left on.
    """
    fd = os.open(path, flags | O_BINARY | _NONBLOCK | _NOCTTY, mode)
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(mode):
        os.close(fd)
        raise _not_regular(path, mode)
    return fd


def read_at(path: Path, offset: int, length: int) -> bytes:
    """``length`` bytes of ``path`` from ``offset`` (fewer at its end): one line read back by where an
    index says it is."""
    fd = open_regular(path)
    try:
        return os.pread(fd, length, offset) if hasattr(os, "pread") else _seek_read(fd, offset, length)
    finally:
        os.close(fd)


def _seek_read(fd: int, offset: int, length: int) -> bytes:
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, length)


def open_for_reading(path: Path) -> BinaryIO:
    """``open(path, "rb")``, for regular files only (``open_regular``)."""
    return os.fdopen(open_regular(path), "rb")


def _journal_entries(directory: Path) -> list[os.DirEntry[str]]:
    try:
        with os.scandir(directory) as entries:
            return sorted(
                (entry for entry in entries if entry.name.endswith(".jsonl")), key=lambda entry: entry.name
            )
    except OSError:
        return []


def _is_regular(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_file()  # follows a symlink; False for a FIFO, socket, device or directory
    except OSError:
        return False


def session_files(directory: Path) -> list[Path]:
    """The regular ``*.jsonl`` files of ``directory``, in start order (names begin with a UTC time)."""
    return [Path(entry.path) for entry in _journal_entries(directory) if _is_regular(entry)]


def odd_files(directory: Path) -> list[str]:
    """One line per ``*.jsonl`` in ``directory`` that is not a regular file (never opened)."""
    notes = []
    for entry in _journal_entries(directory):
        if _is_regular(entry):
            continue
        try:
            kind = _kind(os.stat(entry.path).st_mode)
        except OSError as error:
            kind = error.strerror or str(error)
        notes.append(f"{entry.name}: {kind}; skipped")
    return notes


class LineReader:
    """The whole lines of a binary file from ``start`` to ``stop``, a chunk at a time.

    Iterating yields ``(number, offset, line)``: ``line`` without its newline, or None when it was
    longer than ``max_line`` (skipped unread; ``number`` counts it all the same); ``position`` is
    where the line just yielded ends. A last stretch with no newline is not yielded:
    ``unterminated`` says how many bytes it had once iteration ends. The first zero byte ends the
    reading (``zeros`` is its offset, None if there was none): the bytes before it on its line are
    that unterminated stretch, and nothing after it is read.
    """

    def __init__(
        self,
        handle: BinaryIO,
        *,
        start: int = 0,
        stop: int | None = None,
        number: int = 1,
        max_line: int = MAX_LINE,
    ) -> None:
        self._handle = handle
        self._start = start
        self._stop = stop
        self._number = number
        self._max = max_line
        self.unterminated = 0
        #: The offset just past the last line yielded (where the next one starts).
        self.position = start
        #: How many lines were yielded.
        self.lines = 0
        #: The offset of the first zero byte, where reading stopped (None: the file had none).
        self.zeros: int | None = None

    def __iter__(self) -> Iterator[tuple[int, int, bytes | None]]:
        handle = self._handle
        handle.seek(self._start)
        offset = self._start  # where the line being gathered starts
        number = self._number
        parts: list[bytes] = []
        held = 0
        too_long = False
        left = self._stop - self._start if self._stop is not None else -1
        read = self._start  # the file offset just past the last chunk read
        while left != 0:
            chunk = handle.read(CHUNK if left < 0 else min(CHUNK, left))
            if not chunk:
                break
            if left > 0:
                left -= len(chunk)
            zero = chunk.find(b"\0")
            if zero >= 0:  # the end of the record: nothing from here on is read
                self.zeros = read + zero
                chunk, left = chunk[:zero], 0
            read += len(chunk)
            position = 0
            while True:
                end = chunk.find(b"\n", position)
                if end < 0:
                    rest = len(chunk) - position
                    if not too_long and held + rest > self._max:
                        too_long, parts = True, []
                    if not too_long:
                        parts.append(chunk[position:])
                    held += rest
                    break
                if too_long or held + end - position > self._max:
                    line: bytes | None = None
                else:
                    piece = chunk[position:end]
                    line = b"".join((*parts, piece)) if parts else piece
                length = held + end - position + 1
                self.position = offset + length
                self.lines += 1
                yield number, offset, line
                number += 1
                offset += length
                position = end + 1
                parts, held, too_long = [], 0, False
        self.unterminated = held
