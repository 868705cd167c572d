"""The table of rolls needed (``bridge/report/power_table.json``) is this checkout's, says what a fresh
search says, and is what the page prints: a stale table fails here (regenerate it with
``scripts/power_table.py``), and a table written from other sources is never read."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest

from bridge.report import power_table
from bridge.report.power import (
    order_rolls_needed,
    rolls_needed,
    search_order_rolls_needed,
    search_rolls_needed,
)

STALE = "bridge/report/power_table.json is stale: run .venv/bin/python scripts/power_table.py"


def _on_disk() -> dict[str, object]:
    data: dict[str, object] = json.loads(power_table.TABLE.read_text(encoding="utf-8"))
    return data


def _entries_on_disk() -> dict[power_table.Key, int | None]:
    """The table's entries as written, whether or not this install's libraries would use it."""
    entries = _on_disk()["entries"]
    assert isinstance(entries, list)
    return {(kind, die, level, target): needed for kind, die, level, target, needed in entries}


def test_the_table_is_this_checkouts_and_holds_every_entry_of_its_grid() -> None:
    """Its sources are this checkout's, and every entry of the grid is there. (The libraries' versions
    are not asserted: a NumPy or SciPy newer than the table's, as a fresh install may get, only leaves
    the table unused; the fresh searches below say whether it still holds.)"""
    data = _on_disk()
    assert data["sources"] == power_table.sources_digest(), STALE
    if data["libraries"] == power_table.libraries():
        assert data["fingerprint"] == power_table.fingerprint(), STALE
    assert [tuple(entry[:4]) for entry in data["entries"]] == power_table.grid(), STALE


@pytest.fixture
def table_read(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The table read as the report reads it, whatever NumPy and SciPy are installed (their versions
    decide only whether it is used, which ``test_a_table_from_other_sources_is_never_read`` tests)."""
    monkeypatch.setattr(power_table, "fingerprint", lambda: _on_disk()["fingerprint"])
    power_table.entries.cache_clear()
    yield
    monkeypatch.undo()
    power_table.entries.cache_clear()


def test_the_report_reads_its_rolls_needed_from_the_table(table_read: None) -> None:
    assert len(power_table.entries()) == len(power_table.grid())
    for (kind, die, level, target), needed in power_table.entries().items():
        read = rolls_needed if kind == "counts" else order_rolls_needed
        assert read(die, level, target) == needed


def test_every_repeats_entry_is_what_a_fresh_search_says() -> None:
    """The repeats test's power is exact, its search quick: every entry is searched again."""
    for (kind, die, level, target), needed in _entries_on_disk().items():
        if kind == "order":
            assert search_order_rolls_needed(die, level, target) == needed, (die, level, STALE)


@pytest.mark.parametrize("die", power_table.DICE)
def test_counts_entries_are_what_a_fresh_search_says(die: int) -> None:
    """The counts test's search simulates (a d100's takes a second or two): each die is searched
    again at one level of the table, a different one for each die (``scripts/power_table.py --check``
    searches them all)."""
    levels = sorted({level for kind, d, level, _ in power_table.grid() if kind == "counts" and d == die})
    level = levels[power_table.DICE.index(die) * 5 % len(levels)]
    key = ("counts", die, level, power_table.grid()[0][3])
    assert search_rolls_needed(die, level, key[3]) == _entries_on_disk()[key], STALE


def test_a_table_from_other_sources_is_never_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Edit the search (or change NumPy or SciPy) without rewriting the table: the report searches
    afresh instead of trusting it."""
    monkeypatch.setattr(power_table, "fingerprint", lambda: "another checkout")
    power_table.entries.cache_clear()
    try:
        assert power_table.entries() == {}
    finally:
        monkeypatch.undo()
        power_table.entries.cache_clear()
    # Read again once the fingerprint is this install's (a newer NumPy or SciPy leaves it unused).
    assert bool(power_table.entries()) == (_on_disk()["libraries"] == power_table.libraries())
