"""The rolls needed, worked out ahead: ``rolls_needed`` and ``order_rolls_needed`` (``power``) for the
dice and levels pages meet, read from ``power_table.json`` instead of searched for in every process
that builds a report (the search simulates the loaded die some forty times: a second or more a page).

The table holds what a fresh search gives, for every die in ``DICE`` at the level a page of up to
``MOST_LOOKS`` corrected tests judges at (``WATCH_P / looks``), at ``JUDGE_POWER``. It is used only
when its fingerprint is this checkout's: the bytes of ``power.py``, ``distributions.py`` and
``laws.py`` (the search and everything it calls) and the NumPy and SciPy versions (their draws and
distributions). Anything else (an edited search, other libraries, a die or level outside the table)
is searched for as before. ``scripts/power_table.py`` writes it;
``tests/report/test_report_power_table.py`` fails when it is stale (its sources edited without
rewriting it) and checks its entries against fresh searches under the libraries installed; a newer
NumPy or SciPy than the table's only makes it unused until it is rewritten, and fails no test unless
the fresh searches now answer differently.
"""

from __future__ import annotations

import hashlib
import json
from functools import cache
from pathlib import Path
from typing import Any

__all__ = [
    "DICE",
    "KINDS",
    "MOST_LOOKS",
    "TABLE",
    "entries",
    "fingerprint",
    "grid",
    "libraries",
    "sources_digest",
    "table_json",
]

#: The table: beside this file, shipped in the package.
TABLE = Path(__file__).with_name("power_table.json")
#: What the table's numbers come from: a change to either file makes the table unused until rewritten.
SOURCES = ("power.py", "distributions.py", "laws.py")
#: The die sizes the systems roll and the report's tests use.
DICE = (2, 3, 4, 6, 8, 10, 12, 20, 100)
#: The most corrected tests a page's level is worked out for (a page of several die sizes has two
#: tests per die and the luck chart; one more for a test left out of the correction).
MOST_LOOKS = 16
#: The two searches: the counts test against the loaded die, the repeats test against the sticky die.
KINDS = ("counts", "order")

Key = tuple[str, int, float, float]


def fingerprint() -> str:
    """The sources' bytes and the libraries' versions the table's numbers come from."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(TABLE.with_name(name).read_bytes())
    digest.update(libraries().encode())
    return digest.hexdigest()


def sources_digest() -> str:
    """The sources' part of the fingerprint alone: what a developer's edit changes (the table says it
    too, so a test can tell a stale table from a newer NumPy or SciPy, which only makes it unused)."""
    digest = hashlib.sha256()
    for name in SOURCES:
        digest.update(TABLE.with_name(name).read_bytes())
    return digest.hexdigest()


def libraries() -> str:
    """The libraries' part of the fingerprint: the NumPy and SciPy versions."""
    import numpy as np
    import scipy  # type: ignore[import-untyped]

    return f"numpy {np.__version__} scipy {scipy.__version__}"


def grid() -> list[Key]:
    """Every (kind, die, level, target) the table holds."""
    from bridge.report.fairness import WATCH_P
    from bridge.report.power import JUDGE_POWER

    return [
        (kind, die, WATCH_P / looks, JUDGE_POWER)
        for kind in KINDS
        for die in DICE
        for looks in range(1, MOST_LOOKS + 1)
    ]


@cache
def entries() -> dict[Key, int | None]:
    """The table's answers, or none at all when it is missing, unreadable or not this checkout's."""
    try:
        data = json.loads(TABLE.read_text(encoding="utf-8"))
        if data.get("fingerprint") != fingerprint():
            return {}
        return {(kind, die, level, target): needed for kind, die, level, target, needed in data["entries"]}
    except (OSError, ValueError, TypeError, KeyError):
        return {}


def table_json(answers: dict[Key, int | None]) -> str:
    """The table's file for these answers (one entry a line, so a change reads as a diff)."""
    lines = [json.dumps([*key, needed]) for key, needed in answers.items()]
    data: dict[str, Any] = {
        "fingerprint": fingerprint(),
        "sources": sources_digest(),
        "libraries": libraries(),
    }
    head = json.dumps(data)[:-1]
    return head + ', "entries": [\n' + ",\n".join(lines) + "\n]}\n"
