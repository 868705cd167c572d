"""Write the report's table of rolls needed (``bridge/report/power_table.json``) from fresh searches.

``bridge.report.power_table`` says what it holds and when it is used; the report's tests fail when it
is stale (``tests/report/test_report_power_table.py``). Run after changing ``bridge/report/power.py``
or ``distributions.py``, or the NumPy or SciPy version::

    .venv/bin/python scripts/power_table.py           # write it
    .venv/bin/python scripts/power_table.py --check   # search every entry afresh; exit 1 on a difference
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bridge.report import power_table
from bridge.report.power import search_order_rolls_needed, search_rolls_needed


def fresh() -> dict[power_table.Key, int | None]:
    """Every entry of the table, searched for afresh."""
    answers: dict[power_table.Key, int | None] = {}
    for key in power_table.grid():
        kind, die, level, target = key
        started = time.perf_counter()
        search = search_rolls_needed if kind == "counts" else search_order_rolls_needed
        answers[key] = search(die, level, target)
        seconds = time.perf_counter() - started
        print(f"{kind} d{die} at {level:.3g}: {answers[key]} ({seconds:.1f} s)", flush=True)
    return answers


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="compare with the table on disk, write nothing")
    args = parser.parse_args()
    text = power_table.table_json(fresh())
    if args.check:
        same = power_table.TABLE.exists() and power_table.TABLE.read_text(encoding="utf-8") == text
        print(f"{power_table.TABLE}: {'up to date' if same else 'STALE: run scripts/power_table.py'}")
        return 0 if same else 1
    power_table.TABLE.write_text(text, encoding="utf-8")
    print(f"wrote {power_table.TABLE}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
