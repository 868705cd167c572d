"""Reading a journal back: a session file's header and records, streamed or whole.

Every reader stops at the first zero byte and skips a last stretch with no newline yet
(``bridge.store.files.LineReader``), and skips an unreadable line with the same words
(``bridge.store.lines.read_line``): nothing a crash or a running writer leaves is fatal here.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from bridge.store.files import LineReader, open_for_reading
from bridge.store.lines import (
    FORMAT_VERSION,
    LINE_DECODER,
    Entry,
    Header,
    TableLine,
    UndoLine,
    read_line,
    too_long,
)

__all__ = ["SessionLog", "SessionReader", "read_session"]


@dataclass
class SessionLog:
    """A session file as read back: its header, its entries and what was wrong with it."""

    path: Path
    header: Header | None
    #: Entries and undo lines, in the order they were written (``volley show``). Timestamps cannot
    #: order them: two lines written within the same millisecond share one.
    records: list[Entry | TableLine] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    @property
    def name(self) -> str:
        return self.path.stem

    @property
    def entries(self) -> list[Entry]:
        """The resolved requests (what replay re-resolves; it never sees the undo lines)."""
        return [record for record in self.records if isinstance(record, Entry)]

    @property
    def undos(self) -> list[UndoLine]:
        return [record for record in self.records if isinstance(record, UndoLine)]


class SessionReader:
    """A journal read one line at a time: its header first, then its records as they are iterated.

    Memory stays flat in the file's size (``bridge.store.files.LineReader``): ``volley show`` prints
    each record as it comes. Problems (unreadable lines, a file that cannot be opened) gather in
    ``problems``; a last line without its newline (a live or killed session) is skipped silently.
    """

    def __init__(self, path: Path) -> None:
        self.path = path
        self.header: Header | None = None
        self.problems: list[str] = []
        self._lines: Iterator[tuple[int, int, bytes | None]] | None = None
        self._first: Entry | TableLine | None = None
        self._handle = None
        try:
            self._handle = open_for_reading(path)
        except OSError as error:
            self.problems.append(f"{path.name}: cannot be read ({error.strerror or error})")
            return
        self._lines = iter(LineReader(self._handle))
        for record in self._records():
            if isinstance(record, Header):
                if record.format > FORMAT_VERSION:
                    self.problems.append(
                        f"{path.name}: format {record.format} is newer than {FORMAT_VERSION}"
                    )
                    self.close()
                    return
                self.header = record
            else:
                self._first = record
            break

    @property
    def name(self) -> str:
        return self.path.stem

    def empty(self) -> bool:
        """Whether the file holds no record at all after its header (reads ahead at most one)."""
        if self._first is None:
            for record in self:
                self._first = record
                break
        return self._first is None

    def _records(self) -> Iterator[Header | Entry | TableLine]:
        if self._lines is None:
            return
        name = self.path.name
        try:
            for number, _, line in self._lines:
                if line is None:
                    self.problems.append(too_long(f"{name}:{number}"))
                    continue
                if not line.strip():
                    continue
                record = read_line(LINE_DECODER, line, f"{name}:{number}", self.problems.append)
                if record is not None:
                    yield record
        except OSError as error:
            self.problems.append(f"{name}: reading stopped ({error.strerror or error})")

    def __iter__(self) -> Iterator[Entry | TableLine]:
        """The entries and undo lines, in the order they were written (a later header is a problem)."""
        if self._first is not None:
            first, self._first = self._first, None
            yield first
        for record in self._records():
            if isinstance(record, Header):
                self.problems.append(f"{self.path.name}: a second session header skipped")
                continue
            yield record
        self.close()

    def close(self) -> None:
        if self._handle is not None:
            self._handle.close()
            self._handle = None
        self._lines = None


def read_session(path: Path) -> SessionLog:
    """Read a journal without changing it; an unreadable line (``read_line``), or a whole file that
    cannot be opened, is reported and skipped, never fatal. (It holds every record: readers that need
    memory flat in the file's size iterate a ``SessionReader`` instead.)"""
    reader = SessionReader(path)
    records = list(reader)
    return SessionLog(path=path, header=reader.header, records=records, problems=reader.problems)
