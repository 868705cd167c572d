"""Every choice a dialog offers is one the rules accept (issue #31), generated: each system's real
attack dialog, on the referee's sandbox page, walked through seeded random states (tests/browser/
dialog_walker.js: weapons, magazines full, short, empty and jammed, readiness and locks, 0 to 4
targets, every field of the form at ordinary and odd values, random clicks). Whatever the dialog lets
the user send is never refused by the referee's browser or the bridge; whatever it refuses, it refuses
before sending, naming the field by the label it shows; a disabled button says why.

A short seeded run here; ``scripts/bookkeeping_soak.py --walk`` runs long ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from browserkit import BUDGET_S, Table, ms

WALKER = (Path(__file__).parent / "dialog_walker.js").read_text(encoding="utf-8")

#: Per system: the sandbox scene's shooter and the other tokens on it.
SHOOTERS = {
    "gurps": ("tokHale000000001", ["tokRaider0000002", "tokLookout000003", "tokSentry0000004"]),
    "megatraveller": (
        "tokKira000000001",
        ["tokVargr00000002", "tokVargr00000003", "tokVargr00000004", "tokDace000000005"],
    ),
    "d100": ("tokVex0000000001", ["tokHeretic0000002", "tokCultist0000003", "tokDemagogue00004"]),
}


def walk(page: Any, system: str, seed: int, steps: int) -> dict[str, Any]:
    shooter, others = SHOOTERS[system]
    page.set_default_timeout(ms(BUDGET_S * 10))
    outcome: dict[str, Any] = page.evaluate(
        WALKER, {"seed": seed, "steps": steps, "shooter": shooter, "others": others, "system": system}
    )
    return outcome


@pytest.mark.parametrize("system", list(SHOOTERS))
def test_what_the_dialog_sends_the_rules_accept(table: Table, system: str) -> None:
    page = table.ready(scene=system)
    outcome = walk(page, system, seed=31, steps=70)
    assert outcome["failures"] == [], json.dumps(outcome, indent=1, ensure_ascii=False)[:6000]
    seen = outcome["seen"]
    assert seen["steps"] == 70
    # The walk reached both kinds of outcome, so it proves something: shots the rules took, and clicks
    # the dialog held back (a disabled button, or a refusal naming its field).
    held_back = seen["disabled"] + seen["refusedByDialog"]
    assert seen["accepted"] > 0 and held_back > 0 and seen["fields"] > 10, seen
    assert table.pages.errors == []
