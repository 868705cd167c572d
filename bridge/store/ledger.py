"""Where each request id's reply was journaled: a cache of the journals, never a second record.

Request ids are the VTT's idempotency keys and are global across the whole data directory: a retry
after a restart lands in a new session and must still get the old reply, byte for byte, without rolling
again. The journals are the record; the ledger only asks an index where an id's line is
(``bridge.store.index.Index``) and then reads that line back:

* the running session's lines, held in memory until the index has them (``bridge.store.write_behind``);
* the SQLite index at ``sessions/.ledger.sqlite3`` (``bridge.store.sqlite_index``), checked against
  the journals and brought up to date at start (``bridge.store.catch_up``);
* or, for a run that cannot use SQLite, every journal indexed in memory (``bridge.store.memory_index``).

An index is trusted no further than it can be checked (the Kafka offset-index habit):

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

A fixed-size filter of every earlier id (``bridge.store.idfilter``), filled from the index a slice per
turn of the event loop after the start (this file's one concurrency mechanism), and the set of the
running session's ids answer "never seen" for new ids without asking any index.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec

from bridge.store.catch_up import catch_up
from bridge.store.files import odd_files, read_at
from bridge.store.idfilter import IdFilter
from bridge.store.index import (
    KEYS_DECODER,
    Index,
    IndexBroken,
    LedgerUnavailable,
    Place,
    Settled,
    Warn,
    when,
)
from bridge.store.journal import Written
from bridge.store.lines import Entry
from bridge.store.memory_index import MemoryIndex, Rebuilding, build, build_in_thread
from bridge.store.sqlite_index import INDEX_NAME, SqliteIndex, open_index
from bridge.store.write_behind import SessionLines

__all__ = ["FILL_STEP", "INDEX_NAME", "Ledger", "LedgerUnavailable", "PendingAttack", "Settled"]

#: Ids read from the index per turn of the event loop while the id filter is being filled.
FILL_STEP = 512

_entry_decoder = msgspec.json.Decoder(Entry)
T = TypeVar("T")


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


class Ledger:
    """The index of every journaled reply in a sessions directory, and of open two-step attacks."""

    def __init__(self, directory: Path, warn: Warn) -> None:
        self.directory = directory
        self._warn = warn
        #: The SQLite index, while the run uses it.
        self._sqlite: SqliteIndex | None = None
        #: What the lookups ask after the session's own lines: the SQLite index, the index in memory,
        #: or, while that is being built, ``Rebuilding`` (every lookup refused as retryable).
        self._index: Index = Rebuilding()
        #: The run has given up on SQLite: the index is in memory.
        self.degraded = False
        self._building = 0  # generation of the memory build under way (0: none)
        self._generation = 0
        self._ids = IdFilter()
        self._session = SessionLines(self._degrade, warn)

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
        try:
            index = open_index(self.path, self._warn)
        except IndexBroken as error:
            self._degrade(f"{error}", now=True)
            return
        self._sqlite = self._index = index
        try:
            catch_up(index, self.directory, self._warn)
        except IndexBroken as error:
            self._degrade(f"{error}", now=True)

    async def fill_filter(self) -> None:
        """Add every id of the index to the id filter, a slice per turn of the loop, so no turn is
        long; until it is done every look-up goes to the index. Ids noted meanwhile are added as
        they come."""
        last = ""
        while True:
            index = self._sqlite
            if index is None:
                return  # the index in memory answers exactly; it needs no filter
            try:
                ids = index.ids_after(last, FILL_STEP)
            except IndexBroken as error:
                self._degrade(f"{error}")
                return
            self._ids.add_all(ids)
            if len(ids) < FILL_STEP:
                break
            last = ids[-1]
            await asyncio.sleep(0)
        self._ids.complete = True

    # --- giving up on SQLite ----------------------------------------------------------------------

    def _degrade(self, why: str, *, now: bool = False) -> None:
        """Stop using SQLite for this run; index the journals in memory (``now``, or in a thread)."""
        if self._sqlite is not None:
            with contextlib.suppress(Exception):
                self._sqlite.close()
            self._sqlite = None
        self._session.stop()  # the session's lines stay in memory from now on
        if not self.degraded:
            self.degraded = True
            self._warn(
                f"the ledger index {self.path} cannot be used ({why}); for this run the journals are "
                "indexed in memory instead"
            )
        self._rebuild(now=now)

    def _rebuild(self, *, now: bool = False) -> None:
        """(Re)build the index in memory from the journals."""
        self._index = Rebuilding()
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if now or loop is None:
            self._building = 0
            self._index = build(self.directory, self._warn, repair=now)
            return
        if self._building:
            return  # one is under way, and it reads the files as they are now
        self._generation += 1
        self._building = generation = self._generation

        def done(memory: MemoryIndex | None) -> None:
            if self._building == generation:
                self._building = 0
                self._index = memory if memory is not None else Rebuilding()

        build_in_thread(self.directory, loop, done)

    def _distrust(self, place: Place, id: str, what: str) -> LedgerUnavailable:
        """The index pointed ``id`` at a line that is not its own: believe none of it for this run."""
        self._warn(
            f"{place.name}: the ledger index does not match this journal ({what} at offset {place.offset} "
            f"for id {id!r}); it is indexed again, and retries are refused until it is"
        )
        if self._sqlite is not None:
            self._sqlite.retire_name(place.name)
        if self.degraded:
            self._rebuild()
        else:
            self._degrade(f"{place.name} changed behind its back")
        return LedgerUnavailable(f"the journals are being indexed again; send {id!r} again")

    # --- the running session --------------------------------------------------------------------

    def begin_session(self, path: Path, head: bytes) -> Callable[[list[Written]], None]:
        """Index the new session file as it is written: returns the journal's ``on_written`` hook."""
        return self._session.begin(path, head, self._sqlite)

    def flush(self) -> None:
        """Write the running session's noted lines to the index (behind them, in the ledger's thread)."""
        self._session.flush()

    def close(self) -> None:
        """Flush what is left and close."""
        self._session.close()
        if self._sqlite is not None:
            self._sqlite.close()
            self._sqlite = None

    # --- lookups --------------------------------------------------------------------------------

    def reply(self, id: str) -> bytes | None:
        """The reply journaled for ``id``, byte for byte, read back from its journal; None if ``id`` is
        in no journal. Raises ``LedgerUnavailable`` when that cannot be told just now."""
        line = self._session.line(id)
        if line is not None:
            place: Place | None = self._session.place(line)
        elif self._may_hold(id):
            place = self._ask(lambda index: index.reply_place(id))
        else:
            place = None
        if place is None:
            return None
        data = self._read_bytes(place, id)
        try:
            keys = KEYS_DECODER.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise self._distrust(place, id, "an unreadable line") from None
        if keys.id != id or not len(keys.reply):
            raise self._distrust(place, id, "another request's line")
        return bytes(keys.reply)

    def pending(self, id: str) -> PendingAttack | Settled | None:
        """The open two-step attack ``id``, the ``allocate`` that settled it, or None if there is none."""
        by = self._session.settled_by(id)
        if by is not None:
            return Settled(by)
        line = self._session.line(id)
        if line is not None:
            if not line.pending:
                return None
            place = self._session.place(line)
        else:
            if not self._may_hold(id):  # a pending attack's id is a reply's id too
                return None
            found = self._ask(lambda index: index.pending_place(id))
            if found is None or isinstance(found, Settled):
                return found
            place = found
        data = self._read_bytes(place, id)
        try:
            entry = _entry_decoder.decode(data)
        except (msgspec.DecodeError, RecursionError):
            raise self._distrust(place, id, "an unreadable line") from None
        if entry.id != id:
            raise self._distrust(place, id, "another request's line")
        return PendingAttack(entry.id, entry.request, entry.seed, entry.dice, when(entry.at))

    def undone_by(self, id: str) -> str | None:
        """The id of the ``undo`` that took request ``id`` back, if one did."""
        by = self._session.undone_by(id)
        if by is not None:
            return by
        if not self._may_hold(id):  # only a request the ledger holds can have been undone
            return None
        return self._ask(lambda index: index.undone_by(id))

    def remembered(self) -> int:
        """How many replies the journals hold (for the start-up log line)."""
        if self.degraded:
            return self._index.replies() + self._session.held()
        if self._sqlite is None:
            return 0
        return self._sqlite.replies() + len(self._session.unflushed)

    def _may_hold(self, id: str) -> bool:
        return id in self._session.ids or self._ids.may_hold(id)

    def _ask(self, question: Callable[[Index], T]) -> T:
        """``question`` put to the current index; a broken SQLite index is given up for the run, and
        the request refused as retryable."""
        try:
            return question(self._index)
        except IndexBroken as error:
            self._degrade(f"{error}")
            raise LedgerUnavailable("the ledger index failed; send the request again") from None

    def _read_bytes(self, place: Place, id: str) -> bytes:
        try:
            return read_at(self.directory / place.name, place.offset, place.length)
        except OSError as error:
            self._warn(f"{place.name}: cannot be read ({error.strerror or error}); {id!r} refused for now")
            raise LedgerUnavailable(
                f"the journal holding {id!r} cannot be read just now; send it again"
            ) from None
