"""The bridge over a real socket, measured against a bare aiohttp echo server and one fsync.

Part of ``scripts/bench.py`` (which prints every figure as a ratio to its baseline); run alone it prints
the wire figures only:

1. round trips, one request at a time: the echo server, one fsync of a journal line, and the bridge's
   ``attack`` (which includes that fsync), interleaved round by round so that a busy disk or a busy
   machine weighs on all three alike; ``ping`` and ``odds`` for reference;
2. throughput with N clients each keeping a window of requests in flight, bridge and echo alike;
3. another client's ``ping`` while 16 cold worst-case MegaTraveller previews are being computed,
   against its ``ping`` on an idle bridge;
4. the bridge's resident memory with 200 authenticated connections doing nothing;
5. the bridge's resident memory while a client that never reads sends 30,000 attacks (from a raw
   socket with a small receive buffer): it must stay flat, the client cut off once its outbox has
   stayed full for the stall time.

    .venv/bin/python scripts/bench_bridge.py [--rounds 5] [--per-round 300] [--clients 32]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

ROOT = Path(__file__).resolve().parent.parent
# The servers are started as the tests start them (devkit/serve.py).
sys.path.insert(0, str(ROOT))
from devkit.serve import GURPS_MP5, LISTENING, ServeProcess, memory_kib, serve_command  # noqa: E402

TOKEN = "bench"


def worst_case_preview(tokens: int, chosen: int) -> dict[str, Any]:
    """MegaTraveller automatic fire from a 48-round magazine, emptied, at ``tokens`` tokens.

    The worst the attack dialog can send (issue 9): 24 tokens, 48 rounds, empty magazine. Each split
    between chosen targets and bystanders is its own cold computation.
    """
    return {
        "system": "megatraveller",
        "mode": "auto",
        "attacker": {"id": "a", "name": "Gunner", "skill": 2, "dex": 9, "selector": "auto"},
        "weapon": {"name": "LMG", "auto": True, "auto_targets": chosen, "loaded": 48, "capacity": 48},
        "targets": [{"id": f"t{k}"} for k in range(chosen)]
        + [{"id": f"b{k}", "bystander": True} for k in range(tokens - chosen)],
        "empty_magazine": True,
    }


# --- processes ------------------------------------------------------------------------------------


def bridge_command(data: Path, *options: str) -> list[str]:
    return serve_command(
        data,
        data / "config",
        "--port",
        "0",
        "--token",
        TOKEN,
        "--rate",
        "1000000",
        "--burst",
        "1000000",
        "--log-level",
        "warning",
        "--max-connections",  # 200 authenticated idle sockets (the default leaves token holders 192)
        "300",
        *options,
    )


def start_bridge(data: Path, *options: str) -> ServeProcess:
    return ServeProcess(bridge_command(data, *options), stderr=subprocess.DEVNULL)


def start_echo() -> ServeProcess:
    command = [sys.executable, str(ROOT / "scripts" / "bench_echo.py")]
    return ServeProcess(command, until=LISTENING, stderr=subprocess.DEVNULL)


def start_durable(directory: Path, line_bytes: int) -> ServeProcess:
    """The durable baseline (``bench_durable.py``): echo after a durable line of ``line_bytes``."""
    command = [sys.executable, str(ROOT / "scripts" / "bench_durable.py"), str(directory), str(line_bytes)]
    return ServeProcess(command, until=LISTENING, stderr=subprocess.DEVNULL)


@contextmanager
def running(served: ServeProcess) -> Iterator[ServeProcess]:
    try:
        yield served
    finally:
        served.stop(timeout=60)


def health(served: ServeProcess) -> dict[str, Any]:
    with urllib.request.urlopen(served.http("/healthz"), timeout=10) as response:
        body: dict[str, Any] = json.loads(response.read())
        return body


def wait_ready(served: ServeProcess, *, warm: bool, timeout: float = 120.0) -> float:
    """Seconds until ``/healthz`` answers (and, with ``warm``, says every rules worker is warm)."""
    started = time.perf_counter()
    deadline = started + timeout
    while time.perf_counter() < deadline:
        try:
            body = health(served)
        except OSError:
            time.sleep(0.005)
            continue
        if not warm or body["workers"]["warm"]:
            return time.perf_counter() - started
        time.sleep(0.02)
    raise SystemExit("the bridge never became ready")


def cpu_seconds(pid: int) -> float:
    """User + system CPU time a process has used so far (Linux: /proc/PID/stat; 0 elsewhere)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid: int) -> float:
    """Resident memory of one process (Linux: /proc/PID/status)."""
    return memory_kib(pid) / 1024


