"""The journal on disk: header, torn-line repair, group commit, failures, the ledger's index of it, and
the access token file."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import msgspec
import pytest
from bridgekit import BUDGET_S, HEADER

from bridge.paths import config_dir, data_dir
from bridge.server.access import load_or_create_token, token_matches
from bridge.store.journal import Journal, JournalError
from bridge.store.journal_file import ZERO_TAIL_BYTES, discard_session
from bridge.store.ledger import INDEX_NAME, Ledger, PendingAttack, Settled
from bridge.store.lines import FORMAT_VERSION, Entry
from bridge.store.reader import read_session
from bridge.store.repair import FileKind, inspect


def entry(id: str, **changes: object) -> Entry:
    fields: dict[str, object] = {
        "id": id,
        "type": "attack",
        "at": "2026-11-29T20:00:01.000Z",
        "outcome": "result",
        "request": {"system": "gurps"},
        "seed": 7,
        "reply": msgspec.Raw(json.dumps({"type": "result", "id": id}).encode()),
    }
    fields.update(changes)
    return Entry(**fields)  # type: ignore[arg-type]


@pytest.mark.asyncio
async def test_a_session_file_is_a_header_then_one_line_per_request(tmp_path: Path) -> None:
    journal = Journal.create(tmp_path, HEADER)
    await journal.append(entry("r1"))
    await journal.append(entry("r2", seed=None, dice=[1, 2, 3]))
    await journal.close()
    lines = [json.loads(line) for line in journal.path.read_text().splitlines()]
    assert lines[0]["kind"] == "header" and lines[0]["format"] == FORMAT_VERSION
    assert [line["id"] for line in lines[1:]] == ["r1", "r2"]
    assert lines[2]["dice"] == [1, 2, 3] and lines[2]["seed"] is None
    assert stat.S_IMODE(journal.path.stat().st_mode) == 0o600
    log = read_session(journal.path)
    assert log.header == HEADER and [e.id for e in log.entries] == ["r1", "r2"] and not log.problems


@pytest.mark.asyncio
async def test_concurrent_appends_share_one_fsync(tmp_path: Path) -> None:
    import asyncio

    journal = Journal.create(tmp_path, HEADER)
    await asyncio.gather(*(journal.append(entry(f"r{k}")) for k in range(50)))
    await journal.close()
    assert journal.stats.lines == 50
    # All fifty were queued before the writer woke, so they went out in a single batch.
    assert journal.stats.batches == 1 and journal.stats.largest_batch == 50


def lines_of(data: bytes) -> bytes:
    """A live journal's lines: its bytes up to the zeros laid ahead past the last line."""
    return data.rstrip(b"\0")


ZEROS_HERE = hasattr(os, "pwrite") and hasattr(os, "fdatasync")  # Linux, as CI


