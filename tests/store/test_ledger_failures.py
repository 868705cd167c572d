"""The reply depends on the journal's fsync and nothing else: a ledger that is locked, unwritable,
read-only or broken costs the run its SQLite cache (one log line), never a reply, a hang, a refusal
of new work or an ``internal`` error for a line on disk; and ``volley serve`` still starts and stops.
"""

from __future__ import annotations

import asyncio
import json
import logging
import signal
import sqlite3
from pathlib import Path

import pytest
from storekit import first_session, ids, running

from bridge.store import write_behind
from bridge.store.journal import Journal, JournalError, Written
from bridge.store.ledger import INDEX_NAME
from bridge.store.lines import Entry, line_time
from bridge.store.sqlite_index import SqliteIndex
from devkit.serve import serve_process


def hold_exclusive(data: Path) -> sqlite3.Connection:
    """Another process's view: a connection holding ``BEGIN EXCLUSIVE`` on the index."""
    db = sqlite3.connect(data / "sessions" / INDEX_NAME, isolation_level=None, timeout=0)
    db.execute("BEGIN EXCLUSIVE")
    return db


def results(frames: list[str]) -> list[str]:
    return [json.loads(frame)["type"] for frame in frames]


@pytest.mark.asyncio
async def test_a_ledger_locked_mid_run_answers_every_attack(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(write_behind, "FLUSH_EVERY", 4)
    earlier = await first_session(tmp_path, 5)
    caplog.set_level(logging.WARNING, "volley.bridge")
    async with running(tmp_path) as client:
        await client.attack("warm")
        holder = hold_exclusive(tmp_path)
        try:
            frames = await client.attack_many([f"x{k}" for k in range(300)])
            assert set(results(list(frames.values()))) == {"result"}
            for k in (0, 150, 299):  # retries of this run's lines: the same bytes
                assert await client.attack_until_answered(f"x{k}") == frames[f"x{k}"]
            for id, frame in earlier.items():  # and of the earlier run's
                assert await client.attack_until_answered(id) == frame
        finally:
            holder.close()
    said = [record.getMessage() for record in caplog.records if "cannot be used" in record.getMessage()]
    assert len(said) == 1, said
    assert sorted(ids(tmp_path)) == sorted([*earlier, "warm", *(f"x{k}" for k in range(300))])


@pytest.mark.asyncio
async def test_a_full_disk_for_the_index_never_answers_internal_for_a_durable_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The single-line (inline) path: the index write fails right after the fsync."""
    monkeypatch.setattr(write_behind, "FLUSH_EVERY", 1)

    def full(*args: object) -> int:
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(SqliteIndex, "store", full)
    async with running(tmp_path) as client:
        first = await client.attack("f0")
        assert json.loads(first)["type"] == "result"
        assert await client.attack("f0") == first
        assert json.loads(await client.attack("f1"))["type"] == "result"
    assert ids(tmp_path) == ["f0", "f1"]


@pytest.mark.asyncio
async def test_an_index_hook_that_raises_never_keeps_a_reply(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path, _header())

    def broken(lines: list[Written]) -> None:
        raise RuntimeError("index broke")

    journal.on_written = broken
    told: list[JournalError | None] = []
    journal.append_then(_entry("e1"), told.append, alone=True)
    # A deadline only to turn a hang (what a raising hook caused: the journal never idle again) into
    # a failure; on any machine the writes take milliseconds.
    await asyncio.wait_for(asyncio.gather(*(journal.append(_entry(f"e{k}")) for k in range(2, 6))), 120)
    await asyncio.wait_for(journal.close(), 120)
    assert told == [None]
    assert journal._idle.is_set()


def _header():  # type: ignore[no-untyped-def]
    from bridge.store.lines import FORMAT_VERSION, Header

    return Header(
        format=FORMAT_VERSION,
        session="20260101T000000.000000Z-cccccc",
        started="x",
        rules_version="0",
        bridge_version="0",
    )


def _entry(id: str) -> Entry:
    import msgspec

    reply = msgspec.Raw(json.dumps({"type": "result", "id": id}).encode())
    return Entry(id=id, type="attack", at=line_time(), outcome="result", request={}, seed=1, reply=reply)


@pytest.mark.asyncio
@pytest.mark.parametrize("how", ["locked", "a directory", "corrupt"])
async def test_serve_starts_whatever_the_ledger_is(tmp_path: Path, how: str) -> None:
    earlier = await first_session(tmp_path, 3)
    index = tmp_path / "sessions" / INDEX_NAME
    holder = None
    if how == "locked":
        holder = hold_exclusive(tmp_path)
    elif how == "a directory":  # neither opened nor removed (as an immutable file would be)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{index}{suffix}").unlink(missing_ok=True)
        index.mkdir()
        (index / "keep").write_text("x")
    else:
        index.write_bytes(b"not a database at all" * 100)
    try:
        async with running(tmp_path) as client:
            for id, frame in earlier.items():
                assert await client.attack_until_answered(id) == frame
            assert json.loads(await client.attack("new"))["type"] == "result"
    finally:
        if holder is not None:
            holder.close()
    assert sorted(ids(tmp_path)) == sorted([*earlier, "new"])


def test_a_locked_ledger_neither_stops_serve_nor_sigterm(tmp_path: Path) -> None:
    """The process: starts with the index locked by another process, and SIGTERM stops it (exit 0)
    with nothing left behind (a run that resolved nothing removes its header-only session)."""
    data = tmp_path / "data"
    (data / "sessions").mkdir(parents=True)
    sqlite3.connect(data / "sessions" / INDEX_NAME).close()
    holder = hold_exclusive(data)
    try:
        server = serve_process(tmp_path)
        code, err = server.stop(signal.SIGTERM)
    finally:
        holder.close()
    assert code == 0, err
    assert "cannot be used" in err
    assert list((data / "sessions").glob("*.jsonl")) == []
