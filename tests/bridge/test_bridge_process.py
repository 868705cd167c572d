"""``volley serve`` as a real process: killed mid-stream, restarted, stopped with SIGTERM / Ctrl-C.

The promise under test: a result the client received is on disk, whatever happens to the server
afterwards; a torn last line from a crash is cut on the next start, with a warning; a polite stop
finishes the requests in flight and exits 0.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from bridgekit import BUDGET_S, GURPS_MP5
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed

from bridge.store.reader import read_session
from devkit.serve import ROOT, TOKEN, ServeProcess, serve_command

#: Sockets, each streaming attacks with WINDOW of them always in flight until the server dies, so
#: the kill always lands mid-stream however fast the machine. The server runs with the rate limit
#: raised to match (a real client would be refused past 40 at once).
CLIENTS = 16
WINDOW = 50


class Server(ServeProcess):
    """``volley serve`` on its own directories, with the rate limit raised for the streaming clients
    (and no ``$VOLLEY_TOKEN`` from the environment: the token is ``TOKEN``)."""

    def __init__(self, data: Path, config: Path) -> None:
        env = {key: value for key, value in os.environ.items() if key != "VOLLEY_TOKEN"}
        options = ("--port", "0", "--token", TOKEN, "--rate", "100000", "--burst", str(10 * WINDOW))
        super().__init__(serve_command(data, config, *options), env=env)


@pytest.fixture
def dirs(tmp_path: Path) -> Iterator[tuple[Path, Path]]:
    yield tmp_path / "data", tmp_path / "config"


async def hello(url: str) -> ClientConnection:
    ws = await connect(url, open_timeout=BUDGET_S)
    await ws.send(json.dumps({"type": "hello", "token": TOKEN}))
    welcome = json.loads(await ws.recv())
    assert welcome["type"] == "welcome"
    return ws


async def fire_and_collect(url: str, prefix: str, count: int, acked: dict[str, str]) -> None:
    """Send ``count`` attacks and record every reply the moment it arrives, until the socket dies."""
    try:
        ws = await hello(url)
        for k in range(count):
            await ws.send(json.dumps({"type": "attack", "id": f"{prefix}-{k}", "request": GURPS_MP5}))
        async for frame in ws:
            reply = json.loads(frame)
            if reply["type"] == "result":
                acked[reply["id"]] = str(frame)
    except (ConnectionClosed, OSError):
        pass


async def stream_and_collect(url: str, prefix: str, acked: dict[str, str], sent: set[str]) -> None:
    """Keep ``WINDOW`` attacks in flight, record every reply as it arrives, until the socket dies."""
    try:
        ws = await hello(url)
        count = 0

        async def send_one() -> None:
            nonlocal count
            id = f"{prefix}-{count}"
            count += 1
            sent.add(id)
            await ws.send(json.dumps({"type": "attack", "id": id, "request": GURPS_MP5}))

        for _ in range(WINDOW):
            await send_one()
        async for frame in ws:
            reply = json.loads(frame)
            if reply["type"] == "result":
                acked[reply["id"]] = str(frame)
            await send_one()
    except (ConnectionClosed, OSError):
        pass


def journal(data: Path) -> dict[str, Any]:
    """id -> journaled reply (as decoded JSON), over every session. Whole lines only: a kill can
    leave the last line torn (never acknowledged: its write never finished), as every reader of a
    live or killed journal skips it."""
    found: dict[str, Any] = {}
    for path in sorted((data / "sessions").glob("*.jsonl")):
        for line in path.read_bytes().split(b"\n")[:-1]:
            record = json.loads(line)
            if record["kind"] == "resolved":
                found[record["id"]] = record["reply"]
    return found


@pytest.mark.asyncio
async def test_a_server_killed_between_lone_attacks_leaves_zeros_that_readers_skip_and_start_cuts(
    dirs: tuple[Path, Path],
) -> None:
    """Attacks one at a time are written over the zeros the journal lays ahead (Linux, as CI); a
    SIGKILL leaves those zeros. Read as it was left, the journal holds every acknowledged attack and
    nothing unreadable; the next start cuts the zeros, says so, and a retry gets the same bytes."""
    data, config = dirs
    server = Server(data, config)
    ws = await hello(server.url)
    acked: dict[str, str] = {}
    for k in range(20):
        await ws.send(json.dumps({"type": "attack", "id": f"lone-{k}", "request": GURPS_MP5}))
        acked[f"lone-{k}"] = str(await ws.recv())
    server.process.kill()
    server.process.communicate(timeout=BUDGET_S)
    (session,) = (data / "sessions").glob("*.jsonl")
    killed = session.read_bytes()
    lines = killed.rstrip(b"\0")
    assert len(killed) - len(lines) > 0, "the zeros laid ahead of the next line are still there"
    log = read_session(session)
    assert not log.problems and [entry.id for entry in log.entries] == list(acked)
    assert {entry.id: json.loads(bytes(entry.reply)) for entry in log.entries} == {
        id: json.loads(frame) for id, frame in acked.items()
    }
    restarted = Server(data, config)
    ws = await hello(restarted.url)
    await ws.send(json.dumps({"type": "attack", "id": "lone-7", "request": GURPS_MP5}))
    assert await ws.recv() == acked["lone-7"]
    await ws.close()
    code, err = restarted.stop(signal.SIGTERM)
    assert code == 0, err[-3000:]
    assert f"{session.name}: cut {len(killed) - len(lines):,} zero bytes past its last line" in err
    assert session.read_bytes() == lines


@pytest.mark.asyncio
async def test_every_acknowledged_result_survives_sigkill_and_a_torn_line_is_repaired(
    dirs: tuple[Path, Path],
) -> None:
    data, config = dirs
    server = Server(data, config)
    acked: dict[str, str] = {}
    sent: set[str] = set()
    clients = [
        asyncio.create_task(stream_and_collect(server.url, f"c{n}", acked, sent)) for n in range(CLIENTS)
    ]
    while len(acked) < 200:
        await asyncio.sleep(0.001)
    server.process.kill()  # SIGKILL mid-stream: no cleanup, no flush
    server.process.communicate(timeout=BUDGET_S)
    await asyncio.gather(*clients)

    on_disk = journal(data)
    print(f"acknowledged {len(acked)}, journaled {len(on_disk)}, sent {len(sent)}")
    assert len(acked) >= 200
    assert len(sent) > len(acked), "the kill should have caught requests in flight"
    missing = [id for id in acked if id not in on_disk]
    assert missing == [], f"{len(missing)} acknowledged results were not on disk"
    for id, frame in acked.items():
        assert on_disk[id] == json.loads(frame)

    # A crash mid-write leaves half a line, here over the zeros the journal lays ahead of its lines
    # (under this load its big batches are appended, so the kill may have left none); the next start
    # cuts both and says so.
    (session,) = (data / "sessions").glob("*.jsonl")
    lines = session.read_bytes().rstrip(b"\0")
    intact = lines[: lines.rfind(b"\n") + 1]  # what the kill itself may have torn goes too
    session.write_bytes(lines + b'{"kind":"resolved","id":"torn-1","type":"att' + bytes(4096))
    restarted = Server(data, config)
    ws = await hello(restarted.url)
    some_id, some_frame = next(iter(acked.items()))
    await ws.send(json.dumps({"type": "attack", "id": some_id, "request": GURPS_MP5}))
    assert await ws.recv() == some_frame  # retried after the crash: same bytes, not re-rolled
    await ws.close()
    code, err = restarted.stop(signal.SIGTERM)
    assert code == 0, err[-3000:]
    assert "cut a torn last line" in err and session.name in err
    assert session.read_bytes() == intact


@pytest.mark.asyncio
@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "Ctrl-C"])
async def test_a_polite_stop_finishes_requests_in_flight_and_exits_0(
    dirs: tuple[Path, Path], signum: int
) -> None:
    data, config = dirs
    server = Server(data, config)
    acked: dict[str, str] = {}
    clients = [asyncio.create_task(fire_and_collect(server.url, f"s{n}", 30, acked)) for n in range(4)]
    while len(acked) < 10:
        await asyncio.sleep(0.001)
    code, err = server.stop(signum)
    await asyncio.gather(*clients)
    assert code == 0, err
    assert "journal flushed" in err
    on_disk = journal(data)
    assert all(id in on_disk for id in acked)
    # Every request the server read was finished and answered before the sockets closed.
    assert set(on_disk) == set(acked)


def test_a_non_loopback_host_needs_allow_remote(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    result = subprocess.run(
        serve_command(data, config, "--host", "0.0.0.0", "--token", TOKEN),
        check=False,
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=BUDGET_S,
    )
    assert result.returncode == 2
    assert "--allow-remote" in result.stderr


def test_first_start_creates_and_prints_the_token(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    env = {key: value for key, value in os.environ.items() if key != "VOLLEY_TOKEN"}
    process = subprocess.Popen(
        serve_command(data, config, "--port", "0"),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**env, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    lines = [process.stdout.readline() for _ in range(3)]
    process.send_signal(signal.SIGTERM)
    process.communicate(timeout=BUDGET_S)
    assert process.returncode == 0
    token = (config / "token").read_text().strip()
    assert oct((config / "token").stat().st_mode & 0o777) == "0o600"
    assert any(token in line for line in lines)
    assert any("Paste it into Foundry" in line for line in lines)


def test_serve_defaults_to_loopback_port_8765() -> None:
    from bridge.cli.program import build_parser
    from bridge.server.app import HELLO_TIMEOUT

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.allow_remote, args.allow_scripted_dice) == (
        "127.0.0.1",
        8765,
        False,
        False,
    )
    assert (args.rate, args.burst) == (20.0, 40)
    assert (args.tls_cert, args.tls_key, args.insecure, args.allow_origin) == (None, None, False, [])
    assert HELLO_TIMEOUT == 5.0


@pytest.mark.parametrize(
    ("option", "says"),
    [
        (["--port", "99999"], "argument --port: a port is 0-65535 (0 = any free one), not 99999"),
        (["--port", "x"], "argument --port: not a number: 'x'"),
        (["--rate", "-5"], "argument --rate: must be more than 0 messages/s, not -5"),
        (["--burst", "0"], "argument --burst: must be at least 1 message, not 0"),
    ],
    ids=["port out of range", "port not a number", "negative rate", "no burst"],
)
def test_bad_serve_options_are_refused_with_the_rule(
    option: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from bridge.cli import main

    with pytest.raises(SystemExit) as exit:
        main(["serve", *option])
    assert exit.value.code == 2
    assert says in capsys.readouterr().err


def test_allow_remote_listens_beyond_loopback_with_a_warning(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    process = subprocess.Popen(
        serve_command(
            data, config, "--host", "0.0.0.0", "--allow-remote", "--insecure", "--port", "0", "--token", TOKEN
        ),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert process.stdout is not None
    listening = process.stdout.readline()
    process.send_signal(signal.SIGTERM)
    _, err = process.communicate(timeout=BUDGET_S)
    assert process.returncode == 0
    assert "listening on ws://0.0.0.0:" in listening
    assert "WARNING: listening on 0.0.0.0, reachable from other machines" in err
    assert "WARNING: --insecure: the access token and every roll cross the network unencrypted" in err


def test_a_taken_port_is_a_clear_error_and_leaves_no_session(dirs: tuple[Path, Path]) -> None:
    import socket

    data, config = dirs
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            serve_command(data, config, "--port", str(port), "--token", TOKEN),
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=BUDGET_S,
        )
    assert result.returncode == 1
    assert (
        "address already in use (is another volley serve running? pick a free one with --port"
        in result.stderr
    )
    assert list((data / "sessions").glob("*.jsonl")) == []


def test_a_second_serve_on_the_same_data_directory_exits_with_the_reason(dirs: tuple[Path, Path]) -> None:
    data, config = dirs
    first = Server(data, config)
    try:
        second = subprocess.run(
            serve_command(data, config, "--port", "0", "--token", TOKEN),
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=BUDGET_S,
        )
    finally:
        code, _ = first.stop(signal.SIGTERM)
    assert second.returncode == 1
    assert f"volley serve: another volley serve (pid {first.process.pid}) is using {data / 'sessions'}" in (
        second.stderr
    )
    assert code == 0


@pytest.mark.parametrize("done_to_lock", ["deleted", "replaced", "re-created"])
def test_whatever_happens_to_the_lock_file_a_second_serve_is_refused(
    dirs: tuple[Path, Path], done_to_lock: str
) -> None:
    """Issue 33, item 2: the lock was the inode ``sessions/.lock`` named at start; deleting it let a
    second server lock a new one and answer the same ids (one rolled on each: two journal lines)."""
    data, config = dirs
    first = Server(data, config)
    lock = data / "sessions" / ".lock"
    try:
        if done_to_lock == "deleted":
            lock.unlink()
        elif done_to_lock == "replaced":
            (data / "sessions" / "other").write_text("1\n")
            os.replace(data / "sessions" / "other", lock)
        else:
            lock.unlink()
            lock.write_text("")
        second = subprocess.run(
            serve_command(data, config, "--port", "0", "--token", TOKEN),
            check=False,
            capture_output=True,
            text=True,
            cwd=ROOT,
            timeout=BUDGET_S,
        )
    finally:
        code, _ = first.stop(signal.SIGTERM)
    assert second.returncode == 1, second.stdout
    assert f"is using {data / 'sessions'}; stop it" in second.stderr
    assert code == 0


def warm_workers(url: str) -> list[int]:
    """The rules workers' pids once ``/healthz`` says they are all warm."""
    import time
    import urllib.request

    http = url.replace("ws://", "http://").removesuffix("/ws") + "/healthz"
    deadline = time.monotonic() + BUDGET_S
    while time.monotonic() < deadline:
        with urllib.request.urlopen(http, timeout=BUDGET_S) as response:
            workers = json.loads(response.read())["workers"]
        if workers["warm"]:
            pids: list[int] = workers["pids"]
            return pids
        time.sleep(0.05)
    raise AssertionError("the rules workers never became warm")


def gone(pids: list[int], timeout: float) -> bool:
    import time

    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        left = []
        for pid in pids:
            try:
                os.kill(pid, 0)
                left.append(pid)
            except ProcessLookupError:
                pass
        if not left:
            return True
        time.sleep(0.05)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGKILL], ids=["SIGTERM", "SIGKILL"])
def test_no_rules_worker_outlives_the_server(dirs: tuple[Path, Path], signum: int) -> None:
    data, config = dirs
    server = Server(data, config)
    pids = warm_workers(server.url)
    assert pids and server.process.pid not in pids
    server.process.send_signal(signum)
    server.process.communicate(timeout=BUDGET_S)
    # A polite stop waits for its workers; a killed server's workers notice and leave on their own
    # (within ORPHAN_CHECK of being scheduled: at nice 19 on a loaded machine that can be seconds).
    assert gone(pids, timeout=0.5 if signum == signal.SIGTERM else BUDGET_S), f"orphaned workers {pids}"