# --- measuring ------------------------------------------------------------------------------------


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def summary(values: list[float]) -> dict[str, float]:
    ms = [v * 1000 for v in values]
    return {"p50": statistics.median(ms), "p90": percentile(ms, 0.9), "p99": percentile(ms, 0.99)}


def show(label: str, values: list[float]) -> None:
    s = summary(values)
    spread = f"p50 {s['p50']:7.3f} ms  p90 {s['p90']:7.3f} ms  p99 {s['p99']:7.3f} ms"
    print(f"  {label:<22} n={len(values):<5} {spread}")


async def hello(url: str, *, deflate: bool = False) -> ClientConnection:
    """An authenticated socket; ``deflate`` offers permessage-deflate, as a browser does."""
    ws = await connect(url, compression="deflate" if deflate else None, max_size=2**22)
    await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
    assert json.loads(await ws.recv())["type"] == "welcome"
    return ws


async def round_trips(ws: ClientConnection, make: Callable[[int], str], count: int) -> list[float]:
    times = []
    for k in range(count):
        frame = make(k)
        started = time.perf_counter()
        await ws.send(frame)
        await ws.recv()
        times.append(time.perf_counter() - started)
    return times


def fsync_round(directory: Path, line: bytes, count: int) -> list[float]:
    """``count`` appends of ``line``, each written and fsynced on its own (what one attack's commit costs)."""
    path = directory / "bench-fsync.jsonl"
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
    times = []
    try:
        for _ in range(count):
            started = time.perf_counter()
            os.write(fd, line)
            os.fsync(fd)
            times.append(time.perf_counter() - started)
    finally:
        os.close(fd)
        path.unlink()
    return times


_counter = iter(range(1 << 62))


def attack_frame(k: int) -> str:
    id = f"a{next(_counter)}-{time.monotonic_ns()}"
    return json.dumps({"type": "attack", "id": id, "request": GURPS_MP5})


def echo_frame(k: int) -> str:
    return attack_frame(k)  # the same bytes the bridge reads, echoed back


async def interleaved_rtt(
    bridge: ServeProcess,
    echo: ServeProcess,
    data: Path,
    rounds: int,
    per_round: int,
    *,
    durable: ServeProcess | None = None,
) -> dict[str, list[float]]:
    """Echo, fsync, durable echo and attack round trips, a round of each in turn, so noise weighs on
    all alike.

    The fsync appends the bridge's own journal line for one attack, in its own sessions directory.
    """
    line = await journal_line(bridge, data)
    fsync_dir = data / "sessions"
    samples: dict[str, list[float]] = {"echo": [], "fsync": [], "attack": []}
    to_bridge = await hello(bridge.url)
    to_echo = await connect(echo.url, compression=None, max_size=2**22)
    to_durable = None
    if durable is not None:
        samples["durable"] = []
        to_durable = await connect(durable.url, compression=None, max_size=2**22)
        await round_trips(to_durable, echo_frame, 50)
    await round_trips(to_bridge, attack_frame, 50)  # warm both paths
    await round_trips(to_echo, echo_frame, 50)
    cpu = {"echo": 0.0, "attack": 0.0}
    for _ in range(rounds):
        if to_durable is not None:
            samples["durable"] += await round_trips(to_durable, echo_frame, per_round)
        before = cpu_seconds(echo.pid)
        samples["echo"] += await round_trips(to_echo, echo_frame, per_round)
        cpu["echo"] += cpu_seconds(echo.pid) - before
        samples["fsync"] += await asyncio.to_thread(fsync_round, fsync_dir, line, per_round)
        before = cpu_seconds(bridge.pid)
        samples["attack"] += await round_trips(to_bridge, attack_frame, per_round)
        cpu["attack"] += cpu_seconds(bridge.pid) - before
    await to_bridge.close()
    await to_echo.close()
    if to_durable is not None:
        await to_durable.close()
    # Server CPU per request, one at a time (user + system: the bridge's includes its write + fsync).
    samples["cpu_per_echo"] = [cpu["echo"] / (rounds * per_round)]
    samples["cpu_per_attack"] = [cpu["attack"] / (rounds * per_round)]
    return samples