class Syncs:
    """Counts the journal's syncs by kind (and can make them fail)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, fail: bool = False) -> None:
        self.full = self.data = 0
        self.fail = fail
        real_fsync, real_fdatasync = os.fsync, getattr(os, "fdatasync", None)

        def fsync(fd: int) -> None:
            self.full += 1
            if self.fail:
                raise OSError(5, "Input/output error")
            real_fsync(fd)

        def fdatasync(fd: int) -> None:
            self.data += 1
            if self.fail:
                raise OSError(5, "Input/output error")
            assert real_fdatasync is not None
            real_fdatasync(fd)

        monkeypatch.setattr(os, "fsync", fsync)
        monkeypatch.setattr(os, "fdatasync", fdatasync, raising=False)


@pytest.mark.asyncio
async def test_lines_are_written_over_zeros_laid_ahead_and_a_clean_close_cuts_the_zeros(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The journal lays ``ZERO_TAIL_BYTES`` of zeros past its last line and writes each line over them,
    so a line's sync is an ``fdatasync`` (no metadata); passing the end of the zeros lays more in the
    same write, with a full ``fsync``. Every reader of the live file sees exactly the lines; a clean
    close truncates the file to them."""
    if not ZEROS_HERE:
        pytest.fail("CI runs on Linux, where the journal lays zeros ahead (os.pwrite, os.fdatasync)")
    journal = Journal.create(tmp_path, HEADER)
    head = journal.path.read_bytes()
    assert len(head) == len(lines_of(head)) + ZERO_TAIL_BYTES  # laid with the header, in its fsync
    syncs = Syncs(monkeypatch)
    await journal.append(entry("r1"))
    live = journal.path.read_bytes()
    lines = lines_of(live)
    assert len(live) == len(head) and lines.count(b"\n") == 2 and b"\0" not in lines
    assert (syncs.data, syncs.full) == (1, 0)  # written over the zeros: a data-only sync
    log = read_session(journal.path)
    assert [e.id for e in log.entries] == ["r1"] and not log.problems  # the zeros read as nothing
    # Lines of ~4 KB: past the first megabyte of zeros, more are laid, once, with a full fsync.
    big = {"system": "gurps", "note": "x" * 4000}
    for k in range(2, 300):
        await journal.append(entry(f"r{k}", request=big))
    assert syncs.full == 1 and syncs.data == 298
    live = journal.path.read_bytes()
    assert len(live) > len(head) and 0 < len(live) - len(lines_of(live)) < ZERO_TAIL_BYTES  # grown once
    log = read_session(journal.path)
    assert [e.id for e in log.entries] == [f"r{k}" for k in range(1, 300)] and not log.problems
    await journal.close()
    closed = journal.path.read_bytes()
    assert closed == lines_of(live) and closed.endswith(b"\n")


@pytest.mark.asyncio
async def test_a_big_batch_past_the_zeros_is_appended_and_a_small_one_lays_them_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Under a heavy load a batch shares its sync among many lines, and writing every byte twice
    (zeros, then lines) would cost more than the metadata: a batch bigger than ``ZERO_BATCH_BYTES``
    that passes the zeros' end is appended, and the next small batch lays new zeros."""
    import asyncio

    if not ZEROS_HERE:
        pytest.fail("CI runs on Linux, where the journal lays zeros ahead (os.pwrite, os.fdatasync)")
    journal = Journal.create(tmp_path, HEADER)
    big = {"system": "gurps", "note": "x" * 4000}
    await asyncio.gather(*(journal.append(entry(f"b{k}", request=big)) for k in range(300)))
    assert journal.stats.largest_batch == 300
    data = journal.path.read_bytes()
    assert len(data) > ZERO_TAIL_BYTES and b"\0" not in data  # appended: no zeros laid past it
    syncs = Syncs(monkeypatch)
    await journal.append(entry("lone"))  # a small batch past the end: lays zeros, with a full fsync
    assert (syncs.full, syncs.data) == (1, 0)
    live = journal.path.read_bytes()
    assert len(live) - len(lines_of(live)) == ZERO_TAIL_BYTES
    await journal.append(entry("next"))  # over them: a data-only sync
    assert (syncs.full, syncs.data) == (1, 1)
    await journal.close()
    log = read_session(journal.path)
    assert len(log.entries) == 302 and not log.problems and b"\0" not in journal.path.read_bytes()


