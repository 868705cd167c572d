"""Bringing the SQLite index up to date with the journals at start, before the server serves.

The index is trusted no further than it can be checked (the Kafka offset-index habit): each journal's
rows are counted and their furthest end compared with the file, so a journal whose rows were deleted,
moved past its end or indexed to the middle of a line is indexed again; a journal unchanged since it
was indexed (same header line, same size) is not read at all; a journal that grew is indexed from
where its rows end, after its tail is repaired (``bridge.store.repair``); the rows of journals deleted
since are retired. Runs once, on the caller's thread; a failure gives SQLite up for the run.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from bridge.store.files import open_for_reading, read_at, session_files
from bridge.store.index import IndexBroken, Warn, answerable
from bridge.store.repair import FileKind, inspect
from bridge.store.sqlite_index import SqliteIndex

__all__ = ["catch_up"]

#: A ``files`` row: (file id, header line, indexed to, lines, replies)
_Row = tuple[int, bytes, int, int, int]


def catch_up(index: SqliteIndex, directory: Path, warn: Warn) -> None:
    """Check the index against every journal of ``directory`` and index what it lacks; raises
    ``IndexBroken`` when SQLite (or reading a journal where no reader expects a failure) fails."""
    try:
        _catch_up(index, directory, warn)
    except (sqlite3.Error, OSError) as error:
        raise IndexBroken(str(error)) from None


def _catch_up(index: SqliteIndex, directory: Path, warn: Warn) -> None:
    db = index.db
    rows = db.execute("SELECT id, name, head, indexed_to, lines, replies FROM files WHERE live = 1")
    known = {name: (file, head, to, lines, replies) for file, name, head, to, lines, replies in rows}
    counted = {
        file: (count, end)
        for file, count, end in db.execute(
            "SELECT file, count(*), max(offset + length) FROM replies GROUP BY file"
        )
    }
    for path in session_files(directory):
        row: _Row | None = known.pop(path.name, None)
        if row is not None:
            count, end = counted.get(row[0], (0, 0))
            if count != row[4] or end > row[2]:
                warn(
                    f"{path.name}: the ledger index does not match this journal ({count} rows for "
                    f"{row[4]} replies, ending at {end} of {row[2]}); indexing it again"
                )
                index.retire(row[0])
                row = None
        if row is not None and _unchanged(path, row[1], row[2]):
            index.live[row[0]] = path.name
            continue
        _index_file(index, path, row, warn)
    for file, *_ in known.values():  # journals deleted since: their ids go with them
        index.retire(file)
    index.commit()


def _unchanged(path: Path, head: bytes, indexed_to: int) -> bool:
    """Still the file that was indexed, with nothing appended since (so no tail to repair)."""
    try:
        with open_for_reading(path) as handle:
            size = os.fstat(handle.fileno()).st_size
            return size == indexed_to and handle.read(len(head)) == head
    except OSError:
        return False


def _index_file(index: SqliteIndex, path: Path, row: _Row | None, warn: Warn) -> None:
    inspection = inspect(path)
    if inspection.kind is FileKind.UNREADABLE:
        if row is not None and row[4]:
            # Still the record, only unreadable now (permissions, a failing disk): the ids the
            # index holds for it are refused (journal_unreadable, retryable) while it stays so,
            # and answered once it can be read; never resolved again.
            index.live[row[0]] = path.name
            warn(
                f"{inspection.note}; the {row[4]} ids the index holds for it are refused "
                "(journal_unreadable, retryable) until it can be read, never rolled again"
            )
        else:
            warn(f"{inspection.note}; skipped: its ids are not remembered")
            if row is not None:
                index.retire(row[0])
        return
    if inspection.note:
        warn(inspection.note)
    if not inspection.usable:
        if row is not None:
            index.retire(row[0])
        return
    if row is not None and inspection.head == row[1] and _line_ends_at(path, row[2], inspection.size):
        file, start, lines = row[0], row[2], row[3]
    else:
        if row is not None:
            index.retire(row[0])
        file = index.new_file(path.name, inspection.head)
        start, lines = len(inspection.head), 1
    index.live[file] = path.name
    _scan(index, path, file, start, lines, warn=warn)


def _scan(index: SqliteIndex, path: Path, file: int, start: int, lines: int, *, warn: Warn) -> None:
    """Index every answerable line from ``start`` on, committing batch by batch."""
    db = index.db
    for found, end, last in answerable(path, start, lines + 1, warn):
        owned = index.store(file, found)
        db.execute(
            "UPDATE files SET indexed_to = ?, lines = ?, replies = replies + ? WHERE id = ?",
            (end, last, owned, file),
        )
        db.commit()


def _line_ends_at(path: Path, offset: int, size: int) -> bool:
    """Whether ``offset`` is just past a newline of ``path`` (a place indexing may resume from)."""
    if offset > size or offset < 1:
        return False
    try:
        return read_at(path, offset - 1, 1) == b"\n"
    except OSError:
        return False
