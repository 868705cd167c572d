"""Reading journals for the report: every usable line is used, every other one is counted, nothing raises."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
from reportkit import REPLAYS

from bridge.report.record import KEPT_SKIPPED, read_record, read_record_bytes


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_a_recorded_session_reads_whole() -> None:
    for path in REPLAYS:
        record = read_record(path)
        assert record.started is not None
        assert record.count == len(list(record.resolutions)) == len(_lines(path)) - 1
        assert not record.skipped and not record.other_kinds


def test_a_bad_line_in_the_middle_is_skipped_and_counted() -> None:
    lines = _lines(REPLAYS[0])
    data = b"".join(
        [*lines[:2], b"{not json at all\n", b"[1, 2]\n", b'{"kind": "resolved", "id": "x"}\n', *lines[2:]]
    )
    record = read_record_bytes("damaged", data)
    assert len(list(record.resolutions)) == record.count == len(lines) - 1
    assert [s.line for s in record.skipped] == [3, 4, 5]
    assert "not JSON" in record.skipped[0].reason
    assert record.skipped[2].reason.startswith("a resolved line without")


def test_a_torn_last_line_is_damage_in_a_closed_journal_and_nothing_in_a_live_one() -> None:
    data = b"".join(_lines(REPLAYS[0])) + b'{"kind": "resolved", "id": "r9", "ty'
    assert len(read_record_bytes("closed", data).skipped) == 1
    assert not read_record_bytes("live", data, live=True).skipped


def test_lines_of_other_kinds_are_counted_not_called_damage() -> None:
    data = b"".join(_lines(REPLAYS[0])) + b'{"kind": "note", "id": "n1"}\n'
    record = read_record_bytes("s", data)
    assert record.other_kinds == {"note": 1} and not record.skipped


def test_undo_lines_name_what_they_undo() -> None:
    data = b"".join(_lines(REPLAYS[0])) + b'{"kind": "undo", "id": "u1", "target_id": "t1"}\n'
    record = read_record_bytes("s", data)
    assert record.undone == {"t1"} and not record.other_kinds and not record.skipped


def test_wrong_shapes_inside_a_line_are_reasons_not_tracebacks() -> None:
    base = json.loads(_lines(REPLAYS[0])[1])
    broken = [
        {**base, "request": "a string"},
        {**base, "reply": {"type": "result"}},
        {**base, "reply": {"result": [1, 2]}},
        {**base, "id": 5},
    ]
    data = b"".join(json.dumps(line).encode() + b"\n" for line in broken)
    record = read_record_bytes("s", data)
    assert len(record.skipped) == 4 and not list(record.resolutions) and record.count == 0


def test_garbage_never_raises() -> None:
    rng = random.Random(9)
    good = b"".join(_lines(REPLAYS[1]))
    for _ in range(200):
        data = bytearray(good)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        record = read_record_bytes("noise", bytes(data))
        assert len(list(record.resolutions)) == record.count


def test_an_unreadable_file_is_one_skipped_line(tmp_path: Path) -> None:
    record = read_record(tmp_path / "missing.jsonl")
    assert len(record.skipped) == 1 and "cannot read" in record.skipped[0].reason


# --- the zero tail (bridge.store.journal_file lays zeros past the last line) -----------------------------


@pytest.mark.parametrize("zeros", [1, 4096, (1 << 20) + 3])
def test_the_zero_tail_of_a_live_or_killed_journal_is_not_damage(tmp_path: Path, zeros: int) -> None:
    """A server killed (or still running) leaves its journal ending in zeros after the last line."""
    journal = tmp_path / "killed.jsonl"
    journal.write_bytes(b"".join(_lines(REPLAYS[0])) + b"\0" * zeros)
    for record in (read_record(journal), read_record(journal, live=True)):
        assert not record.skipped and record.skipped_count == 0
        assert record.count == len(_lines(REPLAYS[0])) - 1 == len(list(record.resolutions))


def test_a_torn_line_before_the_zero_tail_is_still_damage(tmp_path: Path) -> None:
    journal = tmp_path / "torn.jsonl"
    journal.write_bytes(b"".join(_lines(REPLAYS[0])) + b'{"kind": "resolved", "id": "r9", "ty' + b"\0" * 4096)
    record = read_record(journal)
    assert [s.reason for s in record.skipped] == ["not JSON (torn or edited line)"]
    assert not read_record(journal, live=True).skipped


def test_a_last_line_without_its_newline_still_counts(tmp_path: Path) -> None:
    journal = tmp_path / "cut.jsonl"
    journal.write_bytes(b"".join(_lines(REPLAYS[0])).rstrip(b"\n") + b"\0" * 100)
    record = read_record(journal)
    assert not record.skipped and record.count == len(list(record.resolutions)) == len(_lines(REPLAYS[0])) - 1


# --- two passes ---------------------------------------------------------------------------------


def test_the_second_pass_reads_what_the_first_did_while_the_journal_grows(tmp_path: Path) -> None:
    """A live journal gains lines between the passes: the figures see the lines the survey saw."""
    lines = _lines(REPLAYS[0])
    journal = tmp_path / "live.jsonl"
    journal.write_bytes(b"".join(lines[:3]))
    record = read_record(journal, live=True)
    with journal.open("ab") as handle:
        handle.write(b"".join(lines[3:]))
    assert record.count == 2 == len(list(record.resolutions))


def test_garbage_is_counted_not_kept(tmp_path: Path) -> None:
    """A file of a hundred thousand bad lines keeps a hundred of them, and counts them all."""
    junk = tmp_path / "junk.jsonl"
    junk.write_bytes(b"{nope\n" * 100_000)
    record = read_record(junk)
    assert record.skipped_count == 100_000 and len(record.skipped) == KEPT_SKIPPED


def test_the_record_ends_at_the_first_zero_as_for_every_reader(tmp_path: Path) -> None:
    """Zeros, then a newline-ended fragment, then zeros (a power loss's leftovers): the report stops at
    the first zero, as the store's reader does (repair cuts from there at the next start)."""
    lines = _lines(REPLAYS[0])
    journal = tmp_path / "lost.jsonl"
    journal.write_bytes(b"".join(lines[:3]) + b"\0" * 100 + b'"kind": "resolved"}\n' + b"\0" * 100)
    record = read_record(journal)
    assert record.count == 2 == len(list(record.resolutions)) and not record.skipped
