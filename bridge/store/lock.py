"""One server per data directory.

Request ids are deduplicated through the journals of the data directory (``bridge.store.ledger``); two
servers writing to the same directory at once would each keep its own memory of them, and a retry
reaching the other one would be rolled a second time. So the running server holds an exclusive lock
on ``sessions/.lock``; a second ``volley serve`` on the same directory is refused at start, told the
holder's pid. The lock is the operating system's own, which dies with the process, even on SIGKILL or
a task ended in Windows' Task Manager, so a crash never leaves it stuck:

* POSIX (Linux, macOS): ``flock`` on the whole file, advisory;
* Windows: ``msvcrt.locking`` on one byte. Windows byte locks are mandatory (nobody else may read
  a locked byte), so the byte locked lies past the pid, which stays readable for the refusal.

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


class DirectoryLock:
    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = open_regular(self.path, os.O_RDWR | os.O_CREAT)  # a FIFO here is refused, never waited on
        if not _try_lock(fd):
            holder = _read_pid(fd)
            os.close(fd)
            raise DirectoryBusy(
                f"another volley serve (pid {holder}) is using {self.path.parent}; stop it, or give this "
                "one its own --data-dir"
            )
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, f"{os.getpid()}\n".encode())
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                _unlock(self._fd)
            os.close(self._fd)
            self._fd = None
