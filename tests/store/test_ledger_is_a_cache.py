"""The journals are the record, the ledger only a cache: no ledger problem ever rolls a known id again.

Each test breaks the index the way issue #18 found it broken (rows moved past the journal's end, rows
deleted, two same-sized lines swapped, a read error, a later line for an id already answered) and
checks that every retry gets its journaled bytes and that no id is ever journaled twice.
"""

from __future__ import annotations

import errno
import json
import sqlite3
from collections import Counter
from pathlib import Path

import msgspec
import pytest
from storekit import first_session, ids, running

import bridge.store.ledger as ledger_module
from bridge.store.ledger import INDEX_NAME, Ledger, LedgerUnavailable
from bridge.store.lines import FORMAT_VERSION, Header

COUNT = 40


def index(data: Path) -> sqlite3.Connection:
    return sqlite3.connect(data / "sessions" / INDEX_NAME)


async def retries_get_the_journaled_bytes(data: Path, replies: dict[str, str]) -> None:
    async with running(data) as client:
        for id, frame in replies.items():
            assert await client.attack_until_answered(id) == frame, id
    counts = Counter(ids(data))
    assert [id for id, n in counts.items() if n > 1] == [], "an id was journaled twice"


@pytest.mark.asyncio
async def test_rows_moved_past_the_journals_end_never_roll_again(tmp_path: Path) -> None:
    replies = await first_session(tmp_path, COUNT)
    with index(tmp_path) as db:
        db.execute("UPDATE replies SET offset = offset + 1000000")
    await retries_get_the_journaled_bytes(tmp_path, replies)


@pytest.mark.asyncio
async def test_deleted_rows_never_roll_again(tmp_path: Path) -> None:
    replies = await first_session(tmp_path, COUNT)
    with index(tmp_path) as db:
        db.execute("DELETE FROM replies")
    await retries_get_the_journaled_bytes(tmp_path, replies)


@pytest.mark.asyncio
async def test_an_index_behind_the_files_is_not_trusted(tmp_path: Path) -> None:
    """``files.indexed_to`` pointing into the middle of a line: the journal is indexed again."""
    replies = await first_session(tmp_path, COUNT)
    with index(tmp_path) as db:
        db.execute("DELETE FROM replies WHERE id IN ('a30', 'a31', 'a32')")
        db.execute("UPDATE files SET indexed_to = indexed_to - 7, replies = replies - 3")
    await retries_get_the_journaled_bytes(tmp_path, replies)


@pytest.mark.asyncio
async def test_two_same_sized_lines_swapped_never_roll_again(tmp_path: Path) -> None:
    """The index still points at the old offsets; the line there is another id's. The retry is
    refused (retryable) while the journals are indexed again, then gets its own bytes."""
    replies = await first_session(tmp_path, COUNT)
    (journal,) = (tmp_path / "sessions").glob("*.jsonl")
    raw = journal.read_bytes().split(b"\n")
    by_length: dict[int, list[int]] = {}
    for number, line in enumerate(raw[1:-1], start=1):
        by_length.setdefault(len(line), []).append(number)
    pair = next(numbers for numbers in by_length.values() if len(numbers) >= 2)
    first, second = pair[0], pair[1]
    raw[first], raw[second] = raw[second], raw[first]
    journal.write_bytes(b"\n".join(raw))
    await retries_get_the_journaled_bytes(tmp_path, replies)


@pytest.mark.asyncio
async def test_a_read_error_refuses_the_retry_and_never_rolls_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """EMFILE/EIO reading the journal back (even the live session's): ``journal_unreadable``."""
    failing = True
    real = ledger_module.read_at

    def read_at(path: Path, offset: int, length: int) -> bytes:
        if failing:
            raise OSError(errno.EMFILE, "Too many open files")
        return real(path, offset, length)

    monkeypatch.setattr(ledger_module, "read_at", read_at)
    async with running(tmp_path) as client:
        frame = await client.attack("live-1")
        refused = json.loads(await client.attack("live-1"))
        assert refused["type"] == "error" and refused["code"] == "journal_unreadable"
        failing = False
        assert await client.attack("live-1") == frame
    assert ids(tmp_path) == ["live-1"]