async def journal_line(bridge: ServeProcess, data: Path) -> bytes:
    """The journal line one attack writes, exactly (what the fsync baseline appends). The journal is
    live: its lines end where the zeros it lays ahead of them begin."""
    ws = await hello(bridge.url)
    await ws.send(attack_frame(0))
    await ws.recv()
    await ws.close()
    (session,) = sorted((data / "sessions").glob("*.jsonl"), key=lambda path: path.stat().st_mtime)[-1:]
    return session.read_bytes().rstrip(b"\0").splitlines(keepends=True)[-1]


async def reference_rtt(bridge: ServeProcess, count: int) -> dict[str, list[float]]:
    ws = await hello(bridge.url)
    out = {
        "ping": await round_trips(ws, lambda k: json.dumps({"type": "ping", "id": f"p{k}"}), count),
        "odds (gurps)": await round_trips(
            ws, lambda k: json.dumps({"type": "odds", "id": f"o{k}", "request": GURPS_MP5}), count
        ),
    }
    await ws.close()
    return out


async def _client_load(url: str, make: Callable[[int], str], count: int, window: int, bridge: bool) -> int:
    ws = await hello(url) if bridge else await connect(url, compression=None, max_size=2**22)
    sent = received = 0
    while received < count:
        while sent < count and sent - received < window:
            await ws.send(make(sent))
            sent += 1
        await ws.recv()
        received += 1
    await ws.close()
    return received


async def throughput(url: str, *, bridge: bool, clients: int, per_client: int, window: int) -> float:
    """Messages per second with ``clients`` connections each keeping ``window`` in flight."""
    started = time.perf_counter()
    done = await asyncio.gather(
        *(_client_load(url, attack_frame, per_client, window, bridge) for _ in range(clients))
    )
    return sum(done) / (time.perf_counter() - started)


async def throughput_and_cpu(served: ServeProcess, *, bridge: bool, **load: int) -> tuple[float, float]:
    """``throughput`` against ``served``, and the server's CPU seconds per message meanwhile."""
    before = cpu_seconds(served.pid)
    rate = await throughput(served.url, bridge=bridge, **load)
    messages = load["clients"] * load["per_client"]
    return rate, (cpu_seconds(served.pid) - before) / messages


async def _pinger(ws: ClientConnection, stop: asyncio.Event, out: list[float]) -> None:
    k = 0
    while not stop.is_set():
        k += 1
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "ping", "id": f"q{k}"}))
        await ws.recv()
        out.append(time.perf_counter() - started)


#: How many ``nice`` steps the previewer (the load generator of ``ping_under_load``) runs below the
#: pinger and the bridge.
PREVIEWER_NICE = 19
#: (tokens, chosen) of every worst-case preview shape, in the order the rounds take them.
SHAPES = [(tokens, chosen) for tokens in range(24, 1, -1) for chosen in range(1, tokens + 1)]


