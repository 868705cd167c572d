"""Every choice a dialog offers is one the rules accept (issue #31), generated: each system's real
attack dialog, on the referee's sandbox page, walked through seeded random states (devkit/
dialog_walker.js: weapons, magazines full, short, empty and jammed, readiness and locks, 0 to 4
targets, every field of the form at ordinary and odd values, random clicks). Whatever the dialog lets
the user send is never refused by the referee's browser or the bridge; whatever it refuses, it refuses
before sending, naming the field by the label it shows; a disabled button says why.

A short seeded run here; ``scripts/bookkeeping_soak.py --walk`` runs long ones.
"""

from __future__ import annotations

import json

import pytest
from browserkit import Table

from devkit.walk import SHOOTERS, walk


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
