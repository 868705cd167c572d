"""Every performance figure of the bridge, each against a baseline measured in the same run.

Prints readable lines as it goes and ends with ONE line of JSON (the figures docs/performance.md
explains). Runs in a few minutes on a 2-core machine. The parts are scripts of their own:

* ``bench_odds.py``: exact odds warm (the live preview), cold worst case, against 10,000 sampled rolls;
* ``bench_cli.py``: ``volley odds`` start-up against ``python -c pass``; ``volley replay`` on every core
  against one core in-process;
* ``bench_bridge.py`` (with ``bench_echo.py`` and ``bench_durable.py``): round trips against a bare
  aiohttp echo plus one fsync, and against a durable echo (an fsynced line of the bridge's size before
  each reply, group-committed as the bridge does: ``rtt_p50_vs_durable``, ``throughput_vs_durable``),
  throughput against the echo server, another client's ping under 16 cold previews, memory with 200
  idle connections and with a client that never reads;
* ``bench_history.py``: start time and memory with 100,000 earlier replies, against an empty directory;
* ``bench_report.py``: ``volley report``'s peak memory against the session's size, and a lone attack's
  round trip while ``/report/current`` builds a 100,000-request session's page, against it alone.

Nothing is timed before the bridge's rules workers are warm (``/healthz``). Volley's bytecode is
compiled first, as installing a wheel does (this sandbox sets PYTHONDONTWRITEBYTECODE, which would
otherwise make every start compile the sources).

    .venv/bin/python scripts/bench.py [--quick] [--only odds|cli|wire|history|report ...] [--runs N]

With ``--runs N`` the whole bench runs N times in a row; each run prints its own JSON line (with the
load average at its start and end), and a last line gives each figure's median over the N runs (a
flag: whether it held in every run).
"""

from __future__ import annotations

import argparse
import asyncio
import compileall
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent))

import bench_bridge as wire
import bench_cli as cli
import bench_history as history
import bench_odds as odds
import bench_report as report

ROOT = Path(__file__).resolve().parent.parent


def load() -> str:
    return Path("/proc/loadavg").read_text().split()[0] if Path("/proc/loadavg").exists() else "?"


def section(title: str) -> None:
    print(f"\n== {title}  (load {load()})", flush=True)


def bench_odds(figures: dict[str, Any], quick: bool) -> None:
    section("odds: the live preview, the cold worst case, sampling")
    warm = odds.warm_odds(50 if quick else 200)
    worst_name, (_, worst_p99) = max(warm.items(), key=lambda item: item[1][1])
    print(f"  warm exact odds, {len(warm)} examples: worst p99 {worst_p99:.3f} ms ({worst_name})")
    cold = odds.cold_worst(1 if quick else 3)
    print(
        f"  cold after warm-up ({cold['warm_up_ms']:.0f} ms), 24 tokens / 48 rounds / empty magazine: "
        f"worst {cold['worst_24_ms']:.1f} ms ({cold['worst_24_chosen']} chosen), median "
        f"{cold['median_24_ms']:.1f} ms over the 24 splits"
    )
    print(f"  smaller splits, cold: up to {cold['sweep_max_ms']:.1f} ms ({cold['sweep_max_shape']})")
    rolls = 2000 if quick else 10_000
    sampled = odds.sampling(rolls)
    speedups = {name: seconds / exact for name, (seconds, exact) in sampled.items()}
    slowest = min(speedups, key=lambda name: speedups[name])
    print(
        f"  {rolls} sampled rolls vs exact odds: {statistics.median(speedups.values()):.0f}x median, "
        f"{speedups[slowest]:.0f}x at least ({slowest})"
    )
    figures.update(
        odds_p99_ms=round(worst_p99, 3),
        odds_cold_worst_ms=round(cold["worst_24_ms"], 2),
        odds_cold_median_ms=round(cold["median_24_ms"], 2),
        odds_cold_sweep_max_ms=round(cold["sweep_max_ms"], 1),
        odds_speedup_vs_sampling=round(speedups[slowest] * 10_000 / rolls),
        odds_speedup_vs_sampling_median=round(statistics.median(speedups.values()) * 10_000 / rolls),
    )


