"""Each thing once on the wire and in the journal (issue 38, protocol 3).

A reply carried the rules' log twice (``result.log`` and ``card.log``), the updates twice (top level and
``result.updates``), a pending pool three times and each row's statuses beside the updates they came
from; every copy was encoded and journaled. Now ``result`` holds what the rules said, once, and the card
only what the bridge adds. Readers take both shapes: a retry returns a reply journaled by an older
bridge as it was (``tests/replays/format2``)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from bridge.cli import main

ROOT = Path(__file__).resolve().parents[2]
RECORDED = sorted((ROOT / "tests" / "replays").glob("*.jsonl"))
OLD_SHAPE = sorted((ROOT / "tests" / "replays" / "format2").glob("*.jsonl"))


def _lists(value: Any, path: str, into: dict[str, list[str]]) -> None:
    """Every non-empty list and every object inside ``value``, by its JSON text."""
    if isinstance(value, dict):
        if value:
            into.setdefault(json.dumps(value, sort_keys=True), []).append(path)
        for key, item in value.items():
            _lists(item, f"{path}.{key}", into)
    elif isinstance(value, list):
        if value:
            into.setdefault(json.dumps(value, sort_keys=True), []).append(path)
        for index, item in enumerate(value):
            _lists(item, f"{path}[{index}]", into)


def _replies(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text().splitlines()[1:]]


@pytest.mark.parametrize("recording", RECORDED, ids=lambda path: path.stem)
def test_a_reply_and_its_journal_line_carry_nothing_of_the_result_twice(recording: Path) -> None:
    """Every recorded request of every system (results, pending pools, allocations, actions): nothing
    outside ``result`` (the card, the reply's own fields) repeats a list or an object of it."""
    for line in _replies(recording):
        reply = line["reply"]
        assert reply["type"] in ("result", "pending"), line["id"]
        in_result: dict[str, list[str]] = {}
        _lists(reply["result"], "$.result", in_result)
        outside: dict[str, list[str]] = {}
        _lists({key: value for key, value in reply.items() if key != "result"}, "$", outside)
        repeated = {paths[0]: in_result[text] for text, paths in outside.items() if text in in_result}
        assert not repeated, (line["id"], repeated)
        assert set(reply) == {"type", "id", "result", "card"}, line["id"]
        assert not {"log", "pending"} & set(reply["card"]), line["id"]
        assert all(set(row) == {"target", "name", "hits"} for row in reply["card"]["rows"]), line["id"]


def test_the_gurps_burst_reply_is_a_quarter_smaller() -> None:
    """The issue's example: Kane's MP5 burst, 2,634 bytes with its copies."""
    (old,) = [line for line in _replies(OLD_SHAPE[1]) if line["id"] == "gurps/mp5_burst"]
    (new,) = [line for line in _replies(RECORDED[1]) if line["id"] == "gurps/mp5_burst"]
    size = [len(json.dumps(line["reply"], separators=(",", ":"))) for line in (old, new)]
    assert size[0] == 2634 and size[1] <= 0.75 * size[0], size


@pytest.mark.parametrize(
    "journal", [*OLD_SHAPE, *RECORDED], ids=lambda path: f"{path.parent.name}/{path.stem}"
)
def test_volley_show_reads_both_shapes_alike(journal: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The log lines, each row's statuses and a waiting pool come from the card (format 2) or the
    result (format 3): ``volley show`` prints the same lines from either recording of a session."""
    twin = (ROOT / "tests" / "replays" / journal.name) if journal.parent.name == "format2" else None
    code = main(["show", str(journal), "--lang", "en"])
    out = capsys.readouterr().out
    assert code == 0, out
    # The heading names the session and its format, each entry its time: the rest must be the same.
    body = re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z", "(time)", out.split("\n", 1)[1])
    assert "  ! " not in body, body  # nothing shown incomplete
    if twin is not None:
        assert main(["show", str(twin), "--lang", "en"]) == 0
        assert (
            re.sub(r"\d{4}-\d\d-\d\dT[\d:.]+Z", "(time)", capsys.readouterr().out.split("\n", 1)[1]) == body
        )


@pytest.mark.parametrize("system", ["gurps", "d100", "megatraveller"])
def test_the_session_report_reads_both_shapes_alike(system: str) -> None:
    """The report takes each request's result and, for a two-step attack, its pool (the reply's copy in
    format 2, the result's own in format 3): the same from either recording of a session."""
    from bridge.report.record import read_record

    old = read_record(ROOT / "tests" / "replays" / "format2" / f"{system}.jsonl")
    new = read_record(ROOT / "tests" / "replays" / f"{system}.jsonl")
    assert old.skipped == new.skipped == []
    assert len(old.resolutions) == len(new.resolutions) > 0
    for before, after in zip(old.resolutions, new.resolutions, strict=True):
        assert (before.id, before.result, before.pool) == (after.id, after.result, after.pool)
    if system == "megatraveller":
        assert any(resolution.pool for resolution in new.resolutions)
