"""Time the exact odds of every example request: the dialog recomputes them live on every change.

Target: well under 5 ms for a typical request. Prints one line per request, then the worst median.

    .venv/bin/python scripts/bench_odds.py [--runs N] [--warm-up] [FILES...]

"first ms" is the first call in this process: without --warm-up, what a one-off `volley odds` pays;
with it, what the bridge's first live preview pays.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

import rules

ROOT = Path(__file__).resolve().parent.parent


def time_odds(request: object, runs: int) -> list[float]:
    rules.odds(request)  # warm caches, as the live preview would be warm after its first call
    samples = []
    for _ in range(runs):
        start = time.perf_counter()
        rules.odds(request)
        samples.append((time.perf_counter() - start) * 1000.0)
    return samples


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument(
        "--warm-up", action="store_true", help="call rules.warm_up() first, as `volley serve` does at start"
    )
    parser.add_argument("files", nargs="*", type=Path)
    args = parser.parse_args()
    files = args.files or sorted((ROOT / "docs" / "examples").glob("*/*.json"))
    if not files:
        print("no example requests found under docs/examples/", file=sys.stderr)
        return 1
    if args.warm_up:
        start = time.perf_counter()
        rules.warm_up()
        print(f"rules.warm_up(): {(time.perf_counter() - start) * 1000.0:.1f} ms")
    print(f"{'request':<64} {'first ms':>9} {'median ms':>10} {'p99 ms':>8}")
    worst = 0.0
    for path in files:
        request = rules.decode_request(path.read_bytes())
        start = time.perf_counter()
        rules.odds(request)
        first = (time.perf_counter() - start) * 1000.0
        samples = sorted(time_odds(request, args.runs))
        median = statistics.median(samples)
        p99 = samples[min(len(samples) - 1, int(len(samples) * 0.99))]
        worst = max(worst, median)
        name = str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)
        print(f"{name:<64} {first:>9.3f} {median:>10.3f} {p99:>8.3f}")
    print(f"worst median: {worst:.3f} ms over {len(files)} requests ({args.runs} runs each)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
