"""Idle and half-open sockets: they are closed, capped, logged once, and never lock the referee out."""

from __future__ import annotations

import asyncio
import errno
import itertools
import json
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import aiohttp
import pytest
from hostilekit import (
    bridge,
    closed_by_server,
    door_of,
    idle_socket,
    message,
    raw_websocket,
    settings_for,
)

from bridge.server.door import Door
from devkit.serve import BUDGET_S, TOKEN, serve_process

pytestmark = pytest.mark.asyncio


async def until(condition: Callable[[], bool]) -> None:
    """Wait for ``condition()``; the deadline only catches a hang (a busy machine is slow, not wrong)."""
    async with asyncio.timeout(BUDGET_S):
        while not condition():
            await asyncio.sleep(0.02)


async def test_a_socket_that_never_sends_its_request_is_closed_after_the_deadline(tmp_path: Path) -> None:
    settings = settings_for(tmp_path)
    async with bridge(replace(settings, door=replace(settings.door, request_timeout=0.5))) as served:
        reader, writer = await idle_socket(served.port)
        started = time.monotonic()
        assert await closed_by_server(reader, timeout=BUDGET_S)  # a deadline for hangs only
        assert time.monotonic() - started > 0.4  # not before its deadline (a busy machine only adds)
        writer.close()


async def test_a_request_trickled_a_header_at_a_time_is_cut_at_the_deadline(tmp_path: Path) -> None:
    """Sending something keeps nothing alive: the request must be complete in time (slowloris)."""
    settings = settings_for(tmp_path)
    async with bridge(replace(settings, door=replace(settings.door, request_timeout=0.6))) as served:
        reader, writer = await idle_socket(served.port)
        writer.write(f"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1:{served.port}\r\n".encode())
        started = time.monotonic()

        async def trickle() -> None:
            for k in itertools.count():  # never ends: only the request deadline can close it
                writer.write(f"X-Slow-{k}: 1\r\n".encode())
                await asyncio.sleep(0.1)

        dripping = asyncio.create_task(trickle())
        assert await closed_by_server(reader, timeout=BUDGET_S)
        assert time.monotonic() - started > 0.5
        dripping.cancel()
        writer.transport.abort()


