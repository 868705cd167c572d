"""The zeros a journal lays ahead of its lines are the end of the record, for every reader.

A running journal writes its lines over zeros it laid ahead (``bridge.store.journal_file``), and a killed
one leaves them. A reader reads a chunk at a time; a chunk that ended in zeros still unwritten, followed
by a chunk read after new lines covered them, once made one line of both ("unreadable line ... (byte
0)", 2-3% of live reads, and ``volley show`` exited 1). Every reader now stops at the first zero byte.
"""

from __future__ import annotations

import json
from pathlib import Path

import msgspec
import pytest

from bridge.store import files
from bridge.store.files import LineReader
from bridge.store.journal import Journal
from bridge.store.lines import FORMAT_VERSION, Entry, Header
from bridge.store.reader import SessionReader

HEADER = Header(
    format=FORMAT_VERSION,
    session="20261129T200000.000000Z-abcdef",
    started="2026-11-29T20:00:00Z",
    rules_version="0.1.0",
    bridge_version="0.1.0",
)

#: A chunk this small puts chunk boundaries a few lines apart (the real one is a megabyte).
SMALL_CHUNK = 4096


def entry(id: str) -> Entry:
    return Entry(
        id=id,
        type="attack",
        at="2026-11-29T20:00:01.000Z",
        outcome="result",
        request={"system": "gurps"},
        seed=7,
        reply=msgspec.Raw(json.dumps({"type": "result", "id": id, "pad": "x" * 200}).encode()),
    )


@pytest.mark.asyncio
async def test_a_reader_racing_the_writer_never_joins_unwritten_zeros_to_new_lines(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(files, "CHUNK", SMALL_CHUNK)
    journal = Journal.create(tmp_path, HEADER)
    try:
        await journal.append(entry("r0"))
        await journal.append(entry("r1"))
        reader = SessionReader(journal.path)  # reads its first chunk: the header, r0, r1, then zeros
        records = iter(reader)
        assert next(records).id == "r0"
        # The writer goes on past the end of the chunk the reader holds (and of the next one).
        for k in range(2, 40):
            await journal.append(entry(f"r{k}"))
        later = [record.id for record in records]
        assert reader.problems == [], reader.problems  # it was "unreadable line skipped (... byte 0)"
        assert later == ["r1"]  # what was whole when it was read; the rest is for the next read
        assert [record.id for record in SessionReader(journal.path)] == [f"r{k}" for k in range(40)]
    finally:
        await journal.close()


def test_reading_stops_at_the_first_zero_whatever_follows(tmp_path: Path) -> None:
    """Zeros, then a line's end, then more zeros (a power loss can leave that): nothing past the
    first zero is a line, and the bytes before it on its line are the unterminated stretch."""
    path = tmp_path / "s.jsonl"
    path.write_bytes(b"a\nbc" + b"\0" * 10 + b'd"}\n' + b"\0" * 10)
    with open(path, "rb") as handle:
        reader = LineReader(handle)
        assert list(reader) == [(1, 0, b"a")]
        assert (reader.zeros, reader.unterminated, reader.position) == (4, 2, 2)


RECORDED = Path(__file__).resolve().parents[1] / "replays" / "megatraveller.jsonl"


@pytest.mark.parametrize("workers", [1, 2])
def test_replay_ends_at_the_zeros_even_when_whole_lines_follow_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    """A hole of zeros, then whole lines (unrepaired: a read-only copy of a killed journal). Replay
    cuts the file into pieces for its workers; no piece past the zeros is counted."""
    from bridge.cli import replay

    lines = RECORDED.read_bytes().splitlines(keepends=True)
    path = tmp_path / "holed.jsonl"
    path.write_bytes(b"".join(lines[:4]) + b"\0" * 300 + b"".join(lines[4:]))
    monkeypatch.setattr(replay, "PIECE_BYTES", 256)  # a piece or two per line
    monkeypatch.setattr(replay, "PARALLEL_FROM", 0)
    report = replay.replay_session(path, workers=workers)
    assert (report.total, report.matched, report.problems) == (3, 3, [])


def write_journal(path: Path, *entries: Entry) -> bytes:
    data = msgspec.json.encode(HEADER) + b"\n" + b"".join(msgspec.json.encode(e) + b"\n" for e in entries)
    path.write_bytes(data)
    return data


def repaired(path: Path) -> str | None:
    from bridge.store.repair import FileKind, inspect

    inspection = inspect(path)
    assert inspection.kind is FileKind.JOURNAL
    return inspection.note


def test_repair_cuts_from_the_first_zero_even_when_a_line_end_follows_the_zeros(tmp_path: Path) -> None:
    """Zeros, a newline-ended fragment, zeros: what a power loss leaves when a batch written over the
    zeros persisted its later page only. It was cut after the fragment's newline, leaving the zeros
    mid-file for good."""
    path = tmp_path / "s.jsonl"
    whole = write_journal(path, entry("r1"), entry("r2"))
    fragment = msgspec.json.encode(entry("r4"))[-60:] + b"\n"
    path.write_bytes(whole + bytes(5000) + fragment + bytes(3000))
    note = repaired(path)
    assert path.read_bytes() == whole
    assert note is not None and f"cut {5000 + len(fragment) + 3000:,} bytes past its last whole line" in note
    assert "part of a later write a crash left among them" in note
    assert repaired(path) is None


def test_repair_cuts_a_torn_line_and_what_follows_its_zeros_when_the_file_ends_in_a_newline(
    tmp_path: Path,
) -> None:
    path = tmp_path / "s.jsonl"
    whole = write_journal(path, entry("r1"))
    torn = msgspec.json.encode(entry("r2"))[:50]
    later = msgspec.json.encode(entry("r3")) + b"\n"  # a whole line, but past a hole: never synced
    path.write_bytes(whole + torn + bytes(700) + later)
    note = repaired(path)
    assert path.read_bytes() == whole
    assert note is not None and "cut a torn last line (line 3, 50 bytes)" in note


def test_repair_finishes_a_whole_record_before_the_zeros_whatever_follows_them(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    whole = write_journal(path, entry("r1"))
    last = msgspec.json.encode(entry("r2"))
    path.write_bytes(whole + last + bytes(100) + b'"x"}\n' + bytes(100))
    repaired(path)
    assert path.read_bytes() == whole + last + b"\n"


@pytest.mark.asyncio
async def test_a_killed_server_s_empty_session_is_removed_at_the_next_start(tmp_path: Path) -> None:
    """Issue 33: a server killed before it resolved anything left its header and zeros, and
    ``volley sessions`` listed the session with 0 requests for ever."""
    from storekit import running

    from bridge.cli.sessions import list_sessions

    sessions = tmp_path / "sessions"
    sessions.mkdir()
    killed = sessions / "20261129T200000.000000Z-killed.jsonl"
    killed.write_bytes(msgspec.json.encode(HEADER) + b"\n" + bytes(1 << 20))
    async with running(tmp_path) as client:
        await client.attack("after")
    assert not killed.exists()
    assert [summary.requests for summary in list_sessions(sessions)] == [1]
