"""Exact odds: how long the live preview takes, how cold the worst case is, and what sampling would cost.

Part of ``scripts/bench.py``; run alone it prints the odds figures:

1. every example request's exact odds, warm (the dialog recomputes them on every change): median and
   p99 of ``rules.odds`` in this process;
2. the worst MegaTraveller case the dialog can send (24 tokens, 48 rounds, empty magazine), cold, in a
   fresh process after ``rules.warm_up()`` (what a bridge worker has done before its first preview):
   every split of the 24 tokens between chosen targets and bystanders, and a sweep of smaller ones;
3. the same examples sampled instead: 10,000 seeded rolls each, against one exact computation.

    .venv/bin/python scripts/bench_odds.py [--runs 200] [--rolls 10000]
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted((ROOT / "docs" / "examples").glob("*/*.json"))
#: (tokens, chosen) of the smaller splits the sweep times cold, besides every split of 24 tokens.
SWEEP = [(4, 3), (4, 2), (6, 3), (6, 6), (8, 4), (8, 8), (12, 4), (12, 12), (16, 8)]


def examples() -> list[tuple[str, Any]]:
    import rules

    return [(f"{path.parent.name}/{path.stem}", rules.decode_request(path.read_bytes())) for path in EXAMPLES]


def warm_odds(runs: int) -> dict[str, tuple[float, float]]:
    """Example -> (median, p99) milliseconds of exact odds once its caches are warm."""
    import rules

    out = {}
    for name, request in examples():
        rules.odds(request)
        samples = []
        for _ in range(runs):
            started = time.perf_counter()
            rules.odds(request)
            samples.append(1000 * (time.perf_counter() - started))
        samples.sort()
        out[name] = (statistics.median(samples), samples[min(len(samples) - 1, int(0.99 * len(samples)))])
    return out


def sampling(rolls: int) -> dict[str, tuple[float, float]]:
    """Example -> (seconds for ``rolls`` seeded rolls, seconds for its exact odds, warm median)."""
    import msgspec

    import rules

    out = {}
    for path in EXAMPLES:
        raw = json.loads(path.read_bytes())
        if isinstance(raw.get("allocation"), list):
            continue  # an allocation that only fits its scripted pool cannot be sampled
        raw.pop("dice", None)
        request = rules.decode_request(msgspec.json.encode(raw))
        exact = []
        for _ in range(21):
            started = time.perf_counter()
            rules.odds(request)
            exact.append(time.perf_counter() - started)
        started = time.perf_counter()
        for seed in range(rolls):
            rules.resolve(request, rules.dice_for(request, seed))
        out[f"{path.parent.name}/{path.stem}"] = (time.perf_counter() - started, statistics.median(exact))
    return out


def worst_case_request(tokens: int, chosen: int) -> dict[str, Any]:
    sys.path.insert(0, str(ROOT / "scripts"))
    from bench_bridge import worst_case_preview

    return worst_case_preview(tokens, chosen)


def cold_in_this_process() -> dict[str, Any]:
    """Warm up as a worker does, then time every worst-case split cold (run in a fresh process)."""
    import rules

    started = time.perf_counter()
    rules.warm_up()
    warm_up_ms = 1000 * (time.perf_counter() - started)
    gc.freeze()  # as a rules worker does after its warm-up

    def cold(tokens: int, chosen: int) -> float:
        request = rules.decode_request(worst_case_request(tokens, chosen))
        started = time.perf_counter()
        rules.odds(request)
        took = 1000 * (time.perf_counter() - started)
        gc.freeze()  # as a rules worker does after each preview
        return took

    splits = {chosen: cold(24, chosen) for chosen in range(1, 25)}
    worst = max(splits, key=lambda chosen: splits[chosen])
    sweep = {f"{tokens} tokens, {chosen} chosen": cold(tokens, chosen) for tokens, chosen in SWEEP}
    slowest = max(sweep, key=lambda shape: sweep[shape])
    return {
        "warm_up_ms": warm_up_ms,
        "worst_24_ms": splits[worst],
        "worst_24_chosen": worst,
        "median_24_ms": statistics.median(splits.values()),
        "sweep_max_ms": sweep[slowest],
        "sweep_max_shape": slowest,
    }


def cold_worst(processes: int = 3) -> dict[str, Any]:
    """:func:`cold_in_this_process` in fresh processes; the median of each figure over them.

    A cold computation happens once per process, so noise (another engineer's build, a context
    switch) cannot be averaged out within one: this takes the middle of three.
    """
    runs = []
    for _ in range(processes):
        done = subprocess.run(
            [sys.executable, str(Path(__file__)), "--cold-json"],
            capture_output=True,
            text=True,
            cwd=ROOT,
            check=True,
            timeout=300,
        )
        runs.append(json.loads(done.stdout))
    middle = sorted(runs, key=lambda run: run["worst_24_ms"])[len(runs) // 2]
    return {
        **middle,
        "warm_up_ms": statistics.median(run["warm_up_ms"] for run in runs),
        "sweep_max_ms": statistics.median(run["sweep_max_ms"] for run in runs),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=200)
    parser.add_argument("--rolls", type=int, default=10_000)
    parser.add_argument("--cold-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.cold_json:
        print(json.dumps(cold_in_this_process()))
        return 0
    print(f"{'request':<50} {'median ms':>10} {'p99 ms':>8}")
    for name, (median, p99) in warm_odds(args.runs).items():
        print(f"{name:<50} {median:>10.3f} {p99:>8.3f}")
    cold = cold_worst()
    print(
        f"cold after warm-up ({cold['warm_up_ms']:.0f} ms): 24 tokens, 48 rounds, empty magazine: "
        f"worst {cold['worst_24_ms']:.1f} ms ({cold['worst_24_chosen']} chosen), median "
        f"{cold['median_24_ms']:.1f} ms; smaller splits up to {cold['sweep_max_ms']:.1f} ms "
        f"({cold['sweep_max_shape']})"
    )
    for name, (sampled, exact) in sampling(args.rolls).items():
        speedup = f"{sampled / exact:8.0f}x"
        print(f"{name:<50} {args.rolls} rolls {sampled:6.2f} s, exact {1000 * exact:6.3f} ms: {speedup}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
