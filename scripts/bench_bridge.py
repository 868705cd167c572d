"""Benchmark the bridge over a real socket and print the numbers.

Starts ``volley serve`` as a separate process (loopback, a free port, a temporary data directory, the
rate limit raised so the benchmark measures the server and not the limiter), then measures:

1. round-trip latency of ``ping``, ``odds`` and ``attack`` on one connection, one request at a time
   (median, p90, p99, max); an ``attack`` includes the fsync of its journal line;
2. throughput of ``attack`` with N concurrent clients, each keeping a window of requests in flight;
3. the journal's group commit (lines per fsync, mean and slowest fsync), read from ``/healthz``.

Usage::

    .venv/bin/python scripts/bench_bridge.py [--requests 500] [--clients 1 8 32] [--per-client 200]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "bench"
ATTACK: dict[str, Any] = {
    "system": "gurps",
    "attacker": {"id": "a1", "name": "Kane", "skill": 12},
    "weapon": {"name": "MP5", "rof": 13, "rcl": 2, "loaded": 30, "capacity": 30, "malf": 17},
    "shots": 10,
    "targets": [{"id": "t1", "name": "Ganger", "modifier": -2, "dodge": 9}],
}


def start_server(data: Path) -> tuple[subprocess.Popen[str], str]:
    process = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "bridge.cli",
            "serve",
            "--port",
            "0",
            "--token",
            TOKEN,
            "--data-dir",
            str(data),
            "--config-dir",
            str(data / "config"),
            "--rate",
            "1000000",
            "--burst",
            "1000000",
            "--log-level",
            "warning",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    for line in process.stdout:
        if "listening on" in line:
            return process, line.split("listening on ", 1)[1].strip()
    raise SystemExit(f"server did not start: {process.stderr.read() if process.stderr else ''}")


async def hello(url: str) -> ClientConnection:
    ws = await connect(url, compression=None)
    await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


async def latency(url: str, kind: str, count: int) -> list[float]:
    ws = await hello(url)
    times = []
    for k in range(count + 20):
        message: dict[str, Any] = {"type": kind, "id": f"{kind}-{k}-{time.monotonic_ns()}"}
        if kind != "ping":
            message["request"] = ATTACK
        frame = json.dumps(message)
        started = time.perf_counter()
        await ws.send(frame)
        reply = json.loads(await ws.recv())
        elapsed = time.perf_counter() - started
        assert reply["type"] in ("pong", "odds", "result"), reply
        if k >= 20:  # the first few warm up caches
            times.append(elapsed)
    await ws.close()
    return times


async def client_load(url: str, name: str, count: int, window: int) -> int:
    ws = await hello(url)
    sent = received = 0
    while received < count:
        while sent < count and sent - received < window:
            await ws.send(json.dumps({"type": "attack", "id": f"{name}-{sent}", "request": ATTACK}))
            sent += 1
        reply = json.loads(await ws.recv())
        assert reply["type"] == "result", reply
        received += 1
    await ws.close()
    return received


async def throughput(url: str, clients: int, per_client: int, window: int) -> tuple[int, float]:
    tag = time.monotonic_ns()
    started = time.perf_counter()
    done = await asyncio.gather(
        *(client_load(url, f"t{tag}-{c}", per_client, window) for c in range(clients))
    )
    return sum(done), time.perf_counter() - started


def health(url: str) -> dict[str, Any]:
    http = url.replace("ws://", "http://").removesuffix("/ws") + "/healthz"
    with urllib.request.urlopen(http, timeout=10) as response:
        body: dict[str, Any] = json.loads(response.read())
        return body


def report(label: str, times: list[float]) -> None:
    ms = [t * 1000 for t in times]
    print(
        f"  {label:<7} n={len(ms):<5} median {statistics.median(ms):7.3f} ms"
        f"   p90 {percentile(ms, 0.9):7.3f} ms   p99 {percentile(ms, 0.99):7.3f} ms   max {max(ms):7.3f} ms"
    )


async def run(args: argparse.Namespace, url: str) -> None:
    print(f"latency, one connection, one request at a time ({args.requests} each):")
    for kind in ("ping", "odds", "attack"):
        report(kind, await latency(url, kind, args.requests))
    before = health(url)["journal"]
    print(f"\nthroughput, attack, window of {args.window} in flight per client:")
    for clients in args.clients:
        total, seconds = await throughput(url, clients, args.per_client, args.window)
        print(
            f"  {clients:>3} clients: {total:>6} attacks in {seconds:6.3f} s"
            f" = {total / seconds:8.0f} attacks/s"
        )
    after = health(url)["journal"]
    lines = after["lines"] - before["lines"]
    batches = after["batches"] - before["batches"]
    print("\njournal group commit during the throughput runs:")
    print(f"  {lines} lines in {batches} fsyncs = {lines / max(batches, 1):.2f} lines per fsync")
    print(
        f"  largest batch {after['largest_batch']}; whole run: mean fsync {after['mean_fsync_ms']} ms, "
        f"slowest {after['slowest_fsync_ms']} ms"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description="Benchmark the Volley bridge over a real socket.")
    parser.add_argument("--requests", type=int, default=500, help="requests per latency measurement")
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 8, 32], help="concurrent clients")
    parser.add_argument(
        "--per-client", type=int, default=200, help="attacks per client in the throughput run"
    )
    parser.add_argument("--window", type=int, default=8, help="requests each client keeps in flight")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        process, url = start_server(Path(tmp))
        try:
            print(f"bridge at {url} (python {sys.version.split()[0]}, {os.cpu_count()} cpus)\n")
            asyncio.run(run(args, url))
        finally:
            process.send_signal(signal.SIGTERM)
            process.communicate(timeout=30)
        print(f"\nserver exit code after SIGTERM: {process.returncode}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