def bench_cli(figures: dict[str, Any], quick: bool) -> None:
    section("volley odds start-up, volley replay")
    base, starts = cli.cli_start(5 if quick else 10)
    for name, seconds in starts.items():
        print(
            f"  volley odds < {name} example: {1000 * seconds:.1f} ms = {seconds / base:.2f} x python -c pass"
        )
    print(f"  python -c pass: {1000 * base:.1f} ms")
    ratios = [seconds / base for seconds in starts.values()]
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.jsonl"
        entries = cli.long_session(path, 150 if quick else 2000)
        single = cli.single_core_rate(path, 4000)
        rate, verdict = cli.replay_rate(path, entries)
    cores = cli.cores()
    print(f"  replay of {entries} entries: {rate:.0f}/s on {cores} cores ({verdict})")
    print(f"  one core, in-process: {single:.0f}/s; ideal on {cores} cores: {cores * single:.0f}/s")
    figures.update(
        cli_start_ratio=round(statistics.median(ratios), 2),
        cli_start_ratio_worst=round(max(ratios), 2),
        python_start_ms=round(1000 * base, 1),
        replay_per_s=round(rate),
        replay_single_core_per_s=round(single),
        replay_core_ratio=round(rate / (cores * single), 2),
        cores=cores,
    )


#: Attacks a client that never reads sends (the bridge's memory must not grow with them).
NON_READING_ATTACKS = 30_000
#: Interleaved throughput rounds per server (each reports its median).
THROUGHPUT_ROUNDS = 5
THROUGHPUT_ROUNDS_QUICK = 3