async def ping_under_load(
    bridge: ServeProcess, *, rounds: int, previews: int, previewer_nice: int = PREVIEWER_NICE
) -> tuple[list[float], list[float]]:
    """Another client's pings on an idle bridge, then while ``previews`` cold worst cases run.

    The previews are sent by a client process of their own (``--previewer``), so reading their big
    replies does not delay the pinger's: only the bridge is measured. It runs ``previewer_nice``
    steps below the pinger and the bridge, so that on two cores the load generator does not take the
    pinger's or the bridge's core (it only has to send and read; the bridge does all the work it
    would do for a real table: decode, estimate, hand to a worker, forward the answer).
    """
    pinger = await hello(bridge.url)
    await round_trips(pinger, lambda k: json.dumps({"type": "ping", "id": f"w{k}"}), 200)
    idle: list[float] = []
    loaded: list[float] = []
    previewer = await asyncio.create_subprocess_exec(
        sys.executable,
        str(Path(__file__)),
        "--previewer",
        bridge.url,
        str(previews),
        str(previewer_nice),
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert previewer.stdin is not None and previewer.stdout is not None
    assert (await previewer.stdout.readline()).strip() == b"ready"
    for r in range(rounds):
        # An idle spell as long as the last loaded one, then a loaded one: each pair of spells sees
        # the same machine, so whatever else runs on it weighs on both alike.
        stop = asyncio.Event()
        pings = asyncio.create_task(_pinger(pinger, stop, loaded))
        started = time.perf_counter()
        previewer.stdin.write(f"{r}\n".encode())
        await previewer.stdin.drain()
        assert (await previewer.stdout.readline()).strip() == b"done"
        stop.set()
        await pings
        stop = asyncio.Event()
        pings = asyncio.create_task(_pinger(pinger, stop, idle))
        await asyncio.sleep(time.perf_counter() - started)
        stop.set()
        await pings
    previewer.stdin.close()
    await previewer.wait()
    await pinger.close()
    return idle, loaded


async def _preview_rounds(url: str, previews: int, nice: int = 0) -> None:
    """The previewer process: on each round number read from stdin, send that round's cold previews
    at once, wait for every reply, say "done". It lowers its own priority by ``nice`` first."""
    if nice and hasattr(os, "nice"):
        os.nice(nice)
    ws = await hello(url)
    print("ready", flush=True)
    loop = asyncio.get_running_loop()
    while line := await loop.run_in_executor(None, sys.stdin.readline):
        r = int(line)
        batch = SHAPES[r * previews : (r + 1) * previews]
        for n, (tokens, chosen) in enumerate(batch):
            request = worst_case_preview(tokens, chosen)
            await ws.send(json.dumps({"type": "odds", "id": f"cold{r}-{n}", "request": request}))
        for _ in batch:
            reply = await ws.recv()
            assert '"type":"odds"' in str(reply)[:40], str(reply)[:200]
        print("done", flush=True)
    await ws.close()


async def idle_connections(bridge: ServeProcess, count: int) -> tuple[float, float]:
    """The bridge's RSS before and with ``count`` authenticated connections doing nothing (MiB).

    The clients offer compression, as browsers do (the bridge declines it).
    """
    await asyncio.sleep(0.5)
    before = rss_mib(bridge.pid)
    sockets = [await hello(bridge.url, deflate=True) for _ in range(count)]
    await asyncio.sleep(1.0)
    with_them = rss_mib(bridge.pid)
    assert health(bridge)["connections"] == count
    await asyncio.gather(*(ws.close() for ws in sockets))
    return before, with_them


async def _raw_hello(url: str, receive_buffer: int) -> tuple[asyncio.StreamReader, asyncio.StreamWriter]:
    """A websocket spoken by hand over a socket with a small receive buffer, authenticated; nothing
    is read from it afterwards unless the caller reads."""
    import base64
    import socket

    host, port = url.removeprefix("ws://").removesuffix("/ws").rsplit(":", 1)
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, receive_buffer)
    sock.setblocking(False)
    await asyncio.get_running_loop().sock_connect(sock, (host, int(port)))
    reader, writer = await asyncio.open_connection(sock=sock, limit=1 << 14)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        f"GET /ws HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await reader.readuntil(b"\r\n\r\n")
    writer.write(_client_frame(json.dumps({"type": "hello", "token": TOKEN}).encode()))
    head = await reader.readexactly(2)
    await reader.readexactly(head[1] & 0x7F if head[1] & 0x7F < 126 else 0)  # the welcome (short)
    return reader, writer


