"""Every GURPS number has a sane range (docs/rules/gurps.md, "Bounds"): outside it the request is
refused as ``invalid`` with the field named, never half-applied, and never a preview that is megabytes
or stalls the bridge (what the bridge does with a costly one is in tests/bridge/test_bridge_previews.py).
"""

from __future__ import annotations

from typing import Any

import msgspec
import pytest
from gurps_helpers import request

import rules
from bridge.protocol import MAX_REPLY_BYTES
from bridge.server.workers import OFFLOAD_MS
from rules import RuleError, decode_request, odds, resolve
from rules.dice import ScriptedDice
from rules.gurps.plan import MAX_PELLETS, MAX_ROF
from rules.gurps.requests import MAX_ROUNDS, MAX_TARGETS, MODIFIER_RANGE, SCORE_RANGE


def refusal(data: dict[str, Any]) -> RuleError:
    """The refusal of ``data``, whether decoding or the rules find it; nothing is rolled either way."""
    dice = ScriptedDice([])
    with pytest.raises(RuleError) as caught:
        resolve(decode_request(data), dice)
    assert dice.rolls == []
    with pytest.raises(RuleError) as caught_odds:
        odds(decode_request(data))
    assert caught_odds.value.path == caught.value.path
    return caught.value


@pytest.mark.parametrize(
    ("data", "path"),
    [
        (request(attacker={"skill": 500}), "$.attacker.skill"),
        (request(attacker={"skill": SCORE_RANGE[0] - 1}), "$.attacker.skill"),
        (request(target={"dodge": 101}), "$.targets[0].dodge"),
        (request(target={"modifier": MODIFIER_RANGE[1] + 1}), "$.targets[0].modifier"),
        (request(target={"modifier": -1000}), "$.targets[0].modifier"),
        (request(weapon={"loaded": MAX_ROUNDS + 1, "capacity": None}), "$.weapon.loaded"),
        (request(weapon={"capacity": MAX_ROUNDS + 1}), "$.weapon.capacity"),
        (request(weapon={"rcl": 1000}), "$.weapon.rcl"),
        (request(weapon={"malf": 1000}), "$.weapon.malf"),
        (request(dodge_step=1000), "$.dodge_step"),
        (request(weapon={"rof": MAX_ROF + 1}), "$.weapon.rof"),
        (request(weapon={"rof": f"3x{MAX_PELLETS + 1}"}), "$.weapon.rof"),
        (request(weapon={"rof": "1000000"}), "$.weapon.rof"),
        (
            request(shots=2, targets=[{"id": f"t{k}", "shots": 1} for k in range(MAX_TARGETS + 1)]),
            "$.targets",
        ),
    ],
)
def test_a_number_out_of_its_range_is_invalid_and_named(data: dict[str, Any], path: str) -> None:
    refused = refusal(data)
    assert (refused.path, refused.code) == (path, "invalid")
    assert refused.msg is not None  # a declared message, which every catalogue renders


def test_the_unjam_roll_is_bounded_too() -> None:
    unjam = {
        "system": "gurps",
        "action": "unjam",
        "attacker": {"id": "a1"},
        "weapon": {"loaded": 3, "jammed": True, "malfunction": "misfire"},
        "skill": 500,
    }
    assert refusal(unjam).path == "$.skill"
    assert refusal({**unjam, "skill": 12, "modifier": 1000}).path == "$.modifier"


def test_the_same_target_twice_is_refused_by_its_id() -> None:
    twice = request(targets=[{"id": "t1", "name": "Ganger", "shots": 6}, {"id": "t1", "shots": 4}])
    refused = refusal(twice)
    assert (refused.path, refused.code, refused.message) == (
        "$.targets[1].id",
        "invalid",
        "t1 is listed twice",
    )


def test_a_million_shots_is_refused_before_any_arithmetic() -> None:
    """The issue's preview: rof = loaded = shots = 10**6 was 4 MB computed on the loop."""
    million = request(shots=10**6, weapon={"rof": 10**6, "loaded": 10**6, "capacity": None})
    assert refusal(million).path == "$.weapon.loaded"  # out of range itself, and read first
    within = request(shots=10**6, weapon={"rof": 10**6, "loaded": MAX_ROUNDS, "capacity": None})
    assert refusal(within).path == "$.weapon.rof"


def test_the_costliest_legal_preview_fits_in_one_reply_and_is_sent_to_a_worker() -> None:
    """Every projectile the RoF can fire at one target (the longest ``hits`` list), and the same shared
    out among as many targets as the rules take, every one dodging (the most work)."""
    weapon = {"rof": f"{MAX_ROF}x{MAX_PELLETS}", "loaded": MAX_ROUNDS, "capacity": None, "rcl": 1}
    each = MAX_ROF // MAX_TARGETS
    crowd = [{"id": f"t{k}", "dodge": 12, "shots": each} for k in range(MAX_TARGETS)]
    for data in (
        request(shots=MAX_ROF, attacker={"skill": SCORE_RANGE[1]}, weapon=weapon),
        request(shots=each * MAX_TARGETS, attacker={"skill": SCORE_RANGE[1]}, weapon=weapon, targets=crowd),
    ):
        decoded = decode_request(data)
        assert len(msgspec.json.encode(odds(decoded))) < MAX_REPLY_BYTES
        assert rules.odds_cost(decode_request(data)) > OFFLOAD_MS


def test_an_ordinary_preview_stays_on_the_loop() -> None:
    assert rules.odds_cost(decode_request(request())) < OFFLOAD_MS
