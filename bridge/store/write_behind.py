"""The running session's lines: noted in memory as they are fsynced (after their replies left), and
written to the SQLite index behind them, in batches, by the ledger's own thread on its own connection.

A lookup asks these lines first (``SessionLines.line``): a line is dropped from memory only once its
batch is committed, so no answered id is ever out of every index. If SQLite fails, the run gives it up
(``give_up``) and every line of the session from then on stays here. This file's one concurrency
mechanism is that thread (a one-worker executor), whose results come back on the event loop.
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

from bridge.store.index import IndexedLine, Place, Warn, indexed_object
from bridge.store.journal import Written
from bridge.store.sqlite_index import SqliteIndex, close_quietly, connect

__all__ = ["CLOSE_WAIT", "FLUSH_EVERY", "SessionLines"]

#: Lines of the running session noted in memory before they are flushed to the index.
FLUSH_EVERY = 512
#: Seconds ``close`` waits for a batch the ledger's thread is still writing.
CLOSE_WAIT = 2.0


class SessionLines:
    """The running session's answerable lines, until the SQLite index holds them (or for the whole run,
    once it is given up). ``give_up(why)`` is told when writing the index fails."""

    def __init__(self, give_up: Callable[[str], None], warn: Warn) -> None:
        self._give_up = give_up
        self._warn = warn
        self.name = ""
        #: Every id of the running session (a set add costs a fraction of a filter add, per attack).
        self.ids: set[str] = set()
        self._lines: dict[str, IndexedLine] = {}
        self._settled: dict[str, str] = {}
        self._undone: dict[str, str] = {}
        #: Noted, not yet handed to the index (only while there is a SQLite index to write).
        self.unflushed: list[IndexedLine] = []
        self._index: SqliteIndex | None = None
        self._file: int | None = None
        self._end = 0
        self._lines_written = 1
        self._writer_db: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._flushing: Future[str | None] | None = None

    # --- what a lookup asks first -----------------------------------------------------------------

    def line(self, id: str) -> IndexedLine | None:
        """The session's line for ``id``, while it is held here."""
        return self._lines.get(id)

    def place(self, line: IndexedLine) -> Place:
        return Place(self.name, line.offset, line.length)

    def settled_by(self, id: str) -> str | None:
        return self._settled.get(id)

    def undone_by(self, id: str) -> str | None:
        return self._undone.get(id)

    def held(self) -> int:
        """How many of the session's lines are held here only."""
        return len(self._lines)

    # --- the journal's hook -----------------------------------------------------------------------

    def begin(self, path: Path, head: bytes, index: SqliteIndex | None) -> Callable[[list[Written]], None]:
        """Note the new session file's lines as they are written (into ``index`` behind them, if one is
        given): returns the journal's ``on_written`` hook."""
        self.name = path.name
        self._end = len(head)
        if index is not None:
            try:
                file = index.new_file(path.name, head)
                index.commit()
            except sqlite3.Error as error:
                self._give_up(f"{error}")
            else:
                index.live[file] = path.name
                self._index = index
                self._file = file
                try:  # the ledger thread's own connection (a connection is not for two threads at once)
                    self._writer_db = connect(index.path)
                except (sqlite3.Error, OSError):
                    self._writer_db = None  # flushes are written on the loop instead
        lines = self._lines
        settled = self._settled
        undone = self._undone
        ids = self.ids

        def written(placed: list[Written]) -> None:
            for line, offset, length in placed:
                item = indexed_object(line, offset, length)
                if item is None:
                    continue
                ids.add(item.id)
                lines.setdefault(item.id, item)
                if item.settles is not None:
                    settled.setdefault(item.settles, item.id)
                if item.undoes is not None:
                    undone.setdefault(item.undoes, item.id)
                if self._index is not None:
                    self.unflushed.append(item)
            last = placed[-1]
            self._end = last.offset + last.length
            self._lines_written += len(placed)
            if len(self.unflushed) >= FLUSH_EVERY:
                self.flush()

        return written

    # --- writing behind -----------------------------------------------------------------------------

    def flush(self) -> None:
        """Write the noted lines to the index. With a running loop the writing is done by the ledger's
        own thread on its own connection (SQLite lets go of the GIL), one batch at a time, and the lines
        stay in memory until it is committed; on any failure the run gives up on SQLite (nothing noted
        is lost: it stays in memory)."""
        index, file = self._index, self._file
        if index is None or file is None or not self.unflushed or self._flushing is not None:
            return
        noted, self.unflushed = self.unflushed, []
        mark = (self._end, self._lines_written)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self._writer_db is None:
            self._flushed(noted, index.write_batch(index.db, file, noted, mark))
            return
        writer, thread = self._writer_db, self._writer_thread()
        self._flushing = done = thread.submit(index.write_batch, writer, file, noted, mark)

        def back(_: Future[str | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: close() waits instead
                loop.call_soon_threadsafe(self._flushed, noted, done.result(), done)

        done.add_done_callback(back)

    def _flushed(
        self, noted: list[IndexedLine], failure: str | None, done: Future[str | None] | None = None
    ) -> None:
        if done is not None:
            if self._flushing is not done:
                return  # close() already took care of it
            self._flushing = None
        if failure is not None:
            self._give_up(failure)
            return
        lines = self._lines
        for item in noted:
            if lines.get(item.id) is item:
                del lines[item.id]
            if item.settles is not None and self._settled.get(item.settles) == item.id:
                del self._settled[item.settles]
            if item.undoes is not None and self._undone.get(item.undoes) == item.id:
                del self._undone[item.undoes]
        if len(self.unflushed) >= FLUSH_EVERY:
            self.flush()

    def _writer_thread(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ledger")
        return self._thread

    def stop(self) -> None:
        """The index is given up: write nothing more to it, keep every line here from now on."""
        self._index = None
        self._flushing = None  # whatever the ledger's thread still does is not waited for
        if self._writer_db is not None:
            writer, self._writer_db = self._writer_db, None
            if self._thread is not None:  # closed after any batch it is writing
                self._thread.submit(close_quietly, writer)
            else:
                close_quietly(writer)
        self.unflushed = []

    def close(self) -> None:
        """Write what is left and stop the thread. A batch still in the thread is waited for at most
        ``CLOSE_WAIT`` seconds (SQLite never waits for a lock, so only a stalled disk gets there)."""
        pending, self._flushing = self._flushing, None
        if pending is not None:
            try:
                failure = pending.result(timeout=CLOSE_WAIT)
            except Exception:
                failure = "the last batch did not finish"
            if failure is not None:
                self._give_up(failure)
        if self._thread is not None:
            self._thread.shutdown(wait=False)
            self._thread = None
        if self._writer_db is not None:
            close_quietly(self._writer_db)
            self._writer_db = None
        index, file = self._index, self._file
        if index is not None and file is not None and self.unflushed:
            failure = index.write_batch(index.db, file, self.unflushed, (self._end, self._lines_written))
            self.unflushed = []
            if failure is not None:
                self._warn(
                    f"the ledger index could not take this run's last lines ({failure}); "
                    "the next start indexes them from the journal"
                )
