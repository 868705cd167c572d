"""Start time and memory with a long history: 100,000 earlier replies, in one file and in 100 files.

Part of ``scripts/bench.py``. The history is made of the recorded sessions' real lines (every system,
every size of reply) under fresh ids. For each data directory -- empty, one file, 100 files -- the
bridge is started once to index it (the first start after an upgrade, or after the index was lost),
then started again several times: seconds until ``/healthz`` answers, and the server's resident memory
once its rules workers are warm. A retried id from the history must get its reply back byte for byte.

    .venv/bin/python scripts/bench_history.py [--replies 100000] [--starts 3]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import bench_bridge as wire

ROOT = Path(__file__).resolve().parent.parent
RECORDINGS = sorted((ROOT / "tests" / "replays").glob("*.jsonl"))


def recorded_lines() -> list[tuple[bytes, str]]:
    """Every resolved line of the recorded sessions, with its id (pending two-step lines left out)."""
    out = []
    for path in RECORDINGS:
        for line in path.read_bytes().splitlines()[1:]:
            record = json.loads(line)
            if record.get("kind") == "resolved" and record.get("outcome") == "result":
                out.append((line, record["id"]))
    return out


def header(name: str) -> bytes:
    return json.dumps(
        {
            "kind": "header",
            "format": 1,
            "session": name,
            "started": "2026-01-01T00:00:00Z",
            "rules_version": "0.1.0",
            "bridge_version": "0.1.0",
            "systems": {},
        },
        separators=(",", ":"),
    ).encode()


def write_history(sessions: Path, *, files: int, replies: int) -> dict[str, bytes]:
    """``replies`` journaled replies over ``files`` session files; a sample of id -> reply bytes."""
    sessions.mkdir(parents=True, exist_ok=True)
    lines = recorded_lines()
    per_file = replies // files
    sample: dict[str, bytes] = {}
    pick = set(random.Random(9).sample(range(replies), 20))
    n = 0
    for f in range(files):
        name = f"2025{f // 28 + 1:02d}{f % 28 + 1:02d}T120000.000000Z-{f:06x}"
        with open(sessions / f"{name}.jsonl", "wb") as out:
            out.write(header(name) + b"\n")
            chunk = []
            for _ in range(per_file):
                line, old = lines[n % len(lines)]
                new = f"h{n:07d}"
                fresh = line.replace(f'"id":"{old}"'.encode(), f'"id":"{new}"'.encode())
                chunk.append(fresh)
                if n in pick:  # the reply is the line's last field, verbatim
                    sample[new] = fresh[fresh.index(b',"reply":') + len(b',"reply":') : -1]
                n += 1
                if len(chunk) == 1000:
                    out.write(b"\n".join(chunk) + b"\n")
                    chunk = []
            if chunk:
                out.write(b"\n".join(chunk) + b"\n")
    return sample


@dataclass
class Starts:
    label: str
    first: float
    seconds: list[float]
    rss: list[float]
    retries_ok: bool

    @property
    def start(self) -> float:
        return statistics.median(self.seconds)

    @property
    def memory(self) -> float:
        return statistics.median(self.rss)


async def _retry(url: str, sample: dict[str, bytes]) -> bool:
    ws = await wire.hello(url)
    ok = True
    for id, reply in sample.items():
        await ws.send(json.dumps({"type": "attack", "id": id, "request": wire.GURPS_MP5}))
        got = await ws.recv()
        ok = ok and (got.encode() if isinstance(got, str) else got) == reply
    await ws.close()
    return ok


def _one_start(data: Path) -> tuple[float, float, wire.ServeProcess]:
    started = time.perf_counter()
    served = wire.start_bridge(data)
    wire.wait_ready(served, warm=False)
    seconds = time.perf_counter() - started
    wire.wait_ready(served, warm=True)
    time.sleep(0.3)
    return seconds, wire.rss_mib(served.pid), served


def run(replies: int, starts: int, root: Path) -> list[Starts]:
    """Empty, one file and 100 files, each with ``replies`` replies (the empty one with none).

    Each directory is indexed by a first start; then the starts go round the three directories in
    turn, so that a burst of load elsewhere on the machine weighs on all of them alike.
    """
    shapes = (("empty", 0), ("1 file", 1), ("100 files", 100))
    data = {label: root / label.replace(" ", "-") for label, _ in shapes}
    samples = {}
    results = {}
    for label, files in shapes:
        (data[label] / "sessions").mkdir(parents=True, exist_ok=True)
        samples[label] = (
            write_history(data[label] / "sessions", files=files, replies=replies) if files else {}
        )
        first, _, served = _one_start(data[label])
        served.stop(timeout=60)
        results[label] = Starts(label, first, [], [], True)
    for round in range(starts):
        for label, _ in shapes:
            took, memory, served = _one_start(data[label])
            results[label].seconds.append(took)
            results[label].rss.append(memory)
            if round == 0 and samples[label]:
                results[label].retries_ok = asyncio.run(_retry(served.url, samples[label]))
            served.stop(timeout=60)
    return [results[label] for label, _ in shapes]


def report(results: list[Starts], replies: int) -> None:
    for r in results:
        print(
            f"  {r.label:<10} start {1000 * r.start:6.0f} ms (first, indexing: {1000 * r.first:6.0f} ms)"
            f"  RSS {r.memory:6.1f} MiB  retries byte for byte: {'yes' if r.retries_ok else 'NO'}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--replies", type=int, default=100_000)
    parser.add_argument("--starts", type=int, default=3)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        results = run(args.replies, args.starts, Path(tmp))
    print(f"start and memory with {args.replies} earlier replies:")
    report(results, args.replies)
    return 0


if __name__ == "__main__":
    sys.exit(main())
