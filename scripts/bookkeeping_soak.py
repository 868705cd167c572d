"""Long runs of the bookkeeping checks (issue #31), on one ``volley sandbox`` with headless Chromium.

Two checks, each seeded and repeatable, per rule system:

* ``--walk``: the generated dialog-vs-rules walk (devkit/dialog_walker.js): the system's real
  attack dialog through random states and clicks; whatever it sends must be accepted, whatever it
  refuses must be refused before sending, naming the field by its label.
* the bookkeeping invariant (devkit/bookkeeping.py): random sequences of fire, two-step
  fire, allocate, cancel, reload, unjam, undo, deleted cards, a reloaded referee page and console writes
  by a player and by the referee; then every weapon's rounds must equal the record's count.

Each run prints one JSON line (its figures); the last line sums them per check. Exit 1 when anything
broke. The suite runs short versions (tests/browser/test_dialog_walk.py,
test_bookkeeping_invariant.py); this is for long ones::

    .venv/bin/python scripts/bookkeeping_soak.py --seeds 1-5 --steps 80
    .venv/bin/python scripts/bookkeeping_soak.py --walk --seeds 1-5 --steps 300
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from devkit.bookkeeping import SETUPS, BookkeepingRun  # noqa: E402
from devkit.browser import CHROMIUM, CHROMIUM_ARGS, Pages, Sandbox, Shots, Table  # noqa: E402
from devkit.walk import walk  # noqa: E402


def seeds_of(text: str) -> list[int]:
    """``"1-5"`` or ``"3,7,9"``."""
    if "-" in text:
        low, high = (int(part) for part in text.split("-", 1))
        return list(range(low, high + 1))
    return [int(part) for part in text.split(",") if part]


@contextmanager
def browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
        )
        try:
            yield chromium
        finally:
            chromium.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--walk", action="store_true", help="the dialog-vs-rules walk instead of the invariant"
    )
    parser.add_argument("--systems", default=",".join(SETUPS), help="comma-separated (default: all three)")
    parser.add_argument("--seeds", default="1-3", help='seeds: "1-5" or "3,7" (default 1-3)')
    parser.add_argument("--steps", type=int, default=60, help="steps per run (default 60)")
    args = parser.parse_args(argv)
    systems = [s for s in args.systems.split(",") if s]
    totals: Counter[str] = Counter()
    broken = 0
    started = time.monotonic()
    with tempfile.TemporaryDirectory() as workdir, browser() as chromium:
        for system in systems:
            for seed in seeds_of(args.seeds):
                # A fresh sandbox per run: its bridge's holds and journal are that run's alone.
                sandbox = Sandbox(Path(workdir) / f"{system}-{seed}")
                (Path(workdir) / f"{system}-{seed}").mkdir()
                sandbox.start()
                context = chromium.new_context(viewport={"width": 1440, "height": 900})
                try:
                    table = Table(sandbox, Pages(context), Shots())
                    line, failed = run_one(table, system, seed, args)
                finally:
                    context.close()
                    sandbox.stop()
                print(json.dumps(line, ensure_ascii=False), flush=True)
                totals.update({k: v for k, v in line["counts"].items() if isinstance(v, int)})
                totals["runs"] += 1
                broken += failed
    summary = {
        "check": "walk" if args.walk else "invariant",
        "systems": systems,
        "seeds": args.seeds,
        "steps_per_run": args.steps,
        "totals": dict(totals),
        "broken": broken,
        "seconds": round(time.monotonic() - started, 1),
    }
    print(json.dumps(summary, ensure_ascii=False), flush=True)
    return 1 if broken else 0


def run_one(table: Table, system: str, seed: int, args: argparse.Namespace) -> tuple[dict[str, Any], int]:
    """One seeded run: its JSON line, and how many things broke."""
    if args.walk:
        page = table.ready(scene=system)
        outcome = walk(page, system, seed, args.steps)
        errors = list(table.pages.errors)
        failed = int(outcome["failed"]) + len(errors)
        line = {"system": system, "seed": seed, "counts": outcome["seen"], "failed": failed}
        if failed:
            line["failures"] = outcome["failures"][:5]
            line["page_errors"] = errors[:5]
        return line, failed
    figures = BookkeepingRun(table, system, seed, args.steps).run()
    facts = figures.as_dict()
    counts = {
        "steps": sum(figures.steps.values()),
        "results_applied": figures.results_applied,
        "results_undone": figures.results_undone,
        "outside_reported": figures.outside_reported,
        "outside_pending": figures.outside_pending,
        "put_back_told": figures.put_back_told,
        "player_writes": figures.player_writes,
        "gm_writes": figures.gm_writes,
        "weapons_checked": figures.weapons_checked,
    }
    errors = list(table.pages.errors)
    failed = len(figures.broken) + len(errors)
    line = {
        "system": system,
        "seed": seed,
        "counts": counts,
        "steps": facts["steps"],
        "outcomes": facts["outcomes"],
        "failed": failed,
    }
    if failed:
        line["broken"] = figures.broken
        line["page_errors"] = errors[:5]
        # What the run did last, step by step: where to start reading a broken run.
        line["trail"] = facts["trail"]
    return line, failed


if __name__ == "__main__":
    sys.exit(main())
