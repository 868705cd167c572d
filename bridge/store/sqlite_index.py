"""The SQLite index of the journals, at ``sessions/.ledger.sqlite3``: derived data, never a second record.

* ``replies``: request id -> (journal file, byte offset, length) of the line that answered it. Any line
  with an ``id`` and a ``reply`` counts, whatever its ``kind``. The *first* line of an id is the one
  that counts: a later line for the same id (only an older, faulty Volley ever wrote one) never takes
  its place.
* ``pending``: two-step attacks (``outcome == "pending"``) with when they were rolled and, once settled,
  the id of the ``allocate`` that settled them.
* ``undone``: requests an ``undo`` line took back, with the undo's id.
* ``files``: per journal, its header line (which identifies it), how far it has been indexed and how
  many ``replies`` rows point into it; a row no longer ``live`` is believed by no lookup.

No concurrency here: each call runs on the connection it is given, in the caller's thread (the event
loop, or the write-behind thread on its own connection, ``bridge.store.write_behind``). SQLite never
waits for a lock (``timeout=0``), so nothing here blocks; every SQLite failure of a lookup is raised
as ``IndexBroken``. The index is written with ``synchronous=OFF``: it is derived data, and the
journals are fsynced. Bringing it up to date at start is ``bridge.store.catch_up``.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import stat
from pathlib import Path

from bridge.store.index import IndexBroken, IndexedLine, Place, Settled, Warn

__all__ = ["INDEX_NAME", "SCHEMA_VERSION", "SqliteIndex", "close_quietly", "connect", "is_busy", "open_index"]

#: The index file, next to the journals it indexes (hidden: ``volley sessions`` lists ``*.jsonl``).
INDEX_NAME = ".ledger.sqlite3"
#: Bumped when the tables change; an index of another version is rebuilt. 3: first line wins, and
#: ``files.replies`` counts the rows that point into the file.
SCHEMA_VERSION = 3

_SCHEMA = """
CREATE TABLE files (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    head BLOB NOT NULL,
    indexed_to INTEGER NOT NULL,
    lines INTEGER NOT NULL,
    replies INTEGER NOT NULL,
    live INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX live_files ON files(name) WHERE live = 1;
CREATE TABLE replies (
    id TEXT PRIMARY KEY, file INTEGER NOT NULL, offset INTEGER NOT NULL, length INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE pending (
    id TEXT PRIMARY KEY, file INTEGER, offset INTEGER, length INTEGER, at REAL, allocated_by TEXT
) WITHOUT ROWID;
CREATE TABLE undone (target TEXT PRIMARY KEY, by TEXT NOT NULL) WITHOUT ROWID;
"""

#: A new row, or one that takes the place of a row of a journal no longer indexed (gone, or indexed
#: again under a new file id), or of a *later* line for the same id. Never the other way round.
_UPSERT_REPLY = """
INSERT INTO replies (id, file, offset, length) VALUES (?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET file = excluded.file, offset = excluded.offset, length = excluded.length
WHERE NOT EXISTS (SELECT 1 FROM files WHERE files.id = replies.file AND files.live = 1)
   OR (excluded.file = replies.file AND excluded.offset < replies.offset)
   OR (SELECT name FROM files WHERE files.id = excluded.file)
      < (SELECT name FROM files WHERE files.id = replies.file)
"""
_UPSERT_PENDING = """
INSERT INTO pending (id, file, offset, length, at) VALUES (?, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET file = excluded.file, offset = excluded.offset, length = excluded.length,
    at = excluded.at
WHERE pending.file IS NULL
   OR NOT EXISTS (SELECT 1 FROM files WHERE files.id = pending.file AND files.live = 1)
"""
# A pending line and the allocate that settles it may be indexed in either order; the first settles.
_UPSERT_SETTLED = """
INSERT INTO pending (id, allocated_by) VALUES (?, ?)
ON CONFLICT (id) DO UPDATE SET allocated_by = excluded.allocated_by WHERE pending.allocated_by IS NULL
"""


class SqliteIndex:
    """The index file's connection, the journals it holds rows for, and what is read and written."""

    def __init__(self, db: sqlite3.Connection, path: Path) -> None:
        self.db = db
        self.path = path
        #: file id -> name, for the files whose rows are current
        self.live: dict[int, str] = {}

    # --- lookups (the ``Index`` interface) ------------------------------------------------------

    def reply_place(self, id: str) -> Place | None:
        try:
            row = self.db.execute("SELECT file, offset, length FROM replies WHERE id = ?", (id,)).fetchone()
        except sqlite3.Error as error:
            raise IndexBroken(str(error)) from None
        if row is None:
            return None
        name = self.live.get(row[0])
        # A row of a journal deleted since (its ids went with it), or indexed again (its lines own
        # their ids under the new file id).
        return Place(name, row[1], row[2]) if name is not None else None

    def pending_place(self, id: str) -> Place | Settled | None:
        try:
            row = self.db.execute(
                "SELECT file, offset, length, allocated_by FROM pending WHERE id = ?", (id,)
            ).fetchone()
        except sqlite3.Error as error:
            raise IndexBroken(str(error)) from None
        if row is None:
            return None
        if row[3] is not None:
            return Settled(str(row[3]))
        name = self.live.get(row[0]) if row[0] is not None else None
        return Place(name, row[1], row[2]) if name is not None else None

    def undone_by(self, id: str) -> str | None:
        try:
            row = self.db.execute("SELECT by FROM undone WHERE target = ?", (id,)).fetchone()
        except sqlite3.Error as error:
            raise IndexBroken(str(error)) from None
        return str(row[0]) if row is not None else None

    def replies(self) -> int:
        """How many replies the live files hold (0 when that cannot be read: it is only for a log line)."""
        live = list(self.live)
        if not live:
            return 0
        marks = ",".join("?" * len(live))
        try:
            (total,) = self.db.execute(
                f"SELECT sum(replies) FROM files WHERE id IN ({marks})", live
            ).fetchone()
        except sqlite3.Error:
            return 0
        return int(total or 0)

    def ids_after(self, last: str, count: int) -> list[str]:
        """Up to ``count`` ids after ``last``, in order (the id filter is filled from these)."""
        try:
            rows = self.db.execute(
                "SELECT id FROM replies WHERE id > ? ORDER BY id LIMIT ?", (last, count)
            ).fetchall()
        except sqlite3.Error as error:
            raise IndexBroken(str(error)) from None
        return [id for (id,) in rows]

    # --- writing (``sqlite3.Error`` is the caller's to handle) ------------------------------------

    def new_file(self, name: str, head: bytes) -> int:
        cursor = self.db.execute(
            "INSERT INTO files (name, head, indexed_to, lines, replies) VALUES (?, ?, ?, 1, 0)",
            (name, head, len(head)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def retire(self, file: int) -> None:
        """Forget a file's rows: they stay in the table, but no lookup believes them, and the file's
        lines take their place when it is indexed again."""
        self.db.execute("UPDATE files SET live = 0 WHERE id = ?", (file,))
        self.live.pop(file, None)

    def retire_name(self, name: str) -> None:
        """Mark the live file ``name`` to be indexed again at the next start (it cannot be believed)."""
        with contextlib.suppress(sqlite3.Error):
            self.db.execute("UPDATE files SET live = 0 WHERE name = ? AND live = 1", (name,))
            self.db.commit()

    def store(self, file: int, lines: list[IndexedLine], db: sqlite3.Connection | None = None) -> int:
        """Write ``lines`` (lines of ``file``); how many ``replies`` rows now point into the file."""
        db = db or self.db
        before = db.total_changes
        db.executemany(_UPSERT_REPLY, [(item.id, file, item.offset, item.length) for item in lines])
        owned = db.total_changes - before
        pending = [(item.id, file, item.offset, item.length, item.at) for item in lines if item.pending]
        if pending:
            db.executemany(_UPSERT_PENDING, pending)
        settled = [(item.settles, item.id) for item in lines if item.settles is not None]
        if settled:
            db.executemany(_UPSERT_SETTLED, settled)
        undone = [(item.undoes, item.id) for item in lines if item.undoes is not None]
        if undone:
            db.executemany("INSERT OR IGNORE INTO undone VALUES (?, ?)", undone)
        return owned

    def write_batch(
        self, db: sqlite3.Connection, file: int, lines: list[IndexedLine], mark: tuple[int, int]
    ) -> str | None:
        """One committed batch of ``file``'s lines, indexed up to ``mark`` (offset, line number), on
        ``db`` (this index's connection or another one onto its file); why it failed, or None."""
        try:
            owned = self.store(file, lines, db)
            db.execute(
                "UPDATE files SET indexed_to = ?, lines = ?, replies = replies + ? WHERE id = ?",
                (*mark, owned, file),
            )
            db.commit()
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                db.rollback()
            return str(error) or type(error).__name__
        return None

    def commit(self) -> None:
        self.db.commit()

    def close(self) -> None:
        close_quietly(self.db)


def open_index(path: Path, warn: Warn) -> SqliteIndex:
    """The index at ``path``, created if missing and rebuilt from nothing if unreadable; raises
    ``IndexBroken`` when it cannot be used (another process holds it: its file is left alone)."""
    try:
        db = connect(path)
    except (sqlite3.Error, OSError) as error:
        if is_busy(error):
            raise IndexBroken(str(error)) from None
        if path.exists():
            warn(f"the ledger index {path} is unreadable ({error}); rebuilding it from the journals")
        try:
            _remove_index(path)
            db = connect(path)
        except (sqlite3.Error, OSError) as again:
            raise IndexBroken(str(again)) from None
    return SqliteIndex(db, path)


def close_quietly(db: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        db.close()


def is_busy(error: BaseException) -> bool:
    """Another process holds the index (``database is locked``): leave its file alone."""
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def connect(path: Path) -> sqlite3.Connection:
    for suffix in ("", "-wal", "-shm"):  # SQLite would open a FIFO here and wait on it
        with contextlib.suppress(FileNotFoundError):
            if not stat.S_ISREG(os.stat(f"{path}{suffix}").st_mode):
                raise sqlite3.DatabaseError(f"{path.name}{suffix} is not a regular file")
    # timeout=0: a lock held elsewhere fails at once (and the run goes on in memory), never waits.
    db = sqlite3.connect(path, isolation_level="DEFERRED", check_same_thread=False, timeout=0)
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version not in (0, SCHEMA_VERSION):
            raise sqlite3.DatabaseError(f"index schema {version}, this Volley writes {SCHEMA_VERSION}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = OFF")
        if version == 0:
            db.executescript(_SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
        db.execute("SELECT count(*) FROM files").fetchone()
        os.chmod(path, 0o600)
    except BaseException:
        db.close()
        raise
    return db


def _remove_index(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
