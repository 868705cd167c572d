"""Reading journals for the report: every usable line is used, every other one is counted, nothing raises."""

from __future__ import annotations

import json
import random
from pathlib import Path

from reportkit import REPLAYS

from bridge.report.record import read_record, read_record_bytes


def _lines(path: Path) -> list[bytes]:
    return path.read_bytes().splitlines(keepends=True)


def test_a_recorded_session_reads_whole() -> None:
    for path in REPLAYS:
        record = read_record(path)
        assert record.started is not None
        assert len(record.resolutions) == len(_lines(path)) - 1
        assert not record.skipped and not record.other_kinds


def test_a_bad_line_in_the_middle_is_skipped_and_counted() -> None:
    lines = _lines(REPLAYS[0])
    data = b"".join(
        [*lines[:2], b"{not json at all\n", b"[1, 2]\n", b'{"kind": "resolved", "id": "x"}\n', *lines[2:]]
    )
    record = read_record_bytes("damaged", data)
    assert len(record.resolutions) == len(lines) - 1
    assert [s.line for s in record.skipped] == [3, 4, 5]
    assert "not JSON" in record.skipped[0].reason
    assert record.skipped[2].reason.startswith("a resolved line without")


def test_a_torn_last_line_is_damage_in_a_closed_journal_and_nothing_in_a_live_one() -> None:
    data = b"".join(_lines(REPLAYS[0])) + b'{"kind": "resolved", "id": "r9", "ty'
    assert len(read_record_bytes("closed", data).skipped) == 1
    assert not read_record_bytes("live", data, live=True).skipped


def test_lines_of_other_kinds_are_counted_not_called_damage() -> None:
    data = b"".join(_lines(REPLAYS[0])) + b'{"kind": "undo", "id": "u1", "target_id": "t1"}\n'
    record = read_record_bytes("s", data)
    assert record.other_kinds == {"undo": 1} and not record.skipped


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
    assert len(record.skipped) == 4 and not record.resolutions


def test_garbage_never_raises() -> None:
    rng = random.Random(9)
    good = b"".join(_lines(REPLAYS[1]))
    for _ in range(200):
        data = bytearray(good)
        for _ in range(rng.randint(1, 20)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        read_record_bytes("noise", bytes(data))


def test_an_unreadable_file_is_one_skipped_line(tmp_path: Path) -> None:
    record = read_record(tmp_path / "missing.jsonl")
    assert len(record.skipped) == 1 and "cannot read" in record.skipped[0].reason
