"""The durable core of the bridge: the journals (the record), the ledger (a cache of where things are
in them), the id filter, start-up repair, the directory lock and reading sessions back.

What it promises, and how each promise is kept:

* **What is durable when a reply leaves.** A reply to ``attack``, ``action``, ``allocate`` or ``undo``
  leaves only after its journal line (request, seed or dice, and the reply bytes themselves) has been
  written and synced (``journal.Journal``; lines arriving together share one sync, an ``fdatasync``
  of lines written over zeros the journal laid ahead, or an ``fsync`` when it lays more). Nothing else
  stands between the fsync and the reply: the index hears of the line afterwards, and an index that
  cannot be written costs the run its SQLite cache (one log line; the journals are indexed in memory
  instead), never a reply, a hang, or an ``internal`` error for a line that is on disk.
* **What a retry returns.** A request id found in any journal gets that journal's reply bytes, always
  the *first* line written for the id. The ledger (``ledger.Ledger``) is only a cache: every line it
  points at is read back and checked to be the id's own. If it is not, or the line cannot be read just
  now, or the cache is being rebuilt, the request is refused with the retryable ``journal_unreadable``
  code; a known id is never resolved again.
* **What a crash can leave, and how start repairs it.** A crash (even SIGKILL or a power loss) can
  damage only the end of a journal: a last line torn (no newline), the zeros the journal lays ahead
  of its lines, and, after a power loss, part of an unsynced later write among those zeros. The
  record ends at the first zero byte (no journal line holds one: JSON escapes it), and nothing past
  it was ever acknowledged; the next start cuts from the start of the line holding it, whatever
  follows, with a warning (``repair.inspect``). Every reader, live or not, stops at the first zero
  byte, skips a last stretch with no newline, and never joins bytes read before a zero to bytes after
  it (``files.LineReader``). A clean close leaves no zeros.
* **A journal that cannot be repaired is still the record.** If its tail cannot be cut (read-only,
  immutable), it is read as every reader reads it, up to its first zero, and its ids are answered;
  if it cannot be read at all, the ids the index holds for it are refused with the retryable
  ``journal_unreadable`` until it can. Either way ``serve`` names the file and the reason, and no id
  of it is resolved again.
  The SQLite index may be behind, ahead, edited, locked, read-only or corrupt: at start it is checked
  against the journals (row counts, furthest offsets, header lines), brought up to date, rebuilt, or
  bypassed for an index in memory; ``volley serve`` starts in every case.
* **Only regular files are opened.** A FIFO, socket or device named like a journal is never opened for
  a blocking read: it is reported and skipped by ``serve``, ``sessions``, ``show``, ``replay`` and
  ``report`` (``files``). Readers stream: memory stays flat in a journal's size.
* **One server per directory** (``lock.DirectoryLock``), so no two processes answer the same ids:
  the lock is held on the ``sessions`` directory itself as well as on ``sessions/.lock`` (where the
  pid is written), so deleting, replacing or re-creating ``.lock`` while a server runs never lets a
  second one start.
"""

from __future__ import annotations

from bridge.store.files import NotRegularFile, odd_files, open_for_reading, session_files
from bridge.store.journal import Journal, JournalError
from bridge.store.journal_file import discard_session
from bridge.store.lines import FORMAT_VERSION, Entry, Header, UndoLine, line_time
from bridge.store.lock import DirectoryBusy, DirectoryLock
from bridge.store.reader import SessionLog, SessionReader, read_session

__all__ = [
    "FORMAT_VERSION",
    "DirectoryBusy",
    "DirectoryLock",
    "Entry",
    "Header",
    "Journal",
    "JournalError",
    "NotRegularFile",
    "SessionLog",
    "SessionReader",
    "UndoLine",
    "discard_session",
    "line_time",
    "odd_files",
    "open_for_reading",
    "read_session",
    "session_files",
]
