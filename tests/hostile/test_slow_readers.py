"""Clients that do not read: their replies are bounded, they are cut off in time, and they hold no memory."""

from __future__ import annotations

import asyncio
import json
import logging
import urllib.request
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hostilekit import (
    bridge,
    door_of,
    message,
    open_connections,
    raw_websocket,
    settings_for,
)

from bridge.protocol import MAX_FRAME_BYTES
from bridge.server.app import CONNECTIONS
from bridge.server.connection import Connection
from bridge.server.outbox import Pace
from devkit.serve import BUDGET_S, GURPS_MP5, ServeProcess, memory_kib, serve_process

pytestmark = pytest.mark.asyncio


#: Seconds a test waits for something before calling it a hang (the budget: not a speed limit).
HANG = BUDGET_S


async def until(condition: Callable[[], bool], hang: str) -> None:
    """Wait until ``condition()`` holds, polling; a ``hang`` assertion if it never does."""
    async with asyncio.timeout(HANG):
        while not condition():
            await asyncio.sleep(0.05)
    assert condition(), hang


def _warm(server: ServeProcess) -> bool:
    with urllib.request.urlopen(server.http("/healthz"), timeout=HANG) as response:
        return bool(json.load(response)["workers"]["warm"])


def _wide_odds(k: int) -> bytes:
    """An ``odds`` request (about 53 KB) whose reply is about as big: thirteen targets with long ids."""
    targets = [
        {"id": f"t{n}-" + "x" * 4000, "name": "Ganger", "modifier": -2, "dodge": 9, "shots": 1}
        for n in range(13)
    ]
    return message("odds", id=f"wide-{k}", request={**GURPS_MP5, "shots": 13, "targets": targets})


async def test_an_id_over_128_characters_is_refused_and_never_echoed(tmp_path: Path) -> None:
    async with bridge(settings_for(tmp_path)) as served:
        raw = await raw_websocket(served.port)
        await raw.send(message("attack", id="x" * 129, request=GURPS_MP5))
        error = await raw.reply()
        assert (error["code"], error["path"], error["id"]) == ("invalid", "$.id", None)
        assert "128" in error["message"]
        # Oversized frames are not decoded, but their id is looked for: a megabyte one is not returned.
        await raw.send(message("attack", id="y" * 900_000, request=GURPS_MP5))
        _, payload = await raw.receive()
        assert len(payload) < 500, len(payload)
        error = json.loads(payload)
        assert (error["code"], error["id"]) == ("too_large", None)
        # An id the protocol accepts is still echoed, even on an oversized frame.
        await raw.send(message("ping", id="z" * 128, note="n" * MAX_FRAME_BYTES))
        error = await raw.reply()
        assert (error["code"], error["id"]) == ("too_large", "z" * 128)
        raw.close()


