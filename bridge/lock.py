"""One server per data directory.

Request ids are deduplicated through the journals of the data directory (``bridge.ledger``); two
servers writing to the same directory at once would each keep its own memory of them, and a retry
reaching the other one would be rolled a second time. So the running server holds an exclusive
advisory lock on ``sessions/.lock``; a second ``volley serve`` on the same directory is refused at
start. The lock dies with the process, even on SIGKILL, so a crash never leaves it stuck.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
from pathlib import Path

__all__ = ["DirectoryBusy", "DirectoryLock"]

LOCK_FILE = ".lock"


class DirectoryBusy(OSError):
    """Another server holds the data directory."""


class DirectoryLock:
    def __init__(self, directory: Path) -> None:
        self.path = directory / LOCK_FILE
        self._fd: int | None = None

    def acquire(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip() or "?"
            os.close(fd)
            raise DirectoryBusy(
                f"another volley serve (pid {holder}) is using {self.path.parent}; stop it, or give this "
                "one its own --data-dir"
            ) from None
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            with contextlib.suppress(OSError):
                fcntl.flock(self._fd, fcntl.LOCK_UN)
            os.close(self._fd)
            self._fd = None