def test_a_later_line_for_an_answered_id_never_takes_its_place(tmp_path: Path) -> None:
    """Two journals holding the same id (an older Volley re-rolled it): the first line wins, in a
    fresh index, in one caught up file by file, and in the index in memory."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()

    def journal(name: str, reply: str) -> None:
        header = Header(
            format=FORMAT_VERSION, session=name, started="x", rules_version="0", bridge_version="0"
        )
        line = {"kind": "resolved", "id": "dup", "type": "attack", "at": "x", "outcome": "result"}
        line |= {"request": {}, "seed": 1, "reply": {"type": "result", "id": "dup", "n": reply}}
        head = msgspec.json.encode(header) + b"\n"
        (sessions / f"{name}.jsonl").write_bytes(head + json.dumps(line).encode() + b"\n")

    journal("20260101T000000.000000Z-aaaaaa", "first")
    ledger = Ledger.open(sessions, print)
    assert ledger.reply("dup") == b'{"type": "result", "id": "dup", "n": "first"}'
    ledger.close()
    journal("20260102T000000.000000Z-bbbbbb", "second")  # caught up at the next start
    ledger = Ledger.open(sessions, print)
    assert ledger.reply("dup") == b'{"type": "result", "id": "dup", "n": "first"}'
    ledger.close()
    (sessions / INDEX_NAME).unlink()  # rebuilt from scratch
    ledger = Ledger.open(sessions, print)
    assert ledger.reply("dup") == b'{"type": "result", "id": "dup", "n": "first"}'
    ledger.close()
    with sqlite3.connect(sessions / INDEX_NAME) as db:  # the first file indexed again, after the second
        db.execute("UPDATE files SET live = 0 WHERE name LIKE '20260101%'")
    ledger = Ledger.open(sessions, print)
    assert ledger.reply("dup") == b'{"type": "result", "id": "dup", "n": "first"}'
    ledger._degrade("test", now=True)  # the index in memory keeps the same rule
    assert ledger.reply("dup") == b'{"type": "result", "id": "dup", "n": "first"}'
    ledger.close()


def test_a_mismatched_line_is_refused_not_treated_as_new(tmp_path: Path) -> None:
    """Without a running loop the rebuild is immediate: the next look-up finds the right line."""
    sessions = tmp_path / "sessions"
    sessions.mkdir()
    header = Header(format=FORMAT_VERSION, session="s", started="x", rules_version="0", bridge_version="0")
    body = b"".join(
        json.dumps(
            {"kind": "resolved", "id": f"r{k}", "type": "attack", "at": "x", "outcome": "result"}
            | {"request": {}, "seed": 1, "reply": {"id": f"r{k}"}}
        ).encode()
        + b"\n"
        for k in range(2)
    )
    path = sessions / "20260101T000000.000000Z-aaaaaa.jsonl"
    path.write_bytes(msgspec.json.encode(header) + b"\n" + body)
    Ledger.open(sessions, print).close()
    head, first, second, _ = path.read_bytes().split(b"\n")
    path.write_bytes(b"\n".join([head, second, first, b""]))
    ledger = Ledger.open(sessions, print)
    with pytest.raises(LedgerUnavailable):
        ledger.reply("r0")
    assert ledger.degraded
    assert ledger.reply("r0") == b'{"id": "r0"}' and ledger.reply("r1") == b'{"id": "r1"}'
    ledger.close()
    ledger = Ledger.open(sessions, print)  # the next start indexed the journal again
    assert not ledger.degraded
    assert ledger.reply("r0") == b'{"id": "r0"}' and ledger.reply("r1") == b'{"id": "r1"}'
    ledger.close()


@pytest.mark.asyncio
async def test_a_journal_unreadable_at_start_refuses_its_ids_and_never_rolls_them(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 33, item 3: a journal that cannot be read at the next start (permissions, a failing disk)
    had its index rows retired, and its ids were rolled again on retry. The index's rows stay: the ids
    are refused with the retryable ``journal_unreadable`` until the file can be read, then answered."""
    import os

    replies = await first_session(tmp_path, 3)
    (journal,) = (tmp_path / "sessions").glob("*.jsonl")
    with journal.open("ab") as handle:
        handle.write(bytes(1000))  # killed: the next start must look at the file again
    failing = True
    real_open = os.open

    def guarded_open(file: object, flags: int, *args: object, **kwargs: object) -> int:
        if failing and isinstance(file, (str, Path)) and Path(file) == journal:
            raise PermissionError(errno.EACCES, "Permission denied", str(file))
        return real_open(file, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", guarded_open)
    async with running(tmp_path) as client:
        for id in replies:
            refused = json.loads(await client.attack(id))
            assert (refused["type"], refused.get("code")) == ("error", "journal_unreadable"), refused
        failing = False
        for id, frame in replies.items():
            assert await client.attack(id) == frame
    assert sorted(ids(tmp_path)) == sorted(replies)
