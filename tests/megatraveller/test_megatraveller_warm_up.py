"""warm_up fills the caches a typical automatic-fire preview needs, so the first preview is fast too."""

from __future__ import annotations

import json
from pathlib import Path

import msgspec

import rules
from rules.megatraveller.splits import is_cached

HONJO = (
    Path(__file__).resolve().parents[2]
    / "docs"
    / "examples"
    / "megatraveller"
    / "honjo_boram_auto_retarget.json"
)


def test_after_warm_up_a_40_round_burst_at_three_tokens_computes_no_new_split() -> None:
    rules.warm_up()
    request = json.loads(HONJO.read_text())
    request.pop("dice", None)
    request["weapon"].update(loaded=40, capacity=40)
    decoded = rules.decode_request(msgspec.json.encode(request))
    assert all(is_cached(remaining, 2, 1) for remaining in range(41))
    assert rules.odds_cost(decoded) < 1.0  # so the bridge computes it on the loop, not in a worker
    odds = rules.odds(decoded)
    assert [t.id for t in odds.targets] == [t["id"] for t in request["targets"]]


def test_the_registry_warms_every_system_that_asks() -> None:
    warmed = [system.name for system in rules.SYSTEMS.values() if system.warm_up is not None]
    assert "megatraveller" in warmed
