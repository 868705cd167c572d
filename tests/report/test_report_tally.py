"""Adding sessions up: what each shooter spent and scored, what each target took, which faces fell."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest
from reportkit import REPLAYS

import rules
from bridge.report.record import read_record, read_record_bytes
from bridge.report.tally import tally

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
    assert len(max_.percentiles) == 2  # the allocate priced with its pool, not refused
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
    assert honjo.scripted == 1 and honjo.hits == 4 and not honjo.percentiles
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
    assert len(twice.percentiles) == len(once.percentiles)
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