async def test_strangers_over_the_cap_close_the_oldest_first(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    settings = settings_for(tmp_path, door=Door(max_connections=12, max_strangers=8, request_timeout=30))
    async with bridge(settings) as served:
        sockets = [await idle_socket(served.port) for _ in range(8)]
        await until(lambda: door_of(served)["strangers"] == 8)
        newcomers = [await idle_socket(served.port) for _ in range(4)]
        # The four oldest went (long before their 30 s deadline); the newest eight are still open.
        for reader, _ in sockets[:4]:
            assert await closed_by_server(reader, timeout=BUDGET_S)
        for reader, _ in sockets[4:] + newcomers:
            assert not await closed_by_server(reader, timeout=0.05)
        assert door_of(served)["strangers"] == 8
        assert door_of(served)["turned_away"] == 4
        # One line for the four turn-aways (once per interval, not per socket).
        lines = [r.getMessage() for r in caplog.records if "connection cap" in r.getMessage()]
        assert len(lines) == 1, lines
        for _, writer in sockets + newcomers:
            writer.transport.abort()


async def test_a_token_holder_gets_in_while_strangers_flood_the_door(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, door=Door(max_connections=12, max_strangers=8, request_timeout=30))
    async with bridge(settings) as served:
        held = [await idle_socket(served.port) for _ in range(8)]
        stop = asyncio.Event()
        opened = 0

        async def flood() -> None:
            nonlocal opened
            while not stop.is_set():
                _, writer = await idle_socket(served.port)
                held.append((_, writer))
                opened += 1
                await asyncio.sleep(0)

        flooding = asyncio.create_task(flood())
        await until(lambda: opened > 8)  # the flood fills the strangers' share first
        async with asyncio.timeout(BUDGET_S), aiohttp.ClientSession() as session:
            ws = await session.ws_connect(f"http://127.0.0.1:{served.port}/ws")
            await ws.send_str(json.dumps({"type": "hello", "token": settings.token}))
            welcome = json.loads((await ws.receive(timeout=BUDGET_S)).data)
            assert welcome["type"] == "welcome"
            await ws.send_str(json.dumps({"type": "ping", "id": "p"}))
            assert json.loads((await ws.receive(timeout=BUDGET_S)).data) == {"type": "pong", "id": "p"}
            stop.set()
            await flooding
            assert opened > 8  # the flood really did fill the strangers' share meanwhile
            assert door_of(served)["authenticated"] == 1
            await ws.close()
        for _, writer in held:
            writer.transport.abort()


async def test_token_holders_beyond_their_slots_are_told_the_bridge_is_busy(tmp_path: Path) -> None:
    settings = settings_for(tmp_path, door=Door(max_connections=4, max_strangers=2, request_timeout=30))
    async with bridge(settings) as served:
        first = await raw_websocket(served.port)
        second = await raw_websocket(served.port)
        third = await raw_websocket(served.port, hello=False)
        await third.send(message("hello", token=settings.token))
        refusal = await third.reply()
        assert (refusal["code"], refusal["id"]) == ("busy", None)
        assert await third.close_code() == 1013  # try again later
        third.close()
        # The two already in are untouched.
        for raw in (first, second):
            await raw.send(message("ping", id="still"))
            assert await raw.reply() == {"type": "pong", "id": "still"}
        first.close()
        await until(lambda: door_of(served)["authenticated"] == 1)
        fourth = await raw_websocket(served.port)  # a freed slot is usable again
        fourth.close()
        second.close()


async def test_running_out_of_file_descriptors_is_logged_once_per_interval(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """asyncio reports every failed accept (EMFILE) to the loop's handler, with a traceback each."""
    async with bridge(settings_for(tmp_path)):
        loop = asyncio.get_running_loop()
        for _ in range(50):
            loop.call_exception_handler(
                {
                    "message": "socket.accept() out of system resource",
                    "exception": OSError(errno.EMFILE, "Too many open files"),
                }
            )
    lines = [r for r in caplog.records if "out of file descriptors" in r.getMessage()]
    assert len(lines) == 1 and lines[0].exc_info is None
    assert not any("out of system resource" in r.getMessage() for r in caplog.records)


async def test_stopping_while_accepting_is_paused_logs_no_traceback_for_the_pending_retry(
    tmp_path: Path, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Out of descriptors, asyncio pauses accepting and schedules a retry a second later; a stop in that
    second closes the listening socket, and the retry then fails on it (fd -1). CI met this after the
    flood below: a traceback per scheduled retry. Only the descriptor shortage is feigned here: the
    listening socket's ``accept`` fails with EMFILE, and asyncio's own code does the rest."""
    caplog.set_level(logging.DEBUG, logger="volley.bridge")
    loop = asyncio.get_running_loop()
    before = loop.get_exception_handler()
    real_accept = socket.socket.accept
    listening_port = 0

    def accept(sock: socket.socket) -> tuple[socket.socket, Any]:
        if listening_port and sock.getsockname()[1] == listening_port:
            raise OSError(errno.EMFILE, "Too many open files")
        return real_accept(sock)

    monkeypatch.setattr(socket.socket, "accept", accept)
    async with bridge(settings_for(tmp_path)) as served:
        listening_port = served.port
        _, writer = await idle_socket(served.port)
        await until(lambda: any("out of file descriptors" in r.getMessage() for r in caplog.records))
    # Stopped within the pause (every retry before the stop failed again and scheduled another).
    writer.transport.abort()

    def said(text: str) -> bool:
        return any(text in r.getMessage() for r in caplog.records)

    await until(lambda: said("stopped listening: ignored") or said("Exception in callback"))
    assert not said("Exception in callback"), [r.getMessage() for r in caplog.records][-5:]
    await until(lambda: loop.get_exception_handler() is before)  # the loop's own handler is back


async def test_a_flood_of_idle_sockets_under_a_small_file_limit_does_not_lock_the_referee_out(
    tmp_path: Path,
) -> None:
    """The issue's case: more idle sockets than the process may open files. The referee still gets in,
    and the log stays a few lines long (no accept traceback per attempt)."""
    server = serve_process(tmp_path, file_limit=128)
    held = []
    try:
        for _ in range(200):
            held.append(await idle_socket(server.port))
        await asyncio.sleep(0.3)
        async with asyncio.timeout(BUDGET_S), aiohttp.ClientSession() as session:
            ws = await session.ws_connect(server.url)
            await ws.send_str(json.dumps({"type": "hello", "token": TOKEN}))
            welcome = json.loads((await ws.receive(timeout=BUDGET_S)).data)
            assert welcome["type"] == "welcome"
            await ws.close()
    finally:
        for _, writer in held:
            writer.transport.abort()
        _, err = server.stop()
    assert "out of system resource" not in err and "Traceback" not in err, err[-3000:]
    assert "connection caps lowered to 64" in err
    assert err.count("connection cap:") == 1, err[-3000:]
