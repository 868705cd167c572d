"""The example requests in docs/examples/gurps decode, roll and give odds (the benchmark times them)."""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from rules import decode_request, odds, request_schema, resolve
from rules.dice import SeededDice
from rules.gurps import SYSTEM
from rules.gurps.requests import AttackRequest, ReloadRequest, UnjamRequest

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "docs" / "examples" / "gurps").glob("*.json"))


def test_there_are_examples() -> None:
    assert 2 <= len(EXAMPLES) <= 4


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.name)
def test_example(path: Path) -> None:
    request = decode_request(path.read_bytes())
    exact = odds(request)
    for target in exact.targets:
        assert sum(target.hits) == pytest.approx(1.0, abs=1e-12)
    assert 0.0 <= exact.jam <= 1.0
    for seed in range(50):
        result = resolve(request, SeededDice(seed))
        encoded = msgspec.json.decode(msgspec.json.encode(result))
        assert encoded["system"] == "gurps"
        allowed = {"gurps.roll.to_hit", "gurps.roll.dodge", "gurps.roll.malfunction"}
        assert all(roll["for"]["key"] in allowed for roll in encoded["rolls"])
        assert encoded["updates"][0]["state"].keys() == {
            "weapon.loaded",
            "weapon.jammed",
            "weapon.malfunction",
        }


def test_schema_lists_every_gurps_type() -> None:
    # Systems share type names (Attacker, Weapon), so the schema names each definition "<system>.<Type>".
    schema = request_schema()
    names = set(schema["$defs"])
    for kind in (AttackRequest, ReloadRequest, UnjamRequest, *SYSTEM.result_types):
        assert f"gurps.{kind.__name__}" in names
    assert set(schema["requests"]["gurps"]["discriminator"]["mapping"]) == {"attack", "reload", "unjam"}
