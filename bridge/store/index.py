"""What every index of the journals shares: the interface the ledger's checked lookups go through, the
row a journal line makes, and the scan that finds a journal's answerable lines.

An index only says *where* an id's line is (``Place``); the ledger (``bridge.store.ledger``) reads the
line back and checks it is the id's own before it believes it. Three indexes answer that question:
the running session's lines in memory (``bridge.store.write_behind``), the SQLite file
(``bridge.store.sqlite_index``, brought up to date at start by ``bridge.store.catch_up``), and, for a
run that cannot use SQLite, every journal indexed in memory (``bridge.store.memory_index``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any, NamedTuple, Protocol

import msgspec

from bridge.store.files import LineReader, open_for_reading
from bridge.store.lines import Entry, UndoLine, read_line, too_long

__all__ = [
    "KEYS_DECODER",
    "SCAN_BATCH",
    "Index",
    "IndexBroken",
    "IndexedLine",
    "LedgerUnavailable",
    "LineKeys",
    "Place",
    "Settled",
    "Warn",
    "answerable",
    "indexed_line",
    "indexed_object",
    "when",
]

#: Lines indexed per batch when a journal is scanned.
SCAN_BATCH = 4096

Warn = Callable[[str], None]


class LedgerUnavailable(Exception):
    """Whether ``id`` was answered cannot be told just now (a journal could not be read, the index is
    being rebuilt): refuse the request with a retryable code. Never a reason to resolve it again."""


class IndexBroken(Exception):
    """The index itself failed (SQLite locked, read-only, corrupt, a full disk): the run gives it up."""


@dataclass(frozen=True)
class Settled:
    """A two-step attack that an ``allocate`` already settled."""

    by: str


class Place(NamedTuple):
    """A line in a journal, by file name."""

    name: str
    offset: int
    length: int


class IndexedLine(NamedTuple):
    """One answerable journal line, as an index keeps it."""

    id: str
    offset: int
    length: int
    #: the first step of a two-step attack (``outcome == "pending"``)
    pending: bool
    #: when a pending attack was rolled (Unix time), for its expiry; None for every other line
    at: float | None
    #: the pending attack an ``allocate`` (or a cancel) settles
    settles: str | None
    #: the request an ``undo`` line took back
    undoes: str | None


class Index(Protocol):
    """Where an id's line is, as one index knows it; never whether the line really is the id's own
    (the ledger checks that). Raises ``IndexBroken`` when the index cannot be asked, and
    ``LedgerUnavailable`` when it cannot answer just now."""

    def reply_place(self, id: str) -> Place | None:
        """The line that answered ``id`` (the first one written), or None."""
        ...

    def pending_place(self, id: str) -> Place | Settled | None:
        """The pending attack ``id``'s line, the ``allocate`` that settled it, or None."""
        ...

    def undone_by(self, id: str) -> str | None:
        """The id of the ``undo`` that took request ``id`` back, if one did."""
        ...

    def replies(self) -> int:
        """How many ids it answers."""
        ...


class LineKeys(msgspec.Struct):
    """What an index needs of any journal line; every other field is skipped unread."""

    kind: str = ""
    id: Any = None
    reply: msgspec.Raw = msgspec.field(default_factory=msgspec.Raw)
    outcome: Any = None
    pending_id: Any = None
    target_id: Any = None
    at: Any = None


KEYS_DECODER = msgspec.json.Decoder(LineKeys)


def when(at: Any) -> float | None:
    """A line's ``at`` as Unix time, or None if it is not one."""
    if not isinstance(at, str):
        return None
    try:
        return datetime.fromisoformat(at.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def indexed_line(line: LineKeys, offset: int, length: int) -> IndexedLine | None:
    """The index row a journal line makes, or None when it answers nothing."""
    if not isinstance(line.id, str) or not len(line.reply):
        return None
    settles = line.pending_id if isinstance(line.pending_id, str) else None
    undoes = line.target_id if line.kind == "undo" and isinstance(line.target_id, str) else None
    pending = line.outcome == "pending"
    # Only a pending attack's time is kept (for its expiry): parsing every line's would cost each
    # attack a few microseconds for nothing.
    return IndexedLine(line.id, offset, length, pending, when(line.at) if pending else None, settles, undoes)


def indexed_object(line: Any, offset: int, length: int) -> IndexedLine | None:
    """The index row of a line object the journal just wrote (no JSON is read back)."""
    kind = type(line)
    if kind is Entry:
        pending = line.outcome == "pending"
        at = when(line.at) if pending else None
        return IndexedLine(line.id, offset, length, pending, at, line.pending_id, None)
    if kind is UndoLine:
        return IndexedLine(line.id, offset, length, False, None, None, line.target_id)
    reply = getattr(line, "reply", None)
    config = getattr(kind, "__struct_config__", None)  # a tagged Struct: its tag is its kind
    tag = config.tag if config is not None and config.tag_field == "kind" else getattr(line, "kind", "")
    seen = LineKeys(
        kind=str(tag),
        id=getattr(line, "id", None),
        reply=reply if isinstance(reply, msgspec.Raw) else msgspec.Raw(),
        outcome=getattr(line, "outcome", None),
        pending_id=getattr(line, "pending_id", None),
        target_id=getattr(line, "target_id", None),
        at=getattr(line, "at", None),
    )
    return indexed_line(seen, offset, length)


def answerable(
    path: Path, start: int, number: int, warn: Warn
) -> Iterator[tuple[list[IndexedLine], int, int]]:
    """The answerable lines of ``path`` from ``start`` on, in batches: ``(lines, end, last)`` where
    ``end`` is the offset past the batch and ``last`` the number of the last line read. A last line
    without its newline is not whole and is left for later."""
    with open_for_reading(path) as handle:
        reader = LineReader(handle, start=start, number=number)
        found: list[IndexedLine] = []
        seen = 0
        last = number - 1
        for last, offset, line in reader:
            if line is None:
                warn(too_long(f"{path.name}:{last}"))
            elif line.strip():
                decoded = read_line(KEYS_DECODER, line, f"{path.name}:{last}", warn)
                item = indexed_line(decoded, offset, reader.position - offset) if decoded else None
                if item is not None:
                    found.append(item)
            seen += 1
            if seen >= SCAN_BATCH:
                yield found, reader.position, last
                found, seen = [], 0
        if seen:
            yield found, reader.position, last
