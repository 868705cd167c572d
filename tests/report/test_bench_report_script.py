"""`scripts/bench_report.py` runs from a checkout as the performance doc says (it imports the report's
test kits, and broke once when those kits moved): small sessions, every part, exit 0."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_bench_report_runs_from_a_checkout() -> None:
    command = [sys.executable, str(ROOT / "scripts" / "bench_report.py"), "--requests", "40"]
    command += ["--sizes", "40,80", "--live-requests", "60", "--spell-seconds", "1"]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, done.stderr
    assert "session: 40 requests" in done.stdout
    assert "volley report, a fresh process" in done.stdout
    assert "peak memory x" in done.stdout
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    assert figures["report_live_requests"] == 60
    assert figures["report_live_ping_p99_ratio"] > 0 and figures["report_live_child_peak_mib"] > 0