async def _wire(
    bridge: wire.ServeProcess,
    echo: wire.ServeProcess,
    durable: wire.ServeProcess,
    data: Path,
    *,
    figures: dict[str, Any],
    quick: bool,
) -> None:
    per_round = 150 if quick else 300
    samples = await wire.interleaved_rtt(bridge, echo, data, 3 if quick else 5, per_round, durable=durable)
    cpu_attack, cpu_echo = samples.pop("cpu_per_attack")[0], samples.pop("cpu_per_echo")[0]
    for label, values in samples.items():
        wire.show(label, values)
    print(
        f"  server CPU per request, one at a time: echo {1e6 * cpu_echo:.0f} us, "
        f"attack {1e6 * cpu_attack:.0f} us (its write + fsync included)"
    )
    for label, values in (await wire.reference_rtt(bridge, per_round)).items():
        wire.show(label, values)
    s = {label: wire.summary(values) for label, values in samples.items()}
    clients, per_client, window = 32, 60 if quick else 150, 8
    rates: dict[str, list[float]] = {"echo": [], "durable": [], "bridge": []}
    cpu: dict[str, list[float]] = {"echo": [], "durable": [], "bridge": []}
    # Interleaved rounds, each server's median: a round is a second or less on a slow host, so the
    # best of two (as before) mostly measured which server met the quieter second.
    for _ in range(THROUGHPUT_ROUNDS_QUICK if quick else THROUGHPUT_ROUNDS):
        for label, served in (("echo", echo), ("durable", durable), ("bridge", bridge)):
            rate, seconds = await wire.throughput_and_cpu(
                served, bridge=served is bridge, clients=clients, per_client=per_client, window=window
            )
            rates[label].append(rate)
            cpu[label].append(seconds)
    echo_rate, bridge_rate = statistics.median(rates["echo"]), statistics.median(rates["bridge"])
    durable_rate = statistics.median(rates["durable"])
    shape = f"{clients} clients x window {window}"
    print(
        f"  throughput, {shape}, median of {len(rates['bridge'])} interleaved rounds: echo "
        f"{echo_rate:.0f}/s, durable echo {durable_rate:.0f}/s, bridge attack {bridge_rate:.0f}/s"
    )
    for label, values in rates.items():
        print(f"    {label:<8} rounds: " + ", ".join(f"{value:.0f}" for value in values))
    print(
        f"  against the durable baseline: round trip p50 x{s['attack']['p50'] / s['durable']['p50']:.2f}, "
        f"throughput x{bridge_rate / durable_rate:.2f}"
    )
    cpu_echo_loaded, cpu_bridge_loaded = statistics.median(cpu["echo"]), statistics.median(cpu["bridge"])
    print(
        f"  server CPU per message under that load (median): echo {1e6 * cpu_echo_loaded:.0f} us, "
        f"bridge {1e6 * cpu_bridge_loaded:.0f} us"
    )
    idle, loaded = await wire.ping_under_load(bridge, rounds=3 if quick else 6, previews=16)
    wire.show("ping, idle", idle)
    wire.show("ping, 16 cold previews", loaded)
    offloaded = wire.health(bridge)["workers"]["offloaded"]
    print(f"  previews computed in a rules worker: {offloaded}")
    figures.update(
        echo_p50_ms=round(s["echo"]["p50"], 3),
        fsync_p50_ms=round(s["fsync"]["p50"], 3),
        attack_p50_ms=round(s["attack"]["p50"], 3),
        echo_p99_ms=round(s["echo"]["p99"], 3),
        fsync_p99_ms=round(s["fsync"]["p99"], 3),
        attack_p99_ms=round(s["attack"]["p99"], 3),
        rtt_p50_ratio=round(s["attack"]["p50"] / (s["echo"]["p50"] + s["fsync"]["p50"]), 2),
        rtt_p99_ratio=round(s["attack"]["p99"] / (s["echo"]["p99"] + s["fsync"]["p99"]), 2),
        throughput_echo_per_s=round(echo_rate),
        throughput_bridge_per_s=round(bridge_rate),
        throughput_ratio=round(bridge_rate / echo_rate, 2),
        durable_p50_ms=round(s["durable"]["p50"], 3),
        durable_p99_ms=round(s["durable"]["p99"], 3),
        throughput_durable_per_s=round(durable_rate),
        rtt_p50_vs_durable=round(s["attack"]["p50"] / s["durable"]["p50"], 2),
        throughput_vs_durable=round(bridge_rate / durable_rate, 2),
        cpu_us_per_attack_sequential=round(1e6 * cpu_attack),
        cpu_us_per_echo_sequential=round(1e6 * cpu_echo),
        cpu_us_per_attack_loaded=round(1e6 * cpu_bridge_loaded),
        cpu_us_per_echo_loaded=round(1e6 * cpu_echo_loaded),
        ping_p99_idle_ms=round(wire.summary(idle)["p99"], 3),
        ping_p99_under_load_ms=round(wire.summary(loaded)["p99"], 3),
        ping_p99_under_load_ratio=round(wire.summary(loaded)["p99"] / wire.summary(idle)["p99"], 2),
    )


def bench_wire(figures: dict[str, Any], quick: bool) -> None:
    section("the bridge over a socket, against an echo server and one fsync")
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        with wire.running(wire.start_echo()) as echo, wire.running(wire.start_bridge(data)) as bridge:
            warm = wire.wait_ready(bridge, warm=True)
            line = asyncio.run(wire.journal_line(bridge, data))
            with wire.running(wire.start_durable(data, len(line))) as durable:
                print(f"  rules workers warm {warm:.1f} s after listening; timing starts now")
                print(f"  durable baseline: echo after an fsynced {len(line)}-byte line, group-committed")
                asyncio.run(_wire(bridge, echo, durable, data, figures=figures, quick=quick))
    with tempfile.TemporaryDirectory() as tmp, wire.running(wire.start_bridge(Path(tmp))) as bridge:
        wire.wait_ready(bridge, warm=True)
        before, with_200 = asyncio.run(wire.idle_connections(bridge, 200))
        workers = [wire.rss_mib(pid) for pid in wire.health(bridge)["workers"]["pids"]]
        deaf = asyncio.run(wire.non_reading_client(bridge, NON_READING_ATTACKS))
    print(f"  bridge RSS: {before:.1f} MiB idle, {with_200:.1f} MiB with 200 authenticated idle connections")
    print(f"  (each rules worker, a process of its own: {', '.join(f'{w:.1f}' for w in workers)} MiB)")
    growth = deaf["rss_peak"] - deaf["rss_before"]
    print(
        f"  a client that never reads, {NON_READING_ATTACKS} attacks sent: bridge RSS "
        f"{deaf['rss_before']:.1f} -> peak {deaf['rss_peak']:.1f} MiB (+{growth:.1f}); "
        f"{deaf['resolved']:.0f} resolved before it was cut off after {deaf['cut_off_s']:.1f} s"
    )
    figures.update(
        rss_mb_idle=round(before, 1),
        rss_mb_200_idle=round(with_200, 1),
        rss_mb_growth_non_reading=round(growth, 1),
        non_reading_resolved=round(deaf["resolved"]),
    )


