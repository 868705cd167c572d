"""A one-line progress bar on stderr for long work (``volley replay`` of a long log, ``volley report``
over many sessions), shown on a terminal unless asked otherwise, and the line count it needs up front."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TextIO

from bridge.store.files import open_for_reading

__all__ = ["LONG_LOG", "ProgressBar", "count_lines", "want_progress"]


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


def count_lines(path: Path) -> int:
    """The newlines before the first zero byte (where every reader stops)."""
    count = 0
    with open_for_reading(path) as handle:
        for chunk in iter(lambda: handle.read(1 << 20), b""):
            zero = chunk.find(b"\0")
            if zero >= 0:
                return count + chunk.count(b"\n", 0, zero)
            count += chunk.count(b"\n")
    return count
