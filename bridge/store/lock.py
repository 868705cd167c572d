"""One server per data directory, whatever happens to the lock file meanwhile.

Request ids are deduplicated through the journals of the data directory (``bridge.store.ledger``); two
servers writing to the same directory at once would each keep its own memory of them, and a retry
reaching the other one would be rolled a second time. So the running server holds an exclusive lock
that a second ``volley serve`` on the same directory meets at start, and is refused, told the holder's
pid. The locks are the operating system's own, which die with the process, even on SIGKILL or a task
ended in Windows' Task Manager, so a crash never leaves one stuck:

* POSIX (Linux, macOS): ``flock`` on the ``sessions`` directory itself, held through a descriptor of
  the directory, and on ``sessions/.lock`` (where the pid is written, and what a Volley before this
  one locked). The lock on a file is the lock on the inode its name named at start: deleting,
  replacing or re-creating ``.lock`` while the server runs would let a second server lock the new
  one and answer the same ids. The directory's own lock is on an inode nothing in it can replace, so
  deleting, replacing or re-creating ``.lock`` changes nothing: a second server is still refused
  (with "pid ?" when ``.lock`` no longer names one). Renaming the directory away and making a new one
  is moving the data elsewhere: the new directory is a new, empty record, as another ``--data-dir``
  would be.
* Windows: ``msvcrt.locking`` on one byte of ``.lock``. Windows byte locks are mandatory (nobody else
  may read a locked byte), so the byte locked lies past the pid, which stays readable for the
  refusal. A file another process holds open cannot be deleted or replaced there, so ``.lock``
  stays the one the server locked. (A directory cannot be opened as a file on Windows.)

A hand-rolled pair rather than the ``filelock`` library: these are the calls it makes too, and the
pid in the refusal is worth the few lines.
"""

from __future__ import annotations

import contextlib
import os
import sys
from pathlib import Path

from bridge.store.files import open_regular

__all__ = ["DirectoryBusy", "DirectoryLock"]

LOCK_FILE = ".lock"
#: The holder writes its pid at the start of the file, in at most this many bytes.
PID_BYTES = 32
#: The byte Windows locks: the first one after the pid.
LOCKED_BYTE = PID_BYTES


class DirectoryBusy(OSError):
    """Another server holds the data directory."""


def _try_lock(fd: int) -> bool:
    """Take the lock without waiting; False when another process holds it."""
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, LOCKED_BYTE, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:  # EACCES or EDEADLOCK: the byte is someone else's
            return False
        return True
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return False
    return True


def _unlock(fd: int) -> None:
    if sys.platform == "win32":
        import msvcrt

        os.lseek(fd, LOCKED_BYTE, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
    else:
        import fcntl

        fcntl.flock(fd, fcntl.LOCK_UN)


def _read_pid(fd: int) -> str:
    os.lseek(fd, 0, os.SEEK_SET)
    return os.read(fd, PID_BYTES).decode("ascii", "replace").strip() or "?"


def _pid_in(path: Path) -> str:
    """The pid ``.lock`` names, if it can be read (it may have been deleted or emptied)."""
    try:
        fd = open_regular(path)
    except OSError:
        return "?"
    try:
        return _read_pid(fd)
    except OSError:
        return "?"
    finally:
        os.close(fd)


def _lock_directory(directory: Path) -> int | None:
    """A descriptor of ``directory`` holding its ``flock`` (POSIX); None on Windows (no such lock).
    Raises ``BlockingIOError`` when another process holds it."""
    if sys.platform == "win32":
        return None
    import fcntl

    fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BaseException:
        os.close(fd)
        raise
    return fd


class DirectoryLock:
    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        self._fd: int | None = None
        self._directory_fd: int | None = None

    def acquire(self) -> None:
        directory = self.path.parent
        directory.mkdir(parents=True, exist_ok=True)
        try:
            directory_fd = _lock_directory(directory)
        except BlockingIOError:
            raise self._busy(_pid_in(self.path)) from None
        try:
            fd = open_regular(self.path, os.O_RDWR | os.O_CREAT)  # a FIFO here is refused, never waited on
        except BaseException:
            _close(directory_fd)
            raise
        if not _try_lock(fd):  # a Volley from before the directory's lock holds it, or Windows
            holder = _read_pid(fd)
            os.close(fd)
            _close(directory_fd)
            raise self._busy(holder)
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd
        self._directory_fd = directory_fd

    def _busy(self, holder: str) -> DirectoryBusy:
        return DirectoryBusy(
            f"another volley serve (pid {holder}) is using {self.path.parent}; stop it, or give this "
            "one its own --data-dir"
        )

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                _unlock(self._fd)
            os.close(self._fd)
            self._fd = None
        _close(self._directory_fd)  # closing the descriptor lets go of its flock
        self._directory_fd = None


def _close(fd: int | None) -> None:
    if fd is not None:
        with contextlib.suppress(OSError):
            os.close(fd)
