"""Adding sessions up: what each shooter spent and scored, what each target took, which faces fell."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec
import pytest
from reportkit import REPLAYS, write_session

import rules
from bridge.report.build import report_html
from bridge.report.record import read_record, read_record_bytes
from bridge.report.tally import tally
from bridge.report.totals import Tally
from bridge.store.lines import AppliedLine, CancelLine, UndoLine

REPLAY = {path.stem: path for path in REPLAYS}


def test_gurps_shooters_weapons_and_rounds() -> None:
    counted = tally([read_record(REPLAY["gurps"])])
    kane = counted.shooters["Kane"].weapons["MP5"]
    # mp5_burst fires 10; the reload request puts 26 in (4 -> 30); the unjam fires nothing.
    assert (kane.requests, kane.rounds, kane.reloads, kane.jams) == (3, 10, 1, 0)
    assert counted.shooters["Dutch"].weapons["M249"].rounds == 13
    assert counted.shooters["Rosa"].weapons["Remington 870"].hits == 5
    assert counted.targets["Biker"].hits == 5


def test_expected_hits_are_the_odds_of_the_requests_as_made() -> None:
    counted = tally([read_record(REPLAY["gurps"])])
    lines = [json.loads(line) for line in REPLAY["gurps"].read_text().splitlines()[1:]]
    mp5 = next(line for line in lines if line["id"] == "gurps/mp5_burst")
    odds = rules.odds(rules.decode_request(mp5["request"]))
    mean = math.fsum(k * p for k, p in enumerate(odds.targets[0].hits))
    assert counted.targets["Ganger"].hits_expected == pytest.approx(mean)
    assert counted.shooters["Kane"].weapons["MP5"].jams_expected == pytest.approx(odds.jam)


def test_a_two_step_attack_is_one_request_and_its_dice_count_once() -> None:
    counted = tally([read_record(REPLAY["megatraveller"])])
    max_ = counted.shooters["Max Oyelaran"].weapons["Submachinegun"]
    # controlled fire, then the same deferred and allocated: two requests, 8 + 7 rounds.
    assert (max_.requests, max_.rounds) == (2, 15)
    assert max_.luck.count == 2  # the allocate priced with its pool, not refused
    assert not counted.notes.no_odds
    faces = sum(sum(counts) for counts in counted.dice.faces.values())
    lines = [json.loads(line) for line in REPLAY["megatraveller"].read_text().splitlines()[1:]]
    rolled = sum(
        len(line["reply"]["result"]["rolls"])
        for line in lines
        if line["dice"] is None and line["outcome"] == "result"
    )
    assert faces == rolled  # the pending steps' pool faces come back in their allocates


def test_scripted_dice_count_in_hits_not_in_luck_or_fairness() -> None:
    counted = tally([read_record(REPLAY["megatraveller"])])
    honjo = counted.shooters["Honjo Boram"].weapons["Autorifle"]
    assert honjo.scripted == 1 and honjo.hits == 4 and not honjo.luck.count
    assert counted.dice.scripted == 22 + 9  # the two worked examples' faces
    assert counted.notes.scripted == 2


def test_d100_suppression_against_its_chances() -> None:
    counted = tally([read_record(REPLAY["d100"])])
    cultists = counted.targets["Cultist"]
    assert cultists.suppressed.trials == 2 and cultists.suppressed.observed == 2
    assert cultists.suppressed.expected == pytest.approx(0.95 + 0.95)
    assert cultists.prone.trials == 1 and cultists.prone.expected == pytest.approx(0.95)


def test_a_jam_is_counted_with_its_malfunction() -> None:
    line = json.loads(REPLAY["gurps"].read_text().splitlines()[1])
    result = line["reply"]["result"]
    result["weapon"].update(jammed=True, malfunction="stoppage")
    record = read_record_bytes("s", json.dumps(line).encode() + b"\n")
    kane = tally([record]).shooters["Kane"].weapons["MP5"]
    assert kane.jams == 1 and kane.malfunctions == {"stoppage": 1}


def test_repeated_seeds_count_their_faces_once() -> None:
    once = tally([read_record(REPLAY["gurps"])])
    twice = tally([read_record(REPLAY["gurps"]), read_record(REPLAY["gurps"])])
    assert twice.dice.faces == once.dice.faces
    assert twice.luck_chart.histogram == once.luck_chart.histogram
    assert twice.notes.repeated_seeds == sum(
        1 for r in read_record(REPLAY["gurps"]).resolutions if r.seed is not None
    )
    assert twice.shooters["Kane"].weapons["MP5"].requests == 6  # what happened still counts twice


def test_an_odd_shape_costs_a_line_not_the_report(tmp_path: Path) -> None:
    line = json.loads(REPLAY["gurps"].read_text().splitlines()[1])
    line["reply"]["result"]["targets"] = [{"id": "t1", "hits": "two"}, "nonsense", None]
    line["reply"]["result"]["rolls"] = [{"die": 6, "face": 9}, {"die": "d6"}, 3]
    line["request"]["weapon"] = ["not", "a", "weapon"]
    line["request"]["targets"] = "nobody"
    counted = tally([read_record_bytes("odd", json.dumps(line).encode() + b"\n")])
    assert counted.dice.impossible == 3
    kane = counted.shooters["Kane"].weapons[
        "MP5"
    ]  # named by the result's weapon when the request's is garbled
    assert kane.requests == 1 and kane.hits == 0
    assert sum(counted.notes.no_odds.values()) == 1  # the rules refuse the garbled request: no odds, no luck


# --- undone requests (the referee took them back at the table) -----------------------------------


def _undo_line(target: str) -> bytes:
    reply = msgspec.json.encode({"type": "undone", "id": f"u-{target}", "target_id": target})
    line = UndoLine(
        id=f"u-{target}", target_id=target, at="2026-11-28T19:30:00.000Z", reply=msgspec.Raw(reply)
    )
    return msgspec.json.encode(line) + b"\n"


def _without_undone(counted: Tally) -> dict[str, Any]:
    """Every figure of a tally, with what only says how many were undone set aside."""
    figures = dataclasses.asdict(counted)
    figures["notes"].pop("undone")
    figures["notes"].pop("undone_elsewhere")
    figures["sessions"] = [{**line, "undone": 0, "name": ""} for line in figures["sessions"]]
    for shooter in figures["shooters"].values():
        for weapon in shooter["weapons"].values():
            weapon.pop("undone")
    return figures


@pytest.fixture(scope="module")
def skirmish(tmp_path_factory: pytest.TempPathFactory) -> list[bytes]:
    """A short synthetic session (two-step attacks included), as its journal lines."""
    path = write_session(tmp_path_factory.mktemp("undo"), 80, seed=5)
    return path.read_bytes().splitlines(keepends=True)


def _line_of(lines: list[bytes], wanted: Callable[[dict[str, Any]], bool]) -> int:
    return next(i for i, line in enumerate(lines) if i and wanted(json.loads(line)))


@pytest.mark.parametrize("kind", ["attack", "allocate", "reload"])
def test_an_undone_request_leaves_every_figure_as_if_it_never_happened(
    skirmish: list[bytes], kind: str
) -> None:
    """Undo an attack (with hits), a two-step attack's allocate, a reload: every total, expectation,
    luck figure and face count equals the session with those lines removed by hand."""
    lines = list(skirmish)
    if kind == "attack":
        index = _line_of(
            lines, lambda o: o["type"] == "attack" and any(t["hits"] for t in o["reply"]["result"]["targets"])
        )
    elif kind == "allocate":
        index = _line_of(lines, lambda o: o["type"] == "allocate")
    else:
        index = _line_of(lines, lambda o: o["request"].get("action") == "reload")
    entry = json.loads(lines[index])
    undone = tally([read_record_bytes("s", b"".join(lines) + _undo_line(entry["id"]))])
    removed = [index]
    if kind == "allocate":  # the first step goes with it: it changed nothing without its allocate
        removed.append(_line_of(lines, lambda o: o["id"] == entry["pending_id"]))
    by_hand = tally(
        [read_record_bytes("s", b"".join(line for i, line in enumerate(lines) if i not in removed))]
    )
    assert _without_undone(undone) == _without_undone(by_hand)
    shooter = entry["request"]["attacker"]["name"]
    assert undone.notes.undone == {shooter: 1} and undone.undone == 1
    assert undone.shooters[shooter].total("undone") == 1
    assert undone.requests == by_hand.requests


def test_the_page_says_who_had_requests_undone(skirmish: list[bytes]) -> None:
    lines = list(skirmish)
    index = _line_of(lines, lambda o: o["type"] == "attack")
    entry = json.loads(lines[index])
    html = report_html(
        [read_record_bytes("s", b"".join(lines) + _undo_line(entry["id"]) + _undo_line("elsewhere"))], "en"
    )
    name = entry["request"]["attacker"]["name"]
    assert "1 undone" in html
    assert f"1 request was undone at the table and is left out of every figure: {name} ×1." in html
    assert "1 undo names a request not in these sessions." in html
    assert "Lines of other kinds" not in html


def test_cancels_and_changes_made_outside_volley_are_read_and_said(skirmish: list[bytes]) -> None:
    """A cancelled first step is told apart from one never allocated; an applied mark's changes made
    outside Volley are listed (docs/protocol.md promises the report lists them)."""
    lines = list(skirmish)
    allocate = _line_of(lines, lambda o: o["type"] == "allocate")
    pending = json.loads(lines[allocate])["pending_id"]
    kept = [line for i, line in enumerate(lines) if i != allocate]
    reply = msgspec.Raw(b'{"type": "cancelled", "id": "c1", "pending_id": "' + pending.encode() + b'"}')
    cancel = CancelLine(id="c1", pending_id=pending, at="2026-11-28T19:30:00.000Z", reply=reply)
    change = {
        "token": "tokKira",
        "token_name": "Kira Rhyne",
        "weapon": "w8f3",
        "weapon_name": "Autorifle",
        "field": "loaded",
        "from": 3,
        "to": 20,
        "by": "pl1",
        "by_name": "Player",
        "kept": True,
    }
    marked = msgspec.Raw(b'{"type": "marked", "id": "m1", "target_id": "r1"}')
    applied = AppliedLine(
        id="applied:r1",
        target_id="r1",
        mark="m1",
        at="2026-11-28T19:30:01.000Z",
        outside=[change],
        reply=marked,
    )
    data = b"".join(kept) + msgspec.json.encode(cancel) + b"\n" + msgspec.json.encode(applied) + b"\n"
    counted = tally([read_record_bytes("s", data)])
    assert counted.notes.cancelled == 1 and counted.notes.unfinished == 0
    assert counted.notes.outside == [change] and not counted.notes.other_kinds
    english = report_html([read_record_bytes("s", data)], "en")
    assert "1 two-step attack was cancelled at the table" in english
    assert "Kira Rhyne · Autorifle: loaded 3 → 20, by Player (kept)" in english
    russian = report_html([read_record_bytes("s", data)], "ru")
    assert "Kira Rhyne · Autorifle: loaded 3 → 20, изменил(а) Player (оставлено)" in russian