def _client_frame(data: bytes) -> bytes:
    """A masked text frame (a zero mask: the bytes stay as they are)."""
    size = len(data)
    head = bytes([0x81]) + (
        bytes([0x80 | size])
        if size < 126
        else bytes([0x80 | 126]) + size.to_bytes(2, "big")
        if size < 1 << 16
        else bytes([0x80 | 127]) + size.to_bytes(8, "big")
    )
    return head + b"\0\0\0\0" + data


async def non_reading_client(bridge: ServeProcess, attacks: int) -> dict[str, float]:
    """A client that sends ``attacks`` attacks and reads nothing: the bridge's RSS before, its peak
    meanwhile, how many it resolved before the client was cut off, and how long that took (s)."""
    await asyncio.sleep(0.5)
    before = rss_mib(bridge.pid)
    resolved_before = health(bridge)["resolved"]
    _, writer = await _raw_hello(bridge.url, 4096)
    started = time.perf_counter()
    run = time.monotonic_ns()
    frames = b"".join(
        _client_frame(json.dumps({"type": "attack", "id": f"deaf{run}-{k}", "request": GURPS_MP5}).encode())
        for k in range(attacks)
    )
    writer.write(frames)
    peak = before
    while health(bridge)["connections"]:
        peak = max(peak, rss_mib(bridge.pid))
        await asyncio.sleep(0.1)
    cut_off = time.perf_counter() - started
    peak = max(peak, rss_mib(bridge.pid))
    writer.transport.abort()
    return {
        "rss_before": before,
        "rss_peak": peak,
        "resolved": health(bridge)["resolved"] - resolved_before,
        "cut_off_s": cut_off,
    }


# --- standalone ------------------------------------------------------------------------------------


async def run(args: argparse.Namespace, bridge: ServeProcess, echo: ServeProcess, data: Path) -> None:
    print("round trips, one request at a time (interleaved rounds):")
    samples = await interleaved_rtt(bridge, echo, data, args.rounds, args.per_round)
    for label in ("echo", "fsync", "attack"):
        show(label, samples[label])
    for label, values in (await reference_rtt(bridge, args.per_round)).items():
        show(label, values)
    print(f"\nthroughput, {args.clients} clients, window {args.window}:")
    for label, is_bridge, url in (("echo", False, echo.url), ("bridge attack", True, bridge.url)):
        rate = await throughput(
            url, bridge=is_bridge, clients=args.clients, per_client=args.per_client, window=args.window
        )
        print(f"  {label:<14} {rate:8.0f} messages/s")
    print("\nping while 16 cold worst-case previews run:")
    idle, loaded = await ping_under_load(bridge, rounds=4, previews=16)
    show("ping, idle", idle)
    show("ping, under load", loaded)


def main() -> int:
    if len(sys.argv) in (4, 5) and sys.argv[1] == "--previewer":
        asyncio.run(
            _preview_rounds(sys.argv[2], int(sys.argv[3]), int(sys.argv[4]) if len(sys.argv) == 5 else 0)
        )
        return 0
    parser = argparse.ArgumentParser(description="Benchmark the Volley bridge over a real socket.")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--per-round", type=int, default=300)
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--per-client", type=int, default=150)
    parser.add_argument("--window", type=int, default=8)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        data = Path(tmp)
        with running(start_echo()) as echo, running(start_bridge(data)) as bridge:
            wait_ready(bridge, warm=True)
            print(f"bridge at {bridge.url} (python {sys.version.split()[0]}, {os.cpu_count()} cpus)\n")
            asyncio.run(run(args, bridge, echo, data))
    return 0


if __name__ == "__main__":
    sys.exit(main())
