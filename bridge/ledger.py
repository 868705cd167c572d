"""What the bridge remembers between requests, looked up on disk: where each id's reply was journaled.

Request ids are the VTT's idempotency keys and are global across the whole data directory: a retry
after a restart lands in a new session and must still get the old reply, byte for byte, without rolling
again. The journals stay the record of truth; this is only an index of them, kept in SQLite (the
standard library's) at ``sessions/.ledger.sqlite3``:

* ``replies``: request id -> (journal file, byte offset, length) of the line that answered it. Any line
  with an ``id`` and a ``reply`` counts, whatever its ``kind``, so new line kinds are answerable on
  retry without changing this module. A retry reads the line back and returns its ``reply`` verbatim.
* ``pending``: two-step attacks (``outcome == "pending"``) with when they were rolled and, once settled,
  the id of the ``allocate`` that settled them.
* ``undone``: requests an ``undo`` line took back (``bridge/undo.py``), with the undo's id.
* ``files``: per journal, its header line (which identifies it) and how far it has been indexed.

Why an index on disk rather than the dict this used to be: memory and start time no longer grow with
the campaign. A start reads each journal's header and indexes only what was appended after the
recorded high-water offset, so a crash (even SIGKILL, which loses index rows not yet flushed) costs a
scan of the tail, and a missing or corrupt index is rebuilt from the journals. The index is written
with ``synchronous=OFF``: it is derived data, and the journals are fsynced.

New lines of the running session are noted in memory as they are fsynced and flushed to SQLite in
small batches; a lookup checks those first. A fixed-size filter of every id (``bridge.idfilter``),
filled from the index a slice at a time after the start, answers "never seen" for new ids without
asking SQLite.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import msgspec

from bridge.idfilter import IdFilter
from bridge.journal import Entry, Written, read_line, session_files
from bridge.repair import inspect

__all__ = ["INDEX_NAME", "Ledger", "PendingAttack", "Settled"]

#: The index file, next to the journals it indexes (hidden: ``volley sessions`` lists ``*.jsonl``).
INDEX_NAME = ".ledger.sqlite3"
#: Bumped when the tables change; an index of another version is rebuilt.
SCHEMA_VERSION = 2
#: Lines of the running session noted in memory before they are flushed to the index.
FLUSH_EVERY = 128
#: How much of a journal is read at a time when indexing it.
_CHUNK = 4 << 20
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


@dataclass(frozen=True)
class _Place:
    file: int
    offset: int
    length: int


@dataclass(frozen=True)
class _Noted:
    """One answerable line of the running session, not yet flushed to the index."""

    id: str
    place: _Place
    pending: bool
    at: float | None
    settles: str | None
    #: the request an ``undo`` line took back
    undoes: str | None = None


def _when(at: Any) -> float | None:
    if not isinstance(at, str):
        return None
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def _noted(line: _Line, place: _Place) -> _Noted | None:
    """The index row a journal line makes, or None when it answers nothing."""
    if not isinstance(line.id, str) or not len(line.reply):
        return None
    settles = line.pending_id if isinstance(line.pending_id, str) else None
    undoes = line.target_id if line.kind == "undo" and isinstance(line.target_id, str) else None
    pending = line.outcome == "pending"
    # Only a pending attack's time is kept (for its expiry): parsing every line's would cost each
    # attack a few microseconds for nothing.
    return _Noted(line.id, place, pending, _when(line.at) if pending else None, settles, undoes)


class Ledger:
    """The index of every journaled reply in a sessions directory, and of open two-step attacks."""

    def __init__(self, directory: Path, db: sqlite3.Connection, warn: Warn) -> None:
        self.directory = directory
        self._db = db
        self._warn = warn
        #: file id -> name, for the files whose rows are current
        self._live: dict[int, str] = {}
        self._recent: dict[str, _Noted] = {}
        self._recent_settled: dict[str, str] = {}
        self._recent_undone: dict[str, str] = {}
        self._unflushed: list[_Noted] = []
        self._session: tuple[int, int, int] | None = None  # (file id, indexed_to, lines) to flush
        self._ids = IdFilter()

    # --- opening ------------------------------------------------------------------------------

    @classmethod
    def open(cls, directory: Path, warn: Warn) -> Ledger:
        """Open (or rebuild) the index and bring it up to date with every journal in ``directory``.

        Each file that is not a journal this version reads is reported once and skipped (see
        ``bridge.repair``); a torn tail is cut first. Nothing here is fatal but an unwritable directory.
        """
        directory.mkdir(parents=True, exist_ok=True)
        path = directory / INDEX_NAME
        try:
            db = _connect(path)
        except sqlite3.DatabaseError as error:
            if path.exists():
                warn(f"the ledger index {path} is unreadable ({error}); rebuilding it from the journals")
            _remove_index(path)
            db = _connect(path)
        ledger = cls(directory, db, warn)
        ledger._catch_up()
        return ledger

    def _catch_up(self) -> None:
        rows = self._db.execute("SELECT id, name, head, indexed_to, lines FROM files WHERE live = 1")
        known = {name: (file, head, indexed_to, lines) for file, name, head, indexed_to, lines in rows}
        for path in session_files(self.directory):
            row = known.pop(path.name, None)
            if row is not None and self._unchanged(path, row[1], row[2]):
                self._live[row[0]] = path.name
                continue
            self._index_file(path, row)
        for file, *_ in known.values():  # journals deleted since: their ids go with them
            self._retire(file)
        self._db.commit()

    @staticmethod
    def _unchanged(path: Path, head: bytes, indexed_to: int) -> bool:
        """Still the file that was indexed, with nothing appended since (so no tail to repair)."""
        try:
            with open(path, "rb") as handle:
                size = os.fstat(handle.fileno()).st_size
                return size == indexed_to and handle.read(len(head)) == head
        except OSError:
            return False

    def _index_file(self, path: Path, row: tuple[int, bytes, int, int] | None) -> None:
        inspection = inspect(path)
        if inspection.note:
            self._warn(inspection.note)
        if not inspection.usable:
            if row is not None:
                self._retire(row[0])
            return
        if row is not None and inspection.head == row[1] and inspection.size >= row[2]:
            file, start, lines = row[0], row[2], row[3]
        else:
            if row is not None:
                self._retire(row[0])
            file = self._new_file(path.name, inspection.head)
            start, lines = len(inspection.head), 1
        self._live[file] = path.name
        self._scan(path, file, start, lines)

    def _new_file(self, name: str, head: bytes) -> int:
        cursor = self._db.execute(
            "INSERT INTO files (name, head, indexed_to, lines, replies) VALUES (?, ?, ?, 1, 0)",
            (name, head, len(head)),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _retire(self, file: int) -> None:
        """Forget a file's rows (they stay in the table, unreachable, until the index is rebuilt)."""
        self._db.execute("UPDATE files SET live = 0 WHERE id = ?", (file,))
        self._live.pop(file, None)

    def _scan(self, path: Path, file: int, start: int, lines: int) -> None:
        """Index every answerable line from ``start`` on, committing chunk by chunk."""
        offset = start
        for chunk_lines in _read_lines(path, start):
            noted: list[_Noted] = []
            for line in chunk_lines:
                lines += 1
                length = len(line)
                if line.strip():
                    decoded = read_line(_line_decoder, line, f"{path.name}:{lines}", self._warn)
                    item = _noted(decoded, _Place(file, offset, length)) if decoded else None
                    if item is not None:
                        noted.append(item)
                offset += length
            self._store(noted)
            self._db.execute(
                "UPDATE files SET indexed_to = ?, lines = ?, replies = replies + ? WHERE id = ?",
                (offset, lines, len(noted), file),
            )
            self._db.commit()

    async def fill_filter(self) -> None:
        """Add every id of the index to the id filter, a slice per turn of the loop, so no turn is
        long; until it is done every look-up goes to the index. Ids noted meanwhile are added as
        they come."""
        last = ""
        while True:
            rows = self._db.execute(
                "SELECT id FROM replies WHERE id > ? ORDER BY id LIMIT ?", (last, FILL_STEP)
            ).fetchall()
            self._ids.add_all([id for (id,) in rows])
            if len(rows) < FILL_STEP:
                break
            last = rows[-1][0]
            await asyncio.sleep(0)
        self._ids.complete = True

    def _store(self, noted: Iterable[_Noted]) -> None:
        replies = []
        pending = []
        settled = []
        undone = []
        for item in noted:
            replies.append((item.id, item.place.file, item.place.offset, item.place.length))
            if item.pending:
                pending.append((item.id, item.place.file, item.place.offset, item.place.length, item.at))
            if item.settles is not None:
                settled.append((item.settles, item.id))
            if item.undoes is not None:
                undone.append((item.undoes, item.id))
        self._db.executemany("INSERT OR REPLACE INTO replies VALUES (?, ?, ?, ?)", replies)
        self._db.executemany("INSERT OR REPLACE INTO undone VALUES (?, ?)", undone)
        # A pending line and the allocate that settles it may be indexed in either order.
        self._db.executemany(
            "INSERT INTO pending (id, file, offset, length, at) VALUES (?, ?, ?, ?, ?) "
            "ON CONFLICT (id) DO UPDATE SET file = excluded.file, offset = excluded.offset, "
            "length = excluded.length, at = excluded.at",
            pending,
        )
        self._db.executemany(
            "INSERT INTO pending (id, allocated_by) VALUES (?, ?) "
            "ON CONFLICT (id) DO UPDATE SET allocated_by = excluded.allocated_by",
            settled,
        )

    # --- the running session --------------------------------------------------------------------

    def begin_session(self, path: Path, head: bytes) -> Callable[[list[Written]], None]:
        """Index the new session file as it is written: returns the journal's ``on_written`` hook."""
        file = self._new_file(path.name, head)
        self._db.commit()
        self._live[file] = path.name
        self._session = (file, len(head), 1)

        def written(lines: list[Written]) -> None:
            assert self._session is not None
            _, indexed_to, count = self._session
            for placed in lines:
                item = _noted(_line_of(placed.line), _Place(file, placed.offset, placed.length))
                if item is not None:
                    self._ids.add(item.id)
                    self._recent[item.id] = item
                    if item.settles is not None:
                        self._recent_settled[item.settles] = item.id
                    if item.undoes is not None:
                        self._recent_undone[item.undoes] = item.id
                    self._unflushed.append(item)
                indexed_to = placed.offset + placed.length
                count += 1
            self._session = (file, indexed_to, count)
            if len(self._unflushed) >= FLUSH_EVERY:
                self.flush()

        return written

    def flush(self) -> None:
        """Write the running session's noted lines to the index (a few hundred µs per batch)."""
        if self._session is None:
            return
        noted, self._unflushed = self._unflushed, []
        file, indexed_to, lines = self._session
        self._store(noted)
        self._db.execute(
            "UPDATE files SET indexed_to = ?, lines = ?, replies = replies + ? WHERE id = ?",
            (indexed_to, lines, len(noted), file),
        )
        self._db.commit()
        for item in noted:
            if self._recent.get(item.id) is item:
                del self._recent[item.id]
            if item.settles is not None and self._recent_settled.get(item.settles) == item.id:
                del self._recent_settled[item.settles]
            if item.undoes is not None and self._recent_undone.get(item.undoes) == item.id:
                del self._recent_undone[item.undoes]

    def close(self) -> None:
        self.flush()
        self._db.close()

    # --- lookups --------------------------------------------------------------------------------

    def reply(self, id: str) -> bytes | None:
        """The reply journaled for ``id``, byte for byte, read back from its journal; None if none."""
        place = self._place("replies", id)
        if place is None:
            return None
        line = self._read(place, id)
        return bytes(line.reply) if line is not None else None

    def pending(self, id: str) -> PendingAttack | Settled | None:
        """The open two-step attack ``id``, the ``allocate`` that settled it, or None if there is none."""
        by = self._recent_settled.get(id)
        if by is not None:
            return Settled(by)
        noted = self._recent.get(id)
        if noted is not None and noted.pending:
            place: _Place | None = noted.place
        elif not self._ids.may_hold(id):  # a pending attack's id is a reply's id too
            return None
        else:
            row = self._db.execute(
                "SELECT file, offset, length, allocated_by FROM pending WHERE id = ?", (id,)
            ).fetchone()
            if row is None:
                return None
            if row[3] is not None:
                return Settled(str(row[3]))
            place = _Place(*row[:3]) if row[0] in self._live else None
        if place is None:
            return None
        data = self._read_bytes(place)
        try:
            entry = _entry_decoder.decode(data) if data is not None else None
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            entry = None
        if entry is None or entry.id != id:
            self._stale(place)
            return None
        return PendingAttack(entry.id, entry.request, entry.seed, entry.dice, _when(entry.at))

    def undone_by(self, id: str) -> str | None:
        """The id of the ``undo`` that took request ``id`` back, if one did."""
        by = self._recent_undone.get(id)
        if by is not None:
            return by
        if not self._ids.may_hold(id):  # only a request the ledger holds can have been undone
            return None
        row = self._db.execute("SELECT by FROM undone WHERE target = ?", (id,)).fetchone()
        return str(row[0]) if row is not None else None

    def remembered(self) -> int:
        """How many replies the live journals hold (for the start-up log line)."""
        live = list(self._live)
        if not live:
            return 0
        marks = ",".join("?" * len(live))
        (total,) = self._db.execute(f"SELECT sum(replies) FROM files WHERE id IN ({marks})", live).fetchone()
        return int(total or 0) + len(self._unflushed)

    def _place(self, table: str, id: str) -> _Place | None:
        noted = self._recent.get(id)
        if noted is not None:
            return noted.place
        if not self._ids.may_hold(id):
            return None
        row = self._db.execute(f"SELECT file, offset, length FROM {table} WHERE id = ?", (id,)).fetchone()
        if row is None or row[0] not in self._live:
            return None
        return _Place(*row)

    def _read_bytes(self, place: _Place) -> bytes | None:
        name = self._live.get(place.file)
        if name is None:
            return None
        try:
            with open(self.directory / name, "rb") as handle:
                handle.seek(place.offset)
                return handle.read(place.length)
        except OSError:
            return None

    def _read(self, place: _Place, id: str) -> _Line | None:
        data = self._read_bytes(place)
        try:
            line = _line_decoder.decode(data) if data is not None else None
        except (msgspec.DecodeError, msgspec.ValidationError, RecursionError):
            line = None
        if line is None or line.id != id or not len(line.reply):
            self._stale(place)
            return None
        return line

    def _stale(self, place: _Place) -> None:
        """The index points at a line that is not there: the journal changed behind our back."""
        name = self._live.get(place.file, "?")
        self._warn(
            f"{name}: the ledger index is out of date for this journal; it is re-read at the next start"
        )
        with contextlib.suppress(sqlite3.DatabaseError):
            self._retire(place.file)
            self._db.commit()


