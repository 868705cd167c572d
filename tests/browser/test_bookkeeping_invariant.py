"""The bookkeeping invariant (issue #31), a short seeded run per system (devkit/bookkeeping.py):
fire, two-step fire, allocate, cancel, reload, unjam, undo, delete cards, reload the referee's page, a
player's console write (put back) and a referee's (kept), in seeded random order; then every weapon's
rounds equal the rounds at the start plus what each applied, not undone card changed plus what changed
outside Volley (reported, or still to be reported on the weapon's next card), and every change outside
Volley was told. ``scripts/bookkeeping_soak.py`` runs long ones.
"""

from __future__ import annotations

import json

import pytest
from browserkit import Table

from devkit.bookkeeping import SETUPS, BookkeepingRun


@pytest.mark.parametrize("system", list(SETUPS))
def test_every_round_is_counted_once(table: Table, system: str) -> None:
    figures = BookkeepingRun(table, system, seed=31, steps=24).run()
    report = json.dumps(figures.as_dict(), indent=1)
    assert figures.broken == [], report
    # The run resolved something the books count (an applied result, kept or undone since).
    assert figures.weapons_checked == 3 and figures.results_applied + figures.results_undone > 0, report
    assert table.pages.errors == [], report
