"""The ``volley`` command: how fast ``volley odds`` starts, and how fast ``volley replay`` goes.

Part of ``scripts/bench.py``:

1. ``volley odds < example`` for one example per system, against ``python -c pass`` (the same
   interpreter and site-packages, so only what Volley itself loads is measured);
2. ``volley replay`` of a long session (the recorded sessions' lines many times over, under fresh
   ids) on every core, against the single-core rate of re-resolving the same entries in-process.

    .venv/bin/python scripts/bench_cli.py [--runs 15] [--replay-copies 600]
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PYTHON = sys.executable
VOLLEY = str(Path(sys.executable).with_name("volley"))
#: One example per system: what a script piping requests into ``volley odds`` starts with.
CLI_EXAMPLES = [
    ROOT / "docs" / "examples" / "gurps" / "mp5_burst.json",
    ROOT / "docs" / "examples" / "megatraveller" / "burst_two_targets.json",
    ROOT / "docs" / "examples" / "d100" / "long_burst.json",
]
REPLAYS = sorted((ROOT / "tests" / "replays").glob("*.jsonl"))


def _median_run(command: list[str], stdin: bytes | None, runs: int) -> float:
    times = []
    for _ in range(runs):
        started = time.perf_counter()
        subprocess.run(command, input=stdin, stdout=subprocess.DEVNULL, check=True, cwd=ROOT)
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def cli_start(runs: int) -> tuple[float, dict[str, float]]:
    """(``python -c pass`` seconds, example -> ``volley odds`` seconds), medians, interleaved."""
    base: list[float] = []
    odds: dict[str, list[float]] = {path.parent.name: [] for path in CLI_EXAMPLES}
    for _ in range(3):  # rounds, so a burst of load elsewhere weighs on both alike
        base.append(_median_run([PYTHON, "-c", "pass"], None, runs))
        for path in CLI_EXAMPLES:
            odds[path.parent.name].append(_median_run([VOLLEY, "odds"], path.read_bytes(), runs))
    return statistics.median(base), {name: statistics.median(times) for name, times in odds.items()}


def long_session(target: Path, copies: int) -> int:
    """Every recorded session's entries ``copies`` times under fresh ids, in one journal."""
    header = REPLAYS[0].read_bytes().split(b"\n", 1)[0]
    count = 0
    with open(target, "wb") as out:
        out.write(header + b"\n")
        for k in range(copies):
            for recording in REPLAYS:
                for line in recording.read_bytes().splitlines()[1:]:
                    record = json.loads(line)
                    old = record["id"]
                    fresh = line.replace(f'"id":"{old}"'.encode(), f'"id":"{k}-{old}"'.encode())
                    if record.get("pending_id"):
                        pending = record["pending_id"]
                        fresh = fresh.replace(
                            f'"pending_id":"{pending}"'.encode(), f'"pending_id":"{k}-{pending}"'.encode()
                        )
                    out.write(fresh + b"\n")
                    count += 1
    return count


def single_core_rate(path: Path, limit: int) -> float:
    """Entries re-resolved per second in this process, one core (decode, resolve, encode the reply)."""
    from bridge.cli.replay import replay_entry
    from bridge.store.lines import Entry, decode_line

    entries = []
    with open(path, "rb") as handle:
        handle.readline()
        for line in handle:
            record = decode_line(line)
            if isinstance(record, Entry):
                entries.append(record)
            if len(entries) == limit:
                break
    for entry in entries[:200]:
        replay_entry(entry)  # warm the caches, as a long replay would be after its first entries
    started = time.perf_counter()
    for entry in entries:
        replay_entry(entry)
    return len(entries) / (time.perf_counter() - started)


def replay_rate(path: Path, entries: int) -> tuple[float, str]:
    """Entries per second of ``volley replay PATH`` (the whole command, start-up included)."""
    started = time.perf_counter()
    done = subprocess.run(
        [VOLLEY, "replay", str(path), "--no-progress"], capture_output=True, text=True, check=False, cwd=ROOT
    )
    seconds = time.perf_counter() - started
    verdict = done.stdout.strip().splitlines()[-1] if done.stdout.strip() else done.stderr.strip()
    return entries / seconds, verdict


def cores() -> int:
    """The cores ``volley replay`` runs its workers on (the ratio's denominator must be the same)."""
    from bridge.cli.replay import replay_workers

    return replay_workers()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--replay-copies", type=int, default=600)
    args = parser.parse_args()
    base, odds = cli_start(args.runs)
    for name, seconds in odds.items():
        ratio = f"{seconds / base:.2f} x python -c pass ({1000 * base:.1f} ms)"
        print(f"volley odds ({name}): {1000 * seconds:.1f} ms = {ratio}")
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "long.jsonl"
        entries = long_session(path, args.replay_copies)
        single = single_core_rate(path, 4000)
        rate, verdict = replay_rate(path, entries)
    print(f"replay: {entries} entries, {rate:.0f}/s on {cores()} cores; one core in-process {single:.0f}/s")
    print(f"  {verdict}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
