"""Every journal indexed in memory: the index of a run that cannot use its SQLite file.

Built straight from the files (the record), before serving at start, or in a thread of its own during
the run (this file's one concurrency mechanism) while every lookup the id filter cannot rule out is
refused as retryable (``Rebuilding``). The first line of an id wins, as in SQLite.
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from bridge.store.files import session_files
from bridge.store.index import IndexedLine, LedgerUnavailable, Place, Settled, Warn, answerable
from bridge.store.repair import FileKind, inspect

if TYPE_CHECKING:
    import asyncio

__all__ = ["MemoryIndex", "Rebuilding", "build", "build_in_thread"]


@dataclass
class MemoryIndex:
    """The whole index in memory (first line of an id wins)."""

    replied: dict[str, Place] = field(default_factory=dict)
    pending: dict[str, tuple[Place, float | None]] = field(default_factory=dict)
    settled: dict[str, str] = field(default_factory=dict)
    undone: dict[str, str] = field(default_factory=dict)

    def note(self, name: str, items: Iterable[IndexedLine]) -> None:
        for item in items:
            place = Place(name, item.offset, item.length)
            self.replied.setdefault(item.id, place)
            if item.pending:
                self.pending.setdefault(item.id, (place, item.at))
            if item.settles is not None:
                self.settled.setdefault(item.settles, item.id)
            if item.undoes is not None:
                self.undone.setdefault(item.undoes, item.id)

    def reply_place(self, id: str) -> Place | None:
        return self.replied.get(id)

    def pending_place(self, id: str) -> Place | Settled | None:
        by = self.settled.get(id)
        if by is not None:
            return Settled(by)
        found = self.pending.get(id)
        return found[0] if found is not None else None

    def undone_by(self, id: str) -> str | None:
        return self.undone.get(id)

    def replies(self) -> int:
        return len(self.replied)


class Rebuilding:
    """The index while a ``MemoryIndex`` is being built: nothing can be told yet."""

    def reply_place(self, id: str) -> Place | None:
        raise _not_yet()

    def pending_place(self, id: str) -> Place | Settled | None:
        raise _not_yet()

    def undone_by(self, id: str) -> str | None:
        raise _not_yet()

    def replies(self) -> int:
        return 0


def _not_yet() -> LedgerUnavailable:
    return LedgerUnavailable("the journals are being indexed again; send the request again")


def build(directory: Path, warn: Warn, *, repair: bool) -> MemoryIndex:
    """Index every journal of ``directory`` in memory, straight from the files (the record)."""
    memory = MemoryIndex()
    for path in session_files(directory):
        inspection = inspect(path, repair=repair)
        if inspection.kind is FileKind.UNREADABLE:
            warn(f"{inspection.note}; skipped: its ids are not remembered")
            continue
        if inspection.note:
            warn(inspection.note)
        if not inspection.usable:
            continue
        try:
            for found, _, _ in answerable(path, len(inspection.head), 2, warn):
                memory.note(path.name, found)
        except OSError as error:
            warn(f"{path.name}: cannot be read ({error.strerror or error}); its ids are not remembered")
    return memory


def build_in_thread(
    directory: Path, loop: asyncio.AbstractEventLoop, done: Callable[[MemoryIndex | None], None]
) -> None:
    """Build the index in a thread; ``done`` is called on ``loop`` with it (None if the build failed:
    the next doubt tries again). Warnings are not repeated: the start already said all of them once."""

    def run() -> None:
        try:
            memory: MemoryIndex | None = build(directory, _quiet, repair=False)
        except Exception:  # never leave the run without an index: try again on the next doubt
            memory = None
        with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
            loop.call_soon_threadsafe(done, memory)

    threading.Thread(target=run, name="ledger rebuild", daemon=True).start()


def _quiet(_: str) -> None:
    """Warnings of a rebuild during the run: the start already said all of them once."""
