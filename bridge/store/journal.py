"""The session journal's writer: one append-only JSON-lines file per server run, fsynced before any
reply.

Every line records one resolved request (``bridge.store.lines`` says what a line holds), so that

* a retried request id gets the very same bytes, even after a restart (``bridge.store.ledger`` indexes
  where each reply's line is, and reads it back from here);
* a session can be re-resolved later and compared (``bridge.cli.replay``).

Durability: a result is only sent once its line is on disk. Lines waiting at the same moment share one
``write`` and one ``fsync`` (group commit, decided here, on the event loop). A lone line on a fast disk
is written on the event loop itself, since handing it to a thread and back costs more than the fsync;
bigger batches, and every batch while the disk is slow, go to the journal's writer thread
(``bridge.store.writer_thread``) so the loop keeps serving. Once a batch is durable its writers are
answered first, and only then is the index told where the lines went (``on_written``): nothing the
index does can delay, fail or hang a reply. The file itself, with the zeros laid ahead of its lines
for a data-only sync, is ``bridge.store.journal_file``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from bridge.store.journal_file import JournalFile
from bridge.store.lines import Entry, Header, TableLine, encode_line

if TYPE_CHECKING:
    import asyncio
    from contextlib import AbstractContextManager

    from bridge.store.writer_thread import WriterThread

__all__ = [
    "INLINE_FSYNC_LIMIT",
    "CommitStats",
    "Journal",
    "JournalError",
    "Then",
    "Written",
    "WrittenCallback",
]

#: A batch of one line is fsynced on the event loop while the disk's recent fsyncs average less than
#: this (seconds); otherwise, and for every bigger batch, the writer thread does it.
INLINE_FSYNC_LIMIT = 0.001


class JournalError(Exception):
    """The journal could not be written: nothing may be acknowledged."""


class Written(NamedTuple):
    """Where one journaled line landed in its session file (what the ledger indexes)."""

    line: Any
    offset: int
    length: int


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


#: ``on_written(lines)``: told, on the event loop and in file order, where each line of a batch landed,
#: right after their writers were answered (in the same turn of the loop, so no retry comes between).
WrittenCallback = Callable[[list[Written]], None]

#: ``then(error)``: told once whether a line reached the disk (``None``) or why not.
Then = Callable[["JournalError | None"], None]

_Waiting = tuple[bytes, Any, Then]


class Journal:
    """The open journal of the running session: group commit, on the loop or in its writer thread."""

    def __init__(self, file: JournalFile, head: bytes, fsync_seconds: float) -> None:
        # Only a running server writes a journal: its readers (show, sessions, replay, report) do not
        # pay for asyncio and a writer thread at start-up.
        import asyncio

        from bridge.store.writer_thread import WriterThread

        self.file = file
        self.path = file.path
        self.head = head
        self.stats = CommitStats()
        self.on_written: WrittenCallback | None = None
        #: What a batch's replies are told inside: ``bridge.server.fast_send.one_write_per_socket``,
        #: so that a batch's replies to one socket leave in one write. Nothing by default.
        self.replying: Callable[[], AbstractContextManager[None]] = contextlib.nullcontext
        self._loop = asyncio.get_running_loop()
        self._waiting: list[_Waiting] = []
        self._scheduled = False
        self._busy = False
        self._closing = False
        self._idle = asyncio.Event()
        self._idle.set()
        self._recent_fsync = fsync_seconds
        self._writer: WriterThread[list[_Waiting]] = WriterThread(
            self._loop, file.write_and_sync, self._finished
        )

    @property
    def session(self) -> str:
        return self.path.stem

    @classmethod
    def create(cls, directory: Path, header: Header) -> Journal:
        """Start a new session file (must be called from a running event loop)."""
        head = encode_line(header)
        file, seconds = JournalFile.create(directory, f"{header.session}.jsonl", head)
        return cls(file, head, seconds)

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
        data = encode_line(line)
        if alone and not (self._waiting or self._busy) and self._inline(len(data)):
            try:
                seconds = self.file.write_and_sync(data)
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
        """Write everything still queued, then close the file (cut back to its last line)."""
        first = not self._closing
        self._closing = True
        await self._idle.wait()
        if first:
            self._writer.shutdown()
            self.file.close()

    def _start_batch(self) -> None:
        self._scheduled = False
        if self._busy or not self._waiting:
            return
        batch, self._waiting = self._waiting, []
        data = b"".join(data for data, _, _ in batch)
        if len(batch) == 1 and self._inline(len(data)):
            try:
                seconds = self.file.write_and_sync(data)
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
        size = self.file.size
        placed: list[Written] = []
        for data, line, _ in batch:
            placed.append(Written(line, size, len(data)))
            size += len(data)
        self.file.size = size
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
        return self._recent_fsync < INLINE_FSYNC_LIMIT and not self.file.needs_new_zeros(length)


def _tell(then: Then, error: JournalError | None) -> None:
    """One waiter's callback; a failing one is logged and never keeps the rest of a batch waiting."""
    try:
        then(error)
    except Exception:
        import logging  # a server has it loaded already; readers of journals never get here

        logging.getLogger("volley.bridge").exception("a journal waiter failed")