def _line_of(line: Any) -> _Line:
    """A journal line object as the index sees it (whatever its kind)."""
    reply = getattr(line, "reply", None)
    config = getattr(type(line), "__struct_config__", None)  # a tagged Struct: its tag is its kind
    kind = config.tag if config is not None and config.tag_field == "kind" else getattr(line, "kind", "")
    return _Line(
        kind=str(kind),
        id=getattr(line, "id", None),
        reply=reply if isinstance(reply, msgspec.Raw) else msgspec.Raw(),
        outcome=getattr(line, "outcome", None),
        pending_id=getattr(line, "pending_id", None),
        target_id=getattr(line, "target_id", None),
        at=getattr(line, "at", None),
    )


def _read_lines(path: Path, start: int) -> Iterator[list[bytes]]:
    """The whole lines of ``path`` from ``start`` on (newline kept), a chunk at a time.

    Only ``\\n`` ends a line; a last line without one is not whole and is left for the next start.
    """
    with open(path, "rb") as handle:
        handle.seek(start)
        rest = b""
        while True:
            chunk = handle.read(_CHUNK)
            if not chunk:
                break
            data = rest + chunk
            cut = data.rfind(b"\n") + 1
            rest = data[cut:]
            if cut:
                yield [line + b"\n" for line in data[: cut - 1].split(b"\n")]


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, isolation_level="DEFERRED", check_same_thread=False)
    try:
        (version,) = db.execute("PRAGMA user_version").fetchone()
        if version not in (0, SCHEMA_VERSION):
            raise sqlite3.DatabaseError(f"index schema {version}, this Volley writes {SCHEMA_VERSION}")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = OFF")
        if version == 0:
            db.executescript(_SCHEMA + f"PRAGMA user_version = {SCHEMA_VERSION};")
        db.execute("SELECT count(*) FROM files").fetchone()
    except BaseException:
        db.close()
        raise
    os.chmod(path, 0o600)
    return db


def _remove_index(path: Path) -> None:
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