@pytest.mark.asyncio
async def test_without_room_for_zeros_lines_are_appended_as_before(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A full disk refuses the megabyte of zeros, not the header or a line: the journal starts, and
    writes its lines at the end with a full fsync."""
    import bridge.store.journal_file as module

    real = module._write_at

    def no_room_for_zeros(fd: int, data: bytes, offset: int) -> None:
        if len(data) >= ZERO_TAIL_BYTES:
            raise OSError(28, "No space left on device")
        real(fd, data, offset)

    monkeypatch.setattr(module, "_write_at", no_room_for_zeros)
    journal = Journal.create(tmp_path, HEADER)
    assert b"\0" not in journal.path.read_bytes()
    syncs = Syncs(monkeypatch)
    for k in range(3):
        await journal.append(entry(f"r{k}"))
    data = journal.path.read_bytes()
    assert b"\0" not in data and data.count(b"\n") == 4
    assert syncs.full == 3 and syncs.data == 0
    await journal.close()
    assert [e.id for e in read_session(journal.path).entries] == ["r0", "r1", "r2"]


@pytest.mark.asyncio
async def test_zeros_that_stop_fitting_midway_fall_back_to_appending(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The disk fills while the journal runs: the batch that needs new zeros is written without them
    (nothing lost, nothing refused), and later lines are appended."""
    import bridge.store.journal_file as module

    journal = Journal.create(tmp_path, HEADER)
    real = module._write_at

    def no_room_for_zeros(fd: int, data: bytes, offset: int) -> None:
        if data.endswith(b"\0"):
            raise OSError(28, "No space left on device")
        real(fd, data, offset)

    monkeypatch.setattr(module, "_write_at", no_room_for_zeros)
    big = {"system": "gurps", "note": "x" * 4000}
    for k in range(400):  # past the first megabyte of zeros
        await journal.append(entry(f"r{k}", request=big))
    await journal.close()
    log = read_session(journal.path)
    assert [e.id for e in log.entries] == [f"r{k}" for k in range(400)] and not log.problems
    assert b"\0" not in journal.path.read_bytes()


@pytest.mark.asyncio
async def test_a_failed_write_is_reported_and_leaves_no_partial_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal.create(tmp_path, HEADER)
    await journal.append(entry("r1"))
    good = lines_of(journal.path.read_bytes())

    with monkeypatch.context() as patch:
        Syncs(patch, fail=True)
        with pytest.raises(JournalError, match="Input/output error"):
            await journal.append(entry("r2"))
    # The batch was taken back out, and the zeros with it (the next write lays them again).
    assert journal.path.read_bytes() == good
    await journal.append(entry("r3"))  # and the journal keeps working
    await journal.close()
    assert [e.id for e in read_session(journal.path).entries] == ["r1", "r3"]


@pytest.mark.asyncio
async def test_a_batch_that_fails_in_the_writer_thread_fails_every_line_of_it_and_the_next_batch_works(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lines queued together go to the writer thread (a lone line may be written on the loop instead):
    its failure comes back to the loop and to every waiter of the batch, nothing of it stays."""
    import asyncio

    journal = Journal.create(tmp_path, HEADER)
    await journal.append(entry("r1"))
    good = lines_of(journal.path.read_bytes())
    with monkeypatch.context() as patch:
        Syncs(patch, fail=True)
        outcomes = await asyncio.gather(
            *(journal.append(entry(f"lost{k}")) for k in range(3)), return_exceptions=True
        )
    assert all(isinstance(outcome, JournalError) for outcome in outcomes), outcomes
    assert journal.path.read_bytes().rstrip(b"\0") == good
    await asyncio.gather(*(journal.append(entry(f"r{k}")) for k in (2, 3)))
    await journal.close()
    assert [e.id for e in read_session(journal.path).entries] == ["r1", "r2", "r3"]
    assert journal.stats.batches == 2  # the lone first line, and the pair (the failed batch counts none)


def test_a_journal_never_closed_does_not_keep_its_process_alive(tmp_path: Path) -> None:
    """The writer thread is a daemon: a program that forgets ``close`` still exits, and every line it
    was told is written is in the file."""
    import subprocess
    import sys

    program = f"""
import asyncio, msgspec
from pathlib import Path
from bridge.store.journal import Journal
from bridge.store.lines import FORMAT_VERSION, Entry, Header

async def main():
    header = Header(format=FORMAT_VERSION, session="s", started="2026-11-29T20:00:00Z",
                    rules_version="0", bridge_version="0")
    journal = Journal.create(Path({str(tmp_path)!r}), header)
    lines = [Entry(id=f"r{{k}}", type="attack", at="2026-11-29T20:00:01.000Z", outcome="result",
                   request={{}}, seed=7, reply=msgspec.Raw(b"{{}}")) for k in range(5)]
    await asyncio.gather(*(journal.append(line) for line in lines))
    print(journal.path, journal.stats.batches)

asyncio.run(main())
"""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=BUDGET_S, check=False
    )
    assert done.returncode == 0, done.stderr
    path, batches = done.stdout.split()
    assert batches == "1"  # the five went through the writer thread together
    assert [e.id for e in read_session(Path(path)).entries] == [f"r{k}" for k in range(5)]


def write_session(path: Path, *entries: Entry) -> bytes:
    data = msgspec.json.encode(HEADER) + b"\n" + b"".join(msgspec.json.encode(e) + b"\n" for e in entries)
    path.write_bytes(data)
    return data


def repair(path: Path) -> str | None:
    """Inspect a journal as the server's start does; the warning it gives, if any."""
    inspection = inspect(path)
    assert inspection.kind is FileKind.JOURNAL
    return inspection.note


def test_repair_cuts_a_torn_last_line(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    whole = write_session(path, entry("r1"), entry("r2"))
    torn = msgspec.json.encode(entry("r3"))[:40]
    path.write_bytes(whole + torn)
    warning = repair(path)
    assert warning is not None and "torn last line" in warning and "line 4" in warning
    assert path.read_bytes() == whole
    assert repair(path) is None  # idempotent


def test_repair_cuts_zero_filled_tail(tmp_path: Path) -> None:
    """A server killed while running leaves the zeros it laid ahead; the next start cuts them."""
    path = tmp_path / "s.jsonl"
    whole = write_session(path, entry("r1"))
    path.write_bytes(whole + b"\x00" * ZERO_TAIL_BYTES)
    warning = repair(path)
    assert warning is not None and f"{ZERO_TAIL_BYTES:,} zero bytes" in warning and "torn" not in warning
    assert path.read_bytes() == whole
    assert repair(path) is None


def test_repair_cuts_a_torn_line_written_over_the_zeros(tmp_path: Path) -> None:
    """Killed midway through writing a line over the zeros: the part written and the zeros both go."""
    path = tmp_path / "s.jsonl"
    whole = write_session(path, entry("r1"), entry("r2"))
    torn = msgspec.json.encode(entry("r3"))[:40]
    path.write_bytes(whole + torn + b"\0" * (ZERO_TAIL_BYTES - len(torn)))
    warning = repair(path)
    assert warning is not None and "torn last line" in warning and "line 4" in warning
    assert f"({len(torn)} bytes)" in warning or f"{len(torn)} bytes" in warning
    assert path.read_bytes() == whole


def test_repair_finishes_a_whole_record_written_over_the_zeros_but_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    whole = write_session(path, entry("r1"))
    last = msgspec.json.encode(entry("r2"))
    path.write_bytes(whole + last + b"\0" * 5000)
    repair(path)
    assert path.read_bytes() == whole + last + b"\n"
    assert [e.id for e in read_session(path).entries] == ["r1", "r2"]


def test_repair_finishes_a_whole_record_missing_its_newline(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    whole = write_session(path, entry("r1"))
    last = msgspec.json.encode(entry("r2"))
    path.write_bytes(whole + last)
    assert repair(path) is None
    assert path.read_bytes() == whole + last + b"\n"


def test_repair_leaves_every_line_that_ends_in_a_newline(tmp_path: Path) -> None:
    """A crash cannot leave a newline-terminated line: whatever it says, it was written whole."""
    path = tmp_path / "s.jsonl"
    data = write_session(path, entry("r1")) + b"{garbage\n"
    path.write_bytes(data)
    assert repair(path) is None
    assert path.read_bytes() == data


def test_a_corrupt_middle_line_is_reported_and_skipped(tmp_path: Path) -> None:
    path = tmp_path / "s.jsonl"
    path.write_bytes(
        msgspec.json.encode(HEADER)
        + b"\n"
        + msgspec.json.encode(entry("r1"))
        + b"\n{garbage\n"
        + msgspec.json.encode(entry("r2"))
        + b"\n"
    )
    assert repair(path) is None  # only a tail is ever cut
    log = read_session(path)
    assert [e.id for e in log.entries] == ["r1", "r2"]
    assert len(log.problems) == 1 and ":3:" in log.problems[0]


def two_sessions(directory: Path) -> None:
    write_session(
        directory / "20261129T200000.000000Z-aaaaaa.jsonl",
        entry("r1"),
        entry("p1", outcome="pending", request={"system": "x", "allocation": "defer"}, seed=42),
        entry("p2", outcome="pending", seed=43),
    )
    # A later session settled p1.
    write_session(
        directory / "20261129T210000.000000Z-bbbbbb.jsonl", entry("a1", type="allocate", pending_id="p1")
    )


def test_ledger_indexes_replies_and_open_pending_attacks(tmp_path: Path) -> None:
    two_sessions(tmp_path)
    warnings: list[str] = []
    ledger = Ledger.open(tmp_path, warnings.append)
    assert ledger.remembered() == 4
    assert ledger.reply("r1") == b'{"type": "result", "id": "r1"}'
    assert ledger.reply("a1") == b'{"type": "result", "id": "a1"}'
    assert ledger.reply("nobody") is None
    p2 = ledger.pending("p2")
    assert isinstance(p2, PendingAttack) and p2.seed == 43 and p2.at is not None
    assert ledger.pending("p1") == Settled("a1")
    assert ledger.pending("r1") is None and ledger.pending("nobody") is None
    assert warnings == []
    ledger.close()


def test_a_retry_is_answered_from_the_journal_bytes(tmp_path: Path) -> None:
    """The index holds where the line is, not the reply: the bytes come from the journal itself."""
    reply = b'{"type":"result", "id":"r1",  "spacing":"kept as sent"}'
    write_session(tmp_path / "20261129T200000.000000Z-aaaaaa.jsonl", entry("r1", reply=msgspec.Raw(reply)))
    ledger = Ledger.open(tmp_path, print)
    assert ledger.reply("r1") == reply
    ledger.close()


def test_the_ledger_catches_up_with_lines_appended_since(tmp_path: Path) -> None:
    path = tmp_path / "20261129T200000.000000Z-aaaaaa.jsonl"
    whole = write_session(path, entry("r1"))
    Ledger.open(tmp_path, print).close()
    path.write_bytes(whole + msgspec.json.encode(entry("r2")) + b"\n")
    ledger = Ledger.open(tmp_path, print)
    assert ledger.reply("r1") is not None and ledger.reply("r2") is not None
    assert ledger.remembered() == 2
    ledger.close()


@pytest.mark.parametrize("damage", ["deleted", "garbage", "truncated"])
def test_a_lost_or_corrupt_index_is_rebuilt_from_the_journals(tmp_path: Path, damage: str) -> None:
    two_sessions(tmp_path)
    Ledger.open(tmp_path, print).close()
    index = tmp_path / INDEX_NAME
    if damage == "deleted":
        index.unlink()
    elif damage == "garbage":
        index.write_bytes(b"this is not a database" * 100)
    else:
        index.write_bytes(index.read_bytes()[:100])
    warnings: list[str] = []
    ledger = Ledger.open(tmp_path, warnings.append)
    assert ledger.reply("r1") == b'{"type": "result", "id": "r1"}'
    assert isinstance(ledger.pending("p2"), PendingAttack) and ledger.pending("p1") == Settled("a1")
    if damage != "deleted":
        assert any("rebuilding it from the journals" in warning for warning in warnings), warnings
    ledger.close()


def test_a_replaced_or_deleted_journal_is_indexed_again(tmp_path: Path) -> None:
    first = tmp_path / "20261129T200000.000000Z-aaaaaa.jsonl"
    second = tmp_path / "20261129T210000.000000Z-bbbbbb.jsonl"
    write_session(first, entry("r1"))
    write_session(second, entry("r2"))
    Ledger.open(tmp_path, print).close()
    second.unlink()
    other = msgspec.structs.replace(HEADER, session="20261129T200000.000000Z-aaaaaa", started="x")
    first.write_bytes(msgspec.json.encode(other) + b"\n" + msgspec.json.encode(entry("r3")) + b"\n")
    ledger = Ledger.open(tmp_path, print)
    assert ledger.reply("r1") is None and ledger.reply("r2") is None
    assert ledger.reply("r3") is not None and ledger.remembered() == 1
    ledger.close()


def test_the_token_file_is_created_once_with_mode_0600(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("VOLLEY_TOKEN", raising=False)
    config = tmp_path / "config"
    first = load_or_create_token(config)
    assert first.created and first.path == config / "token"
    assert stat.S_IMODE((config / "token").stat().st_mode) == 0o600
    assert len(first.value) >= 40
    second = load_or_create_token(config)
    assert second.value == first.value and not second.created
    # --token and VOLLEY_TOKEN override the file, and are not written anywhere.
    assert load_or_create_token(config, "explicit").value == "explicit"
    monkeypatch.setenv("VOLLEY_TOKEN", "from-env")
    assert load_or_create_token(config).value == "from-env"
    assert (config / "token").read_text().strip() == first.value


def test_a_loosened_token_file_is_tightened_again(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("VOLLEY_TOKEN", raising=False)
    token = load_or_create_token(tmp_path)
    assert token.path is not None
    token.path.chmod(0o644)
    load_or_create_token(tmp_path)
    assert stat.S_IMODE(token.path.stat().st_mode) == 0o600


def test_token_comparison() -> None:
    assert token_matches("abc", "abc")
    assert not token_matches("abc", "abd")
    assert not token_matches("abc", None)
    assert not token_matches("abc", 123)


def test_xdg_directories(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "share"))
    assert config_dir() == tmp_path / "cfg" / "volley"
    assert data_dir() == tmp_path / "share" / "volley"
    assert config_dir("/elsewhere") == Path("/elsewhere")
    monkeypatch.setenv("XDG_DATA_HOME", "relative/is/ignored")
    assert data_dir() == Path.home() / ".local/share/volley"


def test_only_a_header_only_session_is_discarded(tmp_path: Path) -> None:
    empty = tmp_path / "empty.jsonl"
    write_session(empty)
    played = tmp_path / "played.jsonl"
    write_session(played, entry("r1"))
    odd = tmp_path / "odd.jsonl"
    odd.write_bytes(msgspec.json.encode(HEADER) + b"\n{garbage\n")
    for path in (empty, played, odd):
        discard_session(path)
    assert not empty.exists()
    assert played.exists() and odd.exists()  # a record of play, or a file not fully readable, stays


@pytest.mark.asyncio
async def test_the_id_filter_answers_new_ids_and_never_hides_a_known_one(tmp_path: Path) -> None:
    """Filled from the index (and from lines noted since), the filter only ever says "certainly new"
    for ids the ledger does not hold."""
    two_sessions(tmp_path)
    ledger = Ledger.open(tmp_path, print)
    await ledger.fill_filter()
    assert ledger.reply("r1") == b'{"type": "result", "id": "r1"}'
    assert isinstance(ledger.pending("p2"), PendingAttack) and ledger.pending("p1") == Settled("a1")
    assert all(ledger.reply(f"new-{k}") is None for k in range(1000))
    ledger.close()


def test_an_undo_line_is_indexed_as_a_reply_and_as_its_target_undone(tmp_path: Path) -> None:
    """Line kinds are read generically: an ``undo`` line answers a retry of its own id, and marks its
    target undone, after a rebuild of the index as much as before."""
    from bridge.store.lines import UndoLine

    undo = UndoLine(id="u1", target_id="r1", at="2026-11-29T20:00:02.000Z", reply=msgspec.Raw(b'{"u":1}'))
    path = tmp_path / "20261129T200000.000000Z-aaaaaa.jsonl"
    write_session(path, entry("r1"))
    path.write_bytes(path.read_bytes() + msgspec.json.encode(undo) + b"\n")
    for _ in range(2):  # indexed from scratch, then from the index
        ledger = Ledger.open(tmp_path, print)
        assert ledger.reply("u1") == b'{"u":1}'
        assert ledger.undone_by("r1") == "u1" and ledger.undone_by("u1") is None
        ledger.close()
    (tmp_path / INDEX_NAME).unlink()
    ledger = Ledger.open(tmp_path, print)
    assert ledger.undone_by("r1") == "u1"
    ledger.close()
