"""A session played with table rules (docs/rules/*.md, "table rule"): the bridge checks the merged
fields like any other, the journal carries them in each request and the changed readings on each card,
``volley replay`` reproduces every result from them, and ``volley show`` lists them per request."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, journal_bytes, open_session

from bridge.cli import main
from bridge.cli.replay import replay_session
from bridge.report.build import report_html
from bridge.report.record import read_record
from bridge.server.app import BridgeSettings

#: Kira's burst at two Vargr, the second designated with no bullet (reading 5's case), and the table's
#: reading that only targets given a bullet count for the splitting DM; the table also widened the
#: module's danger space, which the referee's browser reports in ``module_readings``.
BURST = {
    "system": "megatraveller",
    "mode": "burst",
    "attacker": {"id": "kira", "name": "Kira", "skill": 2, "dex": 10},
    "weapon": {"name": "Autorifle", "burst": 4, "loaded": 20},
    "targets": [{"id": "v1", "name": "Raider"}, {"id": "v2", "name": "Leader"}],
    "allocation": [4, 0],
    "split_dm_counts": "receiving",
    "module_readings": {"danger_space_half_width": 3},
}
#: A d100 single shot at long range, where the table plays -20 rather than Volley's -10.
LONG_SHOT = {
    "system": "d100",
    "mode": "single",
    "attacker": {"id": "vex", "name": "Vex", "bs": 45},
    "weapon": {"name": "Autogun", "rof": "S/3/10", "loaded": 30, "range": 100},
    "targets": [{"id": "t1", "name": "Cultist", "band": "long"}],
    "range_modifiers": {"point_blank": 30, "short": 10, "combat": 0, "long": -20, "extreme": -30},
}


async def _play(client: TestClient[Any, Any]) -> None:
    session = await open_session(client)
    replies = [
        await session.ask({"type": "attack", "id": "g", "request": {**GURPS_MP5, "dodge_step": "rcl"}}),
        await session.ask({"type": "attack", "id": "m", "request": BURST}),
        await session.ask({"type": "attack", "id": "d", "request": LONG_SHOT}),
        await session.ask({"type": "attack", "id": "plain", "request": GURPS_MP5}),
    ]
    assert [reply["type"] for reply in replies] == ["result"] * 4, replies


def _journal(settings: BridgeSettings) -> Path:
    (journal,) = (settings.data_dir / "sessions").glob("*.jsonl")
    return journal


@pytest.mark.asyncio
async def test_a_session_played_with_table_rules_replays_and_shows_them(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, capsys: pytest.CaptureFixture[str]
) -> None:
    await _play(bridge_client)
    journal = _journal(settings)
    records = {r["id"]: r for r in map(json.loads, journal_bytes(journal).splitlines()[1:]) if "id" in r}
    assert records["m"]["request"]["split_dm_counts"] == "receiving"
    cards = {id: record["reply"]["card"] for id, record in records.items()}
    assert [m["key"] for m in cards["m"]["table_rules"]] == [
        "megatraveller.table_rule.split_dm_counts",
        "megatraveller.table_rule.danger_space_half_width",
    ]
    assert [m["key"] for m in cards["g"]["table_rules"]] == ["gurps.table_rule.dodge_step"]
    assert [m["values"]["modifier"] for m in cards["d"]["table_rules"]] == [-20]
    assert "table_rules" not in cards["plain"]
    report = replay_session(journal)
    assert (report.total, report.matched, report.ok) == (4, 4, True)

    name = journal.stem
    assert main(["show", name[:12], "--data-dir", str(settings.data_dir), "--lang", "en"]) == 0
    shown = capsys.readouterr().out
    assert shown.count("table rules differ from Volley's readings:") == 3
    assert "    * Splitting DM counts only targets given a bullet (Volley: every target designated)" in shown
    assert "    * Range long: -20 (Volley: -10)" in shown
    assert "    * Danger space reaches 3 squares either side of the line of fire (Volley: 1)" in shown
    assert "    * Dodge avoids one more hit per full Rcl of margin (Volley: per point)" in shown
    assert main(["show", name[:12], "--data-dir", str(settings.data_dir), "--lang", "ru"]) == 0
    shown = capsys.readouterr().out
    assert "    * Дистанция дальняя: -20 (Volley: -10)" in shown
    assert "    * Опасная зона: 3 кл. по обе стороны линии огня (Volley: 1)" in shown


@pytest.mark.asyncio
async def test_the_session_report_lists_each_requests_table_rules(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    await _play(bridge_client)
    journal = _journal(settings)
    english = report_html([read_record(journal)], "en")
    assert "3 requests were played by table rules other than Volley&#x27;s readings:" in english
    assert f"{journal.stem} m: Splitting DM counts only targets given a bullet" in english
    assert f"{journal.stem} d: Range long: -20 (Volley: -10)" in english
    assert "Danger space reaches 3 squares either side of the line of fire (Volley: 1)" in english
    assert f"{journal.stem} plain:" not in english
    russian = report_html([read_record(journal)], "ru")
    assert "Запросов по правилам стола, отличным от прочтений Volley: 3" in russian
    assert "Дистанция дальняя: -20 (Volley: -10)" in russian
    assert "Опасная зона: 3 кл. по обе стороны линии огня (Volley: 1)" in russian


@pytest.mark.asyncio
async def test_replay_uses_the_journaled_table_rules(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, tmp_path: Path
) -> None:
    """Take the table rule out of the journaled request: the replayed result is no longer the recorded
    one, so the rule the session was played with is what replay reproduces."""
    await _play(bridge_client)
    edited = tmp_path / "edited.jsonl"
    edited.write_bytes(journal_bytes(_journal(settings)))
    lines = edited.read_text().splitlines()
    for index, line in enumerate(lines):
        record = json.loads(line)
        if record.get("id") == "d":
            del record["request"]["range_modifiers"]
            lines[index] = json.dumps(record)
    edited.write_text("\n".join(lines) + "\n")
    report = replay_session(edited, keep=100)  # every difference of it, not only the first ten
    assert report.matched == 3
    (mismatch,) = report.mismatches
    paths = [difference.path for difference in mismatch.differences]
    assert any(path.startswith("$.card.table_rules") for path in paths), paths


@pytest.mark.asyncio
async def test_a_bad_table_value_is_refused_with_its_path(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    reply = await session.ask({"type": "odds", "id": "o", "request": {**BURST, "split_dm_counts": "some"}})
    assert reply["type"] == "error" and reply["path"] == "$.request.split_dm_counts", reply
    reply = await session.ask(
        {"type": "odds", "id": "o2", "request": {**LONG_SHOT, "range_modifiers": {"long": 900}}}
    )
    assert reply["type"] == "error" and reply["path"].startswith("$.request.range_modifiers"), reply
    for bad, path in [
        ({"danger_space_half_width": 11}, "$.request.module_readings.danger_space_half_width"),
        ({"danger_space_beyond": "far"}, "$.request.module_readings.danger_space_beyond"),
        ({"danger_shape": "cone"}, "$.request.module_readings"),
    ]:
        reply = await session.ask({"type": "odds", "id": "o3", "request": {**BURST, "module_readings": bad}})
        assert reply["type"] == "error" and reply["path"].startswith(path), (bad, reply)
    order = {"system": "d100", "action": "overwatch", "attacker": {"id": "vex", "name": "Vex", "bs": 45}}
    stands = {**order, "module_readings": {"overwatch_ends_on_turn": "no"}}
    reply = await session.ask({"type": "attack", "id": "w", "request": stands})
    assert reply["type"] == "error", reply
    assert reply["path"] == "$.request.module_readings.overwatch_ends_on_turn", reply
    stands = {**order, "module_readings": {"overwatch_ends_on_turn": False}}
    reply = await session.ask({"type": "attack", "id": "w2", "request": stands})
    assert reply["type"] == "result", reply
    assert [m["key"] for m in reply["card"]["table_rules"]] == ["d100.table_rule.overwatch_stands"]
