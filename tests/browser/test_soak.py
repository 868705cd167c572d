"""A short soak (scripts/soak.py) in the suite: attacks one after another through the real dialog,
in each system, leave no page error. Times are the script's to print, never a test's to judge."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from browserkit import ROOT, Table

sys.path.insert(0, str(ROOT / "scripts"))
from soak import SYSTEMS, soak

ATTACKS = 12


@pytest.mark.parametrize("system", sorted(SYSTEMS))
def test_a_short_soak_leaves_no_page_error(table: Table, system: str) -> None:
    page = table.ready(scene=SYSTEMS[system]["scene"])
    result = soak(page, ATTACKS, system, table.pages.errors)
    assert len(result.times_ms) == ATTACKS
    assert len(page.evaluate("[...document.querySelectorAll('.volley-card')]")) >= ATTACKS
    assert table.pages.errors == []
    assert result.warnings == [], "no Foundry compatibility warning from Volley's code"


def test_the_script_is_where_the_docs_say() -> None:
    assert (Path(ROOT) / "scripts" / "soak.py").is_file()