async def test_a_client_that_never_reads_is_cut_off_and_its_replies_let_go(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    pace = Pace(outgoing_frames=32, outgoing_bytes=256 * 1024, stall_timeout=0.5, close_timeout=0.5)
    settings = replace(settings_for(tmp_path), pace=pace, rate=10_000, burst=10_000)
    async with bridge(settings) as served:
        raw = await raw_websocket(served.port, receive_buffer=4096)
        (connection,) = served.app[CONNECTIONS]
        # About 10 MB of requests whose replies are as big; the client never reads one of them.
        sending = asyncio.create_task(raw.send(*(_wide_odds(k) for k in range(200))))
        # Stall (0.5 s) + close (0.5 s) cut it off; the deadline only catches a client kept forever.
        await until(lambda: open_connections(served) == 0, "the stuck client is still connected")
        assert isinstance(connection, Connection)
        assert (len(connection.outbox), connection.outbox.bytes) == (0, 0)  # nothing kept for it
        assert connection.ws.closed and door_of(served)["authenticated"] == 0
        sending.cancel()
        raw.close()
    said = [record.getMessage() for record in caplog.records]
    assert any("client is not reading its replies" in line for line in said), said
    assert any("did not take the close frame within 0.5 s; connection aborted" in line for line in said), said


async def test_a_slow_reader_sending_megabyte_ids_holds_no_megabytes(tmp_path: Path) -> None:
    """The issue's case: a client that never reads, sending attacks with ~1 MB ids, each refused.

    Measured on the server process: its peak resident memory may not grow by the replies' weight.
    """
    server = serve_process(tmp_path, "--rate", "10000", "--burst", "10000")
    try:
        await until(lambda: _warm(server), "the rules warm-up did not finish")  # so it does not count
        peak_before = memory_kib(server.pid, "VmHWM")
        raw = await raw_websocket(server.port, receive_buffer=4096)
        big = [message("attack", id=f"{k}-" + "i" * 900_000, request=GURPS_MP5) for k in range(100)]
        # Not one reply is read while the 90 MB go out: the write only ends once the server took them.
        async with asyncio.timeout(HANG):
            await raw.send(*big)
        # Then a ping, read behind the refusals: once it is answered, every big request was handled.
        await raw.send(message("ping", id="last"))
        replies = [await raw.reply(HANG) for _ in range(101)]
        growth_mib = (memory_kib(server.pid, "VmHWM") - peak_before) / 1024
        raw.close()
    finally:
        server.stop()
    assert growth_mib < 30, f"the server grew by {growth_mib:.0f} MiB for 90 MB of refused requests"
    assert [reply.get("code") for reply in replies[:100]] == ["too_large"] * 100, replies[:3]
    assert replies[100] == {"type": "pong", "id": "last"}


async def test_a_polite_shutdown_does_not_wait_for_a_client_that_never_reads(tmp_path: Path) -> None:
    # The client would be cut off only after ten minutes; the bridge must stop well before that
    # (``bridge`` fails the test if stopping takes longer than STOP_WITHIN).
    pace = Pace(outgoing_frames=32, outgoing_bytes=256 * 1024, stall_timeout=600, close_timeout=0.5)
    settings = replace(settings_for(tmp_path), pace=pace, rate=10_000, burst=10_000)
    async with bridge(settings) as served:
        raw = await raw_websocket(served.port, receive_buffer=4096)
        (connection,) = served.app[CONNECTIONS]
        assert isinstance(connection, Connection)
        sending = asyncio.create_task(raw.send(*(_wide_odds(k) for k in range(100))))
        await until(lambda: connection.outbox.full, "the outbox never filled")  # stuck on this client
        assert open_connections(served) == 1
    sending.cancel()
    raw.close()


def _health(server: ServeProcess) -> dict[str, Any]:
    with urllib.request.urlopen(server.http("/healthz"), timeout=HANG) as response:
        health: dict[str, Any] = json.load(response)
    return health


async def test_a_client_that_never_reads_its_attacks_is_cut_off_under_volley_serve(tmp_path: Path) -> None:
    """Issue 33, item 1: 30,000 attacks from a raw socket that reads nothing, through the real door.

    Attack replies leave from the journal's batch, written straight to the socket; the socket was
    asked whether it pushed back through ``transport.get_protocol()``, the door's protocol, which never
    says so: every reply went into the transport's unbounded buffer, the server read on, resolved all
    30,000, grew by ~80 MiB and never cut the client off. Now the reads stop once the outbox is full,
    the client is cut off after the stall (10 s) and the close (2 s), and every reply it was owed is
    in the journal for a retry.
    """
    server = serve_process(tmp_path, "--rate", "100000", "--burst", "100000")
    try:
        await until(lambda: _warm(server), "the rules warm-up did not finish")  # so it does not count
        rss_before = memory_kib(server.pid)
        raw = await raw_websocket(server.port, receive_buffer=4096)
        attacks = [message("attack", id=f"n{k}", request=GURPS_MP5) for k in range(30_000)]
        sending = asyncio.create_task(raw.send(*attacks))
        await until(lambda: _health(server)["connections"] == 0, "the client that never reads is still on")
        growth_mib = (memory_kib(server.pid) - rss_before) / 1024
        resolved = _health(server)["resolved"]
        sending.cancel()
        raw.close()
        # Nothing acknowledged is lost: whatever was resolved is journaled, and a retry gets its bytes.
        (journal,) = (tmp_path / "data" / "sessions").glob("*.jsonl")
        lines = [json.loads(line) for line in journal.read_bytes().split(b"\n")[1:] if line.strip(b"\0")]
        assert len(lines) == resolved
        again = await raw_websocket(server.port)
        for line in (lines[0], lines[-1]):
            await again.send(message("attack", id=line["id"], request=GURPS_MP5))
            assert await again.reply() == line["reply"]
        again.close()
    finally:
        server.stop()
    assert resolved < 10_000, f"the server read on: {resolved} of 30,000 attacks resolved"
    assert growth_mib < 30, f"the server grew by {growth_mib:.0f} MiB for a client that reads nothing"