def bench_history(figures: dict[str, Any], quick: bool) -> None:
    replies = 20_000 if quick else 100_000
    section(f"start and memory with {replies} earlier replies")
    with tempfile.TemporaryDirectory() as tmp:
        results = history.run(replies, 2 if quick else 5, Path(tmp))
    history.report(results, replies)
    empty, *full = results
    figures.update(
        start_ms_empty=round(1000 * empty.start),
        start_ms_100k=round(1000 * max(r.start for r in full)),
        first_start_ms_100k=round(1000 * max(r.first for r in full)),
        start_ratio_100k=round(max(r.start for r in full) / empty.start, 2),
        rss_ratio_100k=round(max(r.memory for r in full) / empty.memory, 2),
        retries_byte_for_byte=all(r.retries_ok for r in full),
    )


def bench_report(figures: dict[str, Any], quick: bool) -> None:
    section("the report: memory against the session's size; the table while a live report is built")
    figures.update(
        report.run(
            ["rss", "live"],
            quick=quick,
            requests=0,
            sizes=[300, 1200] if quick else [2500, 10_000, 40_000],
            live_requests=2_000 if quick else 100_000,
            seed=1,
        )
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer samples (a smoke test, not figures)")
    parts = {
        "odds": bench_odds,
        "cli": bench_cli,
        "wire": bench_wire,
        "history": bench_history,
        "report": bench_report,
    }
    parser.add_argument(
        "--only",
        action="append",
        choices=list(parts),
        help="run only this part (repeat for several); all of them by default",
    )
    parser.add_argument(
        "--runs",
        type=int,
        default=1,
        metavar="N",
        help="run the bench N times and print each figure's median",
    )
    args = parser.parse_args()
    compileall.compile_dir(ROOT / "rules", quiet=1)
    compileall.compile_dir(ROOT / "bridge", quiet=1)
    runs: list[dict[str, Any]] = []
    for run in range(max(1, args.runs)):
        if args.runs > 1:
            print(f"\n##### run {run + 1} of {args.runs}")
        started = time.perf_counter()
        print(f"Volley bench: python {sys.version.split()[0]}, {os.cpu_count()} cpus, load {load()}")
        figures: dict[str, Any] = {"load_average_start": _load_figure()}
        for name, part in parts.items():
            if args.only is None or name in args.only:
                part(figures, args.quick)
        figures["bench_seconds"] = round(time.perf_counter() - started)
        figures["load_average_end"] = _load_figure()
        print(f"\nbench took {figures['bench_seconds']} s")
        print(json.dumps(figures))
        runs.append(figures)
    if len(runs) > 1:
        print(f"\n##### each figure's median over {len(runs)} runs (each run's line above)")
        for figures in runs:
            print(json.dumps(figures))
        print(json.dumps(medians(runs)))
    return 0


def _load_figure() -> float | None:
    return float(load()) if load() != "?" else None


def medians(runs: list[dict[str, Any]]) -> dict[str, Any]:
    """Each figure's median over the runs (a flag: whether it held in every run; a figure missing
    from a run is left out of that figure's median)."""
    out: dict[str, Any] = {"runs": len(runs)}
    for name in dict.fromkeys(name for figures in runs for name in figures):
        values = [figures[name] for figures in runs if figures.get(name) is not None]
        if values and all(isinstance(value, bool) for value in values):
            out[name] = all(values)
        elif values and all(isinstance(value, (int, float)) for value in values):
            middle = statistics.median(values)
            out[name] = round(middle, 3) if isinstance(middle, float) else middle
    return out


if __name__ == "__main__":
    sys.exit(main())
