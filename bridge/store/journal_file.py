"""The running journal's file on disk: created with its header, written a batch at a time over zeros
laid ahead, cut back to its last line on a clean close, discarded when nothing was resolved in it.

No concurrency here: whoever holds a batch (the event loop for a lone line, the writer thread for the
rest, ``bridge.store.journal``) calls ``write_and_sync``, one batch at a time, and only the loop moves
``size`` on once the batch is durable.
"""

from __future__ import annotations

import contextlib
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from bridge.paths import O_BINARY
from bridge.store.reader import read_session

__all__ = ["ZERO_BATCH_BYTES", "ZERO_TAIL_BYTES", "JournalFile", "discard_session", "fsync_directory"]

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


class JournalFile:
    """The open session file: its lines end at ``size``, and zeros laid ahead may follow them."""

    def __init__(self, path: Path, fd: int, size: int, *, zeroed: int = 0) -> None:
        self.path = path
        #: Where the last durable line ends (moved on by the journal once a batch is durable).
        self.size = size
        self._fd = fd
        self._zeros = _ZeroTail(max(zeroed, size))

    @classmethod
    def create(cls, directory: Path, name: str, head: bytes) -> tuple[JournalFile, float]:
        """A new file holding ``head`` (and the first zeros), synced with its directory entry; and how
        long the file's sync took (the journal's first guess at the disk's speed)."""
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / name
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
            fsync_directory(directory)  # the new file's name must survive a crash too
        except BaseException:
            os.close(fd)
            raise
        return cls(path, fd, len(head), zeroed=zeroed), seconds

    def needs_new_zeros(self, length: int) -> bool:
        """Whether ``length`` more bytes would pass the zeros laid ahead (growing them is a megabyte and
        a full fsync: never on the event loop)."""
        zeros = self._zeros
        return zeros.on and not zeros.covers(self.size + length)

    def write_and_sync(self, data: bytes) -> float:
        """One write at ``size`` and one sync for the whole batch; how long the sync took. On failure
        the file is put back as it was.

        Inside the zero tail the sync is ``fdatasync``; a small batch past it writes fresh zeros after
        its lines in the same write, and a full ``fsync`` makes the new size durable with them."""
        size = self.size
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

    def close(self) -> None:
        """Cut the zeros (the file ends with its last line again) and close."""
        if self._zeros.end > self.size:
            with contextlib.suppress(OSError):  # else the next start cuts the zeros
                os.ftruncate(self._fd, self.size)
                os.fsync(self._fd)
        os.close(self._fd)


def fsync_directory(directory: Path) -> None:
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
    fsync_directory(path.parent)
