"""`scripts/bench_report.py` runs from a checkout as the performance doc says (it imports the report's
test kits, and broke once when those kits moved): a small session, end to end, exit 0."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_report_runs_from_a_checkout() -> None:
    done = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "bench_report.py"), "--requests", "40"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert "session: 40 requests" in done.stdout
    assert "volley report, a fresh process" in done.stdout
