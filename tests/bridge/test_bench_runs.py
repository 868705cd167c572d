"""``scripts/bench.py --runs N``: each figure's median over the runs (issue 38)."""

from __future__ import annotations

import sys
from pathlib import Path

SCRIPTS = Path(__file__).resolve().parents[2] / "scripts"


def test_each_figure_is_its_median_over_the_runs_and_a_flag_holds_only_if_it_held_in_every_run() -> None:
    sys.path.insert(0, str(SCRIPTS))
    try:
        import bench
    finally:
        sys.path.remove(str(SCRIPTS))
    runs = [
        {"throughput_vs_durable": 0.48, "cpu": 100, "ok": True, "load_average_end": None},
        {"throughput_vs_durable": 0.52, "cpu": 90, "ok": True, "load_average_end": 2.0},
        {"throughput_vs_durable": 0.55, "cpu": 120, "ok": False, "load_average_end": 4.0, "late": 1},
    ]
    assert bench.medians(runs) == {
        "runs": 3,
        "throughput_vs_durable": 0.52,
        "cpu": 100,
        "ok": False,
        "load_average_end": 3.0,
        "late": 1,
    }
