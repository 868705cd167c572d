"""The d100 system through the real ``volley`` command, as a user pipes it: results, odds and refusals."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from clikit import run_volley
from d100_helpers import VEX, vex

VOLLEY = Path(sys.executable).parent / "volley"


def _volley(args: list[str], request: dict[str, Any]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(VOLLEY), *args], input=json.dumps(request), capture_output=True, text=True, check=False
    )


def test_the_issues_request_with_scripted_dice() -> None:
    """12 against 45 - 10 = 35: three degrees, three hits at head, body and left leg; 20 rounds left."""
    done = _volley(["roll"], dict(VEX, dice=[12, 5, 50, 90]))
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [t["hits"] for t in result["targets"]] == [3]
    assert result["targets"][0]["locations"] == ["head", "body", "left_leg"]
    assert result["weapon"] == {"loaded": 20, "jammed": False, "spoiled": 0, "braced": False, "reserve": None}
    assert result["updates"] == [{"token": "a1", "state": {"weapon.loaded": 20}}]
    assert [r["face"] for r in result["rolls"]] == [12, 5, 50, 90]


def test_a_jam_through_the_command() -> None:
    result = json.loads(_volley(["roll"], dict(VEX, dice=[97])).stdout)
    assert result["weapon"]["jammed"] is True and result["weapon"]["spoiled"] == 20
    assert result["updates"][0]["state"] == {"weapon.loaded": 0, "weapon.jammed": True, "weapon.spoiled": 20}


def test_odds_through_the_command() -> None:
    done = _volley(["odds"], VEX)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert [round(p, 12) for p in result["targets"][0]["hits"]] == [0.65, 0.06, 0.1, 0.1, 0.09]
    assert round(result["jam"], 12) == 0.05


def test_a_refusal_from_the_real_command() -> None:
    done = _volley(["roll"], vex(weapon={"loaded": 2}))
    assert done.returncode == 2 and done.stdout == ""
    assert "$.mode: magazine has 2 rounds, long burst needs 10" in done.stderr


def test_bad_input_exits_2_naming_the_field_and_the_rule(capsys: pytest.CaptureFixture[str]) -> None:
    for request, line in [
        (vex(weapon={"loaded": 2}), "$.mode: magazine has 2 rounds, long burst needs 10"),
        (vex(weapon={"rof": "S/3/-"}), "$.mode: Autogun has no long-burst RoF (S/3/-); long burst needs it"),
        (vex(weapon={"jammed": True}), "$.weapon.jammed: weapon is jammed; clear it first (unjam)"),
        (vex(weapon={"rof": "S/3/\u00b2"}), "$.weapon.rof: RoF 'S/3/\u00b2': the long-burst position"),
    ]:
        for command in (["roll", "--seed", "3"], ["odds"]):
            code, out, err = run_volley(command, capsys, json.dumps(request))
            assert code == 2, (command, out)
            assert out == ""
            assert line in err, err
