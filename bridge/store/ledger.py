"""Where each request id's reply was journaled: a cache of the journals, never a second record.

Request ids are the VTT's idempotency keys and are global across the whole data directory: a retry
after a restart lands in a new session and must still get the old reply, byte for byte, without rolling
again. The journals are the record; this is only an index of where things are in them, kept in SQLite
(the standard library's) at ``sessions/.ledger.sqlite3``:

* ``replies``: request id -> (journal file, byte offset, length) of the line that answered it. Any line
  with an ``id`` and a ``reply`` counts, whatever its ``kind``. A retry reads the line back and returns
  its ``reply`` verbatim. The *first* line of an id is the one that counts: a later line for the same
  id (only an older, faulty Volley ever wrote one) never takes its place.
* ``pending``: two-step attacks (``outcome == "pending"``) with when they were rolled and, once settled,
  the id of the ``allocate`` that settled them.
* ``undone``: requests an ``undo`` line took back (``bridge/undo.py``), with the undo's id.
* ``files``: per journal, its header line (which identifies it), how far it has been indexed and how
  many ``replies`` rows point into it.

An index is trusted no further than it can be checked (the Kafka offset-index habit):

* at start, each journal's rows are counted and their furthest end compared with the file: a journal
  whose rows were deleted, moved past its end or indexed to the middle of a line is indexed again;
* every line read back is checked to be the id asked for. One that is not (lines swapped, offsets
  edited) means the index cannot be believed: the request is refused with ``LedgerUnavailable``
  (retryable), the journal is marked to be indexed again at the next start, and for the rest of the
  run the index is rebuilt from the journals into memory;
* a line that cannot be read (EMFILE, EIO) refuses the request with ``LedgerUnavailable``, never
  treats the id as new;
* a ledger that cannot be opened, read or written (locked by another process, read-only, corrupt and
  not removable, a full disk) is given up for the run with one log line: the index is rebuilt from
  the journals in memory (at start, before serving; later, in a thread, while only ids the id filter
  can rule out are served). SQLite never waits for a lock (``timeout=0``), so nothing here blocks.

Lines of the running session are noted in memory as they are fsynced (after their replies left) and
written to SQLite in batches by the ledger's own thread, on its own connection; a lookup checks the
lines not yet committed first. A fixed-size filter of every earlier id (``bridge.store.idfilter``),
filled from the index a slice at a time after the start, and a set of the running session's ids
answer "never seen" for new ids without asking SQLite. The index is written with
``synchronous=OFF``: it is derived data, and the journals are fsynced.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import stat
import threading
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple

import msgspec

from bridge.store.files import LineReader, odd_files, open_for_reading, open_regular, session_files
from bridge.store.idfilter import IdFilter
from bridge.store.journal import Entry, UndoLine, Written, read_line, too_long
from bridge.store.repair import FileKind, inspect

__all__ = ["INDEX_NAME", "Ledger", "LedgerUnavailable", "PendingAttack", "Settled"]

#: The index file, next to the journals it indexes (hidden: ``volley sessions`` lists ``*.jsonl``).
INDEX_NAME = ".ledger.sqlite3"
#: Bumped when the tables change; an index of another version is rebuilt. 3: first line wins, and
#: ``files.replies`` counts the rows that point into the file.
SCHEMA_VERSION = 3
#: Lines of the running session noted in memory before they are flushed to the index.
FLUSH_EVERY = 512
#: Seconds ``close`` waits for a batch the ledger's thread is still writing.
CLOSE_WAIT = 2.0
#: Lines indexed per commit when catching up with a journal.
_SCAN_BATCH = 4096
#: Ids read from the index per turn of the event loop while the id filter is being filled.
FILL_STEP = 512

Warn = Callable[[str], None]

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


class LedgerUnavailable(Exception):
    """Whether ``id`` was answered cannot be told just now (a journal could not be read, the index is
    being rebuilt): refuse the request with a retryable code. Never a reason to resolve it again."""


class _Line(msgspec.Struct):
    """What the index needs of any journal line; every other field is skipped unread."""

    kind: str = ""
    id: Any = None
    reply: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)
    outcome: Any = None
    pending_id: Any = None
    target_id: Any = None
    at: Any = None


_line_decoder = msgspec.json.Decoder(_Line)
_entry_decoder = msgspec.json.Decoder(Entry)


@dataclass(frozen=True)
class PendingAttack:
    """The first step of a two-step attack, waiting for its ``allocate``.

    The second step re-resolves ``request`` (plus the allocation) with the same ``seed`` or ``dice``, so
    the pool comes out exactly as it was shown to the player. ``at`` is when it was rolled (Unix time;
    None if the journal did not say), for the expiry.
    """

    id: str
    request: dict[str, Any]
    seed: int | None
    dice: list[int] | None
    at: float | None


@dataclass(frozen=True)
class Settled:
    """A two-step attack that an ``allocate`` already settled."""

    by: str


class _Place(NamedTuple):
    """A line in a journal, by file name."""

    name: str
    offset: int
    length: int


class _Noted(NamedTuple):
    """One answerable journal line, as the index keeps it."""

    id: str
    offset: int
    length: int
    pending: bool
    at: float | None
    settles: str | None
    #: the request an ``undo`` line took back
    undoes: str | None


def _when(at: Any) -> float | None:
    if not isinstance(at, str):
        return None
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _noted(line: _Line, offset: int, length: int) -> _Noted | None:
    """The index row a journal line makes, or None when it answers nothing."""
    if not isinstance(line.id, str) or not len(line.reply):
        return None
    settles = line.pending_id if isinstance(line.pending_id, str) else None
    undoes = line.target_id if line.kind == "undo" and isinstance(line.target_id, str) else None
    pending = line.outcome == "pending"
    # Only a pending attack's time is kept (for its expiry): parsing every line's would cost each
    # attack a few microseconds for nothing.
    return _Noted(line.id, offset, length, pending, _when(line.at) if pending else None, settles, undoes)


def _noted_object(line: Any, offset: int, length: int) -> _Noted | None:
    """The index row of a line object the journal just wrote (no JSON is read back)."""
    kind = type(line)
    if kind is Entry:
        pending = line.outcome == "pending"
        at = _when(line.at) if pending else None
        return _Noted(line.id, offset, length, pending, at, line.pending_id, None)
    if kind is UndoLine:
        return _Noted(line.id, offset, length, False, None, None, line.target_id)
    reply = getattr(line, "reply", None)
    config = getattr(kind, "__struct_config__", None)  # a tagged Struct: its tag is its kind
    tag = config.tag if config is not None and config.tag_field == "kind" else getattr(line, "kind", "")
    seen = _Line(
        kind=str(tag),
        id=getattr(line, "id", None),
        reply=reply if isinstance(reply, msgspec.Raw) else msgspec.Raw(),
        outcome=getattr(line, "outcome", None),
        pending_id=getattr(line, "pending_id", None),
        target_id=getattr(line, "target_id", None),
        at=getattr(line, "at", None),
    )
    return _noted(seen, offset, length)


def _answerable(path: Path, start: int, number: int, warn: Warn) -> Iterator[tuple[list[_Noted], int, int]]:
    """The answerable lines of ``path`` from ``start`` on, in batches: ``(noted, end, lines)`` where
    ``end`` is the offset past the batch and ``lines`` the number of the last line read. A last line
    without its newline is not whole and is left for later."""
    with open_for_reading(path) as handle:
        reader = LineReader(handle, start=start, number=number)
        noted: list[_Noted] = []
        seen = 0
        last = number - 1
        for last, offset, line in reader:
            if line is None:
                warn(too_long(f"{path.name}:{last}"))
            elif line.strip():
                decoded = read_line(_line_decoder, line, f"{path.name}:{last}", warn)
                item = _noted(decoded, offset, reader.position - offset) if decoded else None
                if item is not None:
                    noted.append(item)
            seen += 1
            if seen >= _SCAN_BATCH:
                yield noted, reader.position, last
                noted, seen = [], 0
        if seen:
            yield noted, reader.position, last


@dataclass
class _Memory:
    """The whole index in memory, for a run whose ledger cannot be used (first line of an id wins)."""

    replies: dict[str, _Place] = field(default_factory=dict)
    pending: dict[str, tuple[_Place, float | None]] = field(default_factory=dict)
    settled: dict[str, str] = field(default_factory=dict)
    undone: dict[str, str] = field(default_factory=dict)

    def note(self, name: str, items: Iterable[_Noted]) -> None:
        for item in items:
            place = _Place(name, item.offset, item.length)
            self.replies.setdefault(item.id, place)
            if item.pending:
                self.pending.setdefault(item.id, (place, item.at))
            if item.settles is not None:
                self.settled.setdefault(item.settles, item.id)
            if item.undoes is not None:
                self.undone.setdefault(item.undoes, item.id)


def _build_memory(directory: Path, warn: Warn, *, repair: bool) -> _Memory:
    """Index every journal of ``directory`` in memory, straight from the files (the record)."""
    memory = _Memory()
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
            for noted, _, _ in _answerable(path, len(inspection.head), 2, warn):
                memory.note(path.name, noted)
        except OSError as error:
            warn(f"{path.name}: cannot be read ({error.strerror or error}); its ids are not remembered")
    return memory


def _quiet(_: str) -> None:
    """Warnings of a rebuild during the run: the start already said all of them once."""


def _read_at(path: Path, offset: int, length: int) -> bytes:
    fd = open_regular(path)
    try:
        return os.pread(fd, length, offset) if hasattr(os, "pread") else _seek_read(fd, offset, length)
    finally:
        os.close(fd)


def _seek_read(fd: int, offset: int, length: int) -> bytes:
    os.lseek(fd, offset, os.SEEK_SET)
    return os.read(fd, length)


class Ledger:
    """The index of every journaled reply in a sessions directory, and of open two-step attacks."""

    def __init__(self, directory: Path, warn: Warn) -> None:
        self.directory = directory
        self._warn = warn
        self._db: sqlite3.Connection | None = None
        #: The run has given up on SQLite: ``_memory`` is the index (None while it is being built).
        self.degraded = False
        self._memory: _Memory | None = None
        self._building = 0  # generation of the memory build under way (0: none)
        self._generation = 0
        #: file id -> name, for the files whose rows are current
        self._live: dict[int, str] = {}
        self._recent: dict[str, _Noted] = {}
        self._recent_settled: dict[str, str] = {}
        self._recent_undone: dict[str, str] = {}
        self._unflushed: list[_Noted] = []
        self._session_name = ""
        self._session_file: int | None = None
        self._session_end = 0
        self._session_lines = 1
        self._ids = IdFilter()
        self._writer_db: sqlite3.Connection | None = None
        self._thread: ThreadPoolExecutor | None = None
        self._flushing: Future[str | None] | None = None
        #: Every id of the running session (a set add costs a fraction of a filter add, per attack).
        self._session_ids: set[str] = set()

    @property
    def path(self) -> Path:
        return self.directory / INDEX_NAME

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path, warn: Warn) -> Ledger:
        """Open (or rebuild, or bypass) the index and bring it up to date with every journal.

        Each file that is not a journal this version reads is reported once and skipped (see
        ``bridge.store.repair``); a torn tail is cut first. Nothing here is fatal but an unwritable
        directory: a ledger that cannot be used is replaced by an index in memory.
        """
        directory.mkdir(parents=True, exist_ok=True)
        ledger = cls(directory, warn)
        for note in odd_files(directory):
            warn(note)
        ledger._open_index()
        return ledger

    def _open_index(self) -> None:
        path = self.path
        try:
            self._db = _connect(path)
        except (sqlite3.Error, OSError) as error:
            if _is_busy(error):
                self._degrade(f"{error}", now=True)
                return
            if path.exists():
                self._warn(
                    f"the ledger index {path} is unreadable ({error}); rebuilding it from the journals"
                )
            try:
                _remove_index(path)
                self._db = _connect(path)
            except (sqlite3.Error, OSError) as again:
                self._degrade(f"{again}", now=True)
                return
        try:
            self._catch_up()
        except (sqlite3.Error, OSError) as error:
            self._degrade(f"{error}", now=True)

    def _catch_up(self) -> None:
        db = self._require_db()
        rows = db.execute("SELECT id, name, head, indexed_to, lines, replies FROM files WHERE live = 1")
        known = {name: (file, head, to, lines, replies) for file, name, head, to, lines, replies in rows}
        counted = {
            file: (count, end)
            for file, count, end in db.execute(
                "SELECT file, count(*), max(offset + length) FROM replies GROUP BY file"
            )
        }
        for path in session_files(self.directory):
            row = known.pop(path.name, None)
            if row is not None:
                count, end = counted.get(row[0], (0, 0))
                if count != row[4] or end > row[2]:
                    self._warn(
                        f"{path.name}: the ledger index does not match this journal ({count} rows for "
                        f"{row[4]} replies, ending at {end} of {row[2]}); indexing it again"
                    )
                    self._retire(row[0])
                    row = None
            if row is not None and self._unchanged(path, row[1], row[2]):
                self._live[row[0]] = path.name
                continue
            self._index_file(path, row)
        for file, *_ in known.values():  # journals deleted since: their ids go with them
            self._retire(file)
        db.commit()

    @staticmethod
    def _unchanged(path: Path, head: bytes, indexed_to: int) -> bool:
        """Still the file that was indexed, with nothing appended since (so no tail to repair)."""
        try:
            with open_for_reading(path) as handle:
                size = os.fstat(handle.fileno()).st_size
                return size == indexed_to and handle.read(len(head)) == head
        except OSError:
            return False

    def _index_file(self, path: Path, row: tuple[int, bytes, int, int, int] | None) -> None:
        inspection = inspect(path)
        if inspection.kind is FileKind.UNREADABLE:
            if row is not None and row[4]:
                # Still the record, only unreadable now (permissions, a failing disk): the ids the
                # index holds for it are refused (journal_unreadable, retryable) while it stays so,
                # and answered once it can be read; never resolved again.
                self._live[row[0]] = path.name
                self._warn(
                    f"{inspection.note}; the {row[4]} ids the index holds for it are refused "
                    "(journal_unreadable, retryable) until it can be read, never rolled again"
                )
            else:
                self._warn(f"{inspection.note}; skipped: its ids are not remembered")
                if row is not None:
                    self._retire(row[0])
            return
        if inspection.note:
            self._warn(inspection.note)
        if not inspection.usable:
            if row is not None:
                self._retire(row[0])
            return
        if row is not None and inspection.head == row[1] and _line_ends_at(path, row[2], inspection.size):
            file, start, lines = row[0], row[2], row[3]
        else:
            if row is not None:
                self._retire(row[0])
            file = self._new_file(path.name, inspection.head)
            start, lines = len(inspection.head), 1
        self._live[file] = path.name
        self._scan(path, file, start, lines)

    def _new_file(self, name: str, head: bytes) -> int:
        cursor = self._require_db().execute(
            "INSERT INTO files (name, head, indexed_to, lines, replies) VALUES (?, ?, ?, 1, 0)",
            (name, head, len(head)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _retire(self, file: int) -> None:
        """Forget a file's rows: they stay in the table, but no lookup believes them, and the file's
        lines take their place when it is indexed again."""
        self._require_db().execute("UPDATE files SET live = 0 WHERE id = ?", (file,))
        self._live.pop(file, None)

    def _scan(self, path: Path, file: int, start: int, lines: int) -> None:
        """Index every answerable line from ``start`` on, committing batch by batch."""
        db = self._require_db()
        for noted, end, last in _answerable(path, start, lines + 1, self._warn):
            owned = self._store(file, noted)
            db.execute(
                "UPDATE files SET indexed_to = ?, lines = ?, replies = replies + ? WHERE id = ?",
                (end, last, owned, file),
            )
            db.commit()

    def _store(self, file: int, noted: list[_Noted], db: sqlite3.Connection | None = None) -> int:
        """Write ``noted`` (lines of ``file``); how many ``replies`` rows now point into the file."""
        db = db or self._require_db()
        before = db.total_changes
        db.executemany(_UPSERT_REPLY, [(item.id, file, item.offset, item.length) for item in noted])
        owned = db.total_changes - before
        pending = [(item.id, file, item.offset, item.length, item.at) for item in noted if item.pending]
        if pending:
            db.executemany(_UPSERT_PENDING, pending)
        settled = [(item.settles, item.id) for item in noted if item.settles is not None]
        if settled:
            db.executemany(_UPSERT_SETTLED, settled)
        undone = [(item.undoes, item.id) for item in noted if item.undoes is not None]
        if undone:
            db.executemany("INSERT OR IGNORE INTO undone VALUES (?, ?)", undone)
        return owned

    async def fill_filter(self) -> None:
        """Add every id of the index to the id filter, a slice per turn of the loop, so no turn is
        long; until it is done every look-up goes to the index. Ids noted meanwhile are added as
        they come."""
        last = ""
        while True:
            db = self._db
            if db is None:
                return  # the index in memory answers exactly; it needs no filter
            try:
                rows = db.execute(
                    "SELECT id FROM replies WHERE id > ? ORDER BY id LIMIT ?", (last, FILL_STEP)
                ).fetchall()
            except sqlite3.Error as error:
                self._degrade(f"{error}")
                return
            self._ids.add_all([id for (id,) in rows])
            if len(rows) < FILL_STEP:
                break
            last = rows[-1][0]
            await asyncio.sleep(0)
        self._ids.complete = True

    # --- giving up on SQLite ----------------------------------------------------------------------

    def _degrade(self, why: str, *, now: bool = False) -> None:
        """Stop using SQLite for this run; index the journals in memory (``now``, or in a thread)."""
        if self._db is not None:
            with contextlib.suppress(Exception):
                self._db.close()
            self._db = None
        self._flushing = None  # whatever the ledger's thread still does is not waited for
        if self._writer_db is not None:
            writer, self._writer_db = self._writer_db, None
            if self._thread is not None:  # closed after any batch it is writing
                self._thread.submit(_close_quietly, writer)
            else:
                _close_quietly(writer)
        self._unflushed = []  # ``_recent`` keeps every line of this session from now on
        if not self.degraded:
            self.degraded = True
            self._warn(
                f"the ledger index {self.path} cannot be used ({why}); for this run the journals are "
                "indexed in memory instead"
            )
        self._rebuild(now=now)

    def _rebuild(self, *, now: bool = False) -> None:
        """(Re)build the index in memory from the journals."""
        self._memory = None
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if now or loop is None:
            self._building = 0
            self._memory = _build_memory(self.directory, self._warn, repair=now)
            return
        if self._building:
            return  # one is under way, and it reads the files as they are now
        self._generation += 1
        self._building = generation = self._generation

        def build() -> None:
            try:
                memory: _Memory | None = _build_memory(self.directory, _quiet, repair=False)
            except Exception:  # never leave the run without an index: try again on the next doubt
                memory = None
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(done, memory)

        def done(memory: _Memory | None) -> None:
            if self._building == generation:
                self._building = 0
                self._memory = memory

        threading.Thread(target=build, name="ledger rebuild", daemon=True).start()

    def _doubt(self, place: _Place, id: str, what: str) -> LedgerUnavailable:
        """The index pointed ``id`` at a line that is not its own: believe none of it for this run."""
        self._warn(
            f"{place.name}: the ledger index does not match this journal ({what} at offset {place.offset} "
            f"for id {id!r}); it is indexed again, and retries are refused until it is"
        )
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.execute("UPDATE files SET live = 0 WHERE name = ? AND live = 1", (place.name,))
                self._db.commit()
        if self.degraded:
            self._rebuild()
        else:
            self._degrade(f"{place.name} changed behind its back")
        return LedgerUnavailable(f"the journals are being indexed again; send {id!r} again")

    # --- the running session --------------------------------------------------------------------

    def begin_session(self, path: Path, head: bytes) -> Callable[[list[Written]], None]:
        """Index the new session file as it is written: returns the journal's ``on_written`` hook."""
        self._session_name = path.name
        self._session_end = len(head)
        if self._db is not None:
            try:
                file = self._new_file(path.name, head)
                self._db.commit()
            except sqlite3.Error as error:
                self._degrade(f"{error}")
            else:
                self._live[file] = path.name
                self._session_file = file
                try:  # the ledger thread's own connection (a connection is not for two threads at once)
                    self._writer_db = _connect(self.path)
                except (sqlite3.Error, OSError):
                    self._writer_db = None  # flushes are written on the loop instead
        recent = self._recent
        recent_settled = self._recent_settled
        recent_undone = self._recent_undone
        session_ids = self._session_ids

        def written(lines: list[Written]) -> None:
            for line, offset, length in lines:
                item = _noted_object(line, offset, length)
                if item is None:
                    continue
                session_ids.add(item.id)
                recent.setdefault(item.id, item)
                if item.settles is not None:
                    recent_settled.setdefault(item.settles, item.id)
                if item.undoes is not None:
                    recent_undone.setdefault(item.undoes, item.id)
                if self._db is not None:
                    self._unflushed.append(item)
            last = lines[-1]
            self._session_end = last.offset + last.length
            self._session_lines += len(lines)
            if len(self._unflushed) >= FLUSH_EVERY:
                self.flush()

        return written

    def flush(self) -> None:
        """Write the running session's noted lines to the index. With a running loop the writing is
        done by the ledger's own thread on its own connection (SQLite lets go of the GIL), one batch at
        a time, and the lines stay in memory until it is committed; on any failure the run gives up on
        SQLite (nothing noted is lost: it stays in memory)."""
        file = self._session_file
        if self._db is None or file is None or not self._unflushed or self._flushing is not None:
            return
        noted, self._unflushed = self._unflushed, []
        mark = (self._session_end, self._session_lines)
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None or self._writer_db is None:
            self._flushed(noted, self._write(self._db, file, noted, mark))
            return
        writer, thread = self._writer_db, self._writer_thread()
        self._flushing = done = thread.submit(self._write, writer, file, noted, mark)

        def back(_: Future[str | None]) -> None:
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile: close() waits instead
                loop.call_soon_threadsafe(self._flushed, noted, done.result(), done)

        done.add_done_callback(back)

    def _write(
        self, db: sqlite3.Connection, file: int, noted: list[_Noted], mark: tuple[int, int]
    ) -> str | None:
        """One batch into the index (in the ledger's thread, or here); why it failed, or None."""
        try:
            owned = self._store(file, noted, db)
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

    def _flushed(
        self, noted: list[_Noted], failure: str | None, done: Future[str | None] | None = None
    ) -> None:
        if done is not None:
            if self._flushing is not done:
                return  # close() already took care of it
            self._flushing = None
        if failure is not None:
            self._degrade(failure)
            return
        recent = self._recent
        for item in noted:
            if recent.get(item.id) is item:
                del recent[item.id]
            if item.settles is not None and self._recent_settled.get(item.settles) == item.id:
                del self._recent_settled[item.settles]
            if item.undoes is not None and self._recent_undone.get(item.undoes) == item.id:
                del self._recent_undone[item.undoes]
        if len(self._unflushed) >= FLUSH_EVERY:
            self.flush()

    def _writer_thread(self) -> ThreadPoolExecutor:
        if self._thread is None:
            self._thread = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ledger")
        return self._thread

    def close(self) -> None:
        """Flush what is left and close. A batch still in the ledger's thread is waited for at most
        ``CLOSE_WAIT`` seconds (SQLite never waits for a lock, so only a stalled disk gets there)."""
        pending, self._flushing = self._flushing, None
        if pending is not None:
            try:
                failure = pending.result(timeout=CLOSE_WAIT)
            except Exception:
                failure = "the last batch did not finish"
            if failure is not None:
                self._degrade(failure)
        if self._thread is not None:
            self._thread.shutdown(wait=False)
            self._thread = None
        if self._writer_db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._writer_db.close()
            self._writer_db = None
        if self._db is not None and self._session_file is not None and self._unflushed:
            failure = self._write(
                self._db, self._session_file, self._unflushed, (self._session_end, self._session_lines)
            )
            self._unflushed = []
            if failure is not None:
                self._warn(
                    f"the ledger index could not take this run's last lines ({failure}); "
                    "the next start indexes them from the journal"
                )
        if self._db is not None:
            with contextlib.suppress(sqlite3.Error):
                self._db.close()
            self._db = None

    # --- lookups --------------------------------------------------------------------------------

    def reply(self, id: str) -> bytes | None:
        """The reply journaled for ``id``, byte for byte, read back from its journal; None if ``id`` is
        in no journal. Raises ``LedgerUnavailable`` when that cannot be told just now."""
        noted = self._recent.get(id)
        if noted is not None:
            place: _Place | None = _Place(self._session_name, noted.offset, noted.length)
        else:
            place = self._find_reply(id)
        if place is None:
            return None
        data = self._read_bytes(place, id)
        try:
            line = _line_decoder.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise self._doubt(place, id, "an unreadable line") from None
        if line.id != id or not len(line.reply):
            raise self._doubt(place, id, "another request's line")
        return bytes(line.reply)

    def pending(self, id: str) -> PendingAttack | Settled | None:
        """The open two-step attack ``id``, the ``allocate`` that settled it, or None if there is none."""
        by = self._recent_settled.get(id)
        if by is not None:
            return Settled(by)
        noted = self._recent.get(id)
        if noted is not None:
            if not noted.pending:
                return None
            place = _Place(self._session_name, noted.offset, noted.length)
        else:
            found = self._find_pending(id)
            if found is None or isinstance(found, Settled):
                return found
            place = found
        data = self._read_bytes(place, id)
        try:
            entry = _entry_decoder.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise self._doubt(place, id, "an unreadable line") from None
        if entry.id != id:
            raise self._doubt(place, id, "another request's line")
        return PendingAttack(entry.id, entry.request, entry.seed, entry.dice, _when(entry.at))

    def undone_by(self, id: str) -> str | None:
        """The id of the ``undo`` that took request ``id`` back, if one did."""
        by = self._recent_undone.get(id)
        if by is not None:
            return by
        if not self._may_hold(id):  # only a request the ledger holds can have been undone
            return None
        if self.degraded:
            return self._in_memory().undone.get(id)
        try:
            row = self._require_db().execute("SELECT by FROM undone WHERE target = ?", (id,)).fetchone()
        except sqlite3.Error as error:
            raise self._unusable(error) from None
        return str(row[0]) if row is not None else None

    def remembered(self) -> int:
        """How many replies the journals hold (for the start-up log line)."""
        if self.degraded:
            memory = self._memory
            return (len(memory.replies) if memory is not None else 0) + len(self._recent)
        live = list(self._live)
        if not live:
            return 0
        marks = ",".join("?" * len(live))
        try:
            (total,) = (
                self._require_db()
                .execute(f"SELECT sum(replies) FROM files WHERE id IN ({marks})", live)
                .fetchone()
            )
        except sqlite3.Error:
            return 0
        return int(total or 0) + len(self._unflushed)

    def _may_hold(self, id: str) -> bool:
        return id in self._session_ids or self._ids.may_hold(id)

    def _find_reply(self, id: str) -> _Place | None:
        if not self._may_hold(id):
            return None
        if self.degraded:
            return self._in_memory().replies.get(id)
        try:
            row = (
                self._require_db()
                .execute("SELECT file, offset, length FROM replies WHERE id = ?", (id,))
                .fetchone()
            )
        except sqlite3.Error as error:
            raise self._unusable(error) from None
        if row is None:
            return None
        name = self._live.get(row[0])
        # A row of a journal deleted since (its ids went with it), or indexed again (its lines own
        # their ids under the new file id).
        return _Place(name, row[1], row[2]) if name is not None else None

    def _find_pending(self, id: str) -> _Place | Settled | None:
        if not self._may_hold(id):  # a pending attack's id is a reply's id too
            return None
        if self.degraded:
            memory = self._in_memory()
            by = memory.settled.get(id)
            if by is not None:
                return Settled(by)
            found = memory.pending.get(id)
            return found[0] if found is not None else None
        try:
            row = (
                self._require_db()
                .execute("SELECT file, offset, length, allocated_by FROM pending WHERE id = ?", (id,))
                .fetchone()
            )
        except sqlite3.Error as error:
            raise self._unusable(error) from None
        if row is None:
            return None
        if row[3] is not None:
            return Settled(str(row[3]))
        name = self._live.get(row[0]) if row[0] is not None else None
        return _Place(name, row[1], row[2]) if name is not None else None

    def _in_memory(self) -> _Memory:
        memory = self._memory
        if memory is None:
            raise LedgerUnavailable("the journals are being indexed again; send the request again")
        return memory

    def _unusable(self, error: sqlite3.Error) -> LedgerUnavailable:
        self._degrade(f"{error}")
        return LedgerUnavailable("the ledger index failed; send the request again")

    def _read_bytes(self, place: _Place, id: str) -> bytes:
        try:
            return _read_at(self.directory / place.name, place.offset, place.length)
        except OSError as error:
            self._warn(f"{place.name}: cannot be read ({error.strerror or error}); {id!r} refused for now")
            raise LedgerUnavailable(
                f"the journal holding {id!r} cannot be read just now; send it again"
            ) from None

    def _require_db(self) -> sqlite3.Connection:
        if self._db is None:
            raise sqlite3.OperationalError("the ledger index is closed")
        return self._db


def _close_quietly(db: sqlite3.Connection) -> None:
    with contextlib.suppress(sqlite3.Error):
        db.close()


def _line_ends_at(path: Path, offset: int, size: int) -> bool:
    """Whether ``offset`` is just past a newline of ``path`` (a place indexing may resume from)."""
    if offset > size or offset < 1:
        return False
    try:
        return _read_at(path, offset - 1, 1) == b"\n"
    except OSError:
        return False


def _is_busy(error: BaseException) -> bool:
    """Another process holds the index (``database is locked``): leave its file alone."""
    text = str(error).lower()
    return isinstance(error, sqlite3.OperationalError) and ("locked" in text or "busy" in text)


def _connect(path: Path) -> sqlite3.Connection:
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
