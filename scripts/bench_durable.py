"""A durable echo server: the fair baseline for the bridge's round trips and throughput.

A bare echo plus a client-side fsync (``bench_bridge.py``'s first baseline) is a floor no durable
server can reach: the fsync there costs the client nothing in scheduling, and the echo writes nothing.
This server does what any durable server must, with the bridge's own technique and nothing else: for
each text frame it appends one line of the bridge's journal-line size to a file and makes it durable
(``fsync``) before echoing the frame back. A line that is alone (nothing else in flight, nothing else
ready on the loop, recent fsyncs fast) is written on the event loop itself; otherwise the lines
waiting at that moment share one write and one fsync in a writer thread (group commit). No rules,
no ledger, no protocol: what is left between it and the bridge is the bridge's own work.

    .venv/bin/python scripts/bench_durable.py DIR LINE_BYTES   # prints "listening on ws://..."
"""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from aiohttp import WSMsgType, web

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
from bench_echo import serve_until_stopped  # scripts/ is on sys.path: this file runs as a script

from bridge.server.fast_send import text_frame

#: As the bridge's journal: a lone line is fsynced on the loop while recent fsyncs average under this.
INLINE_FSYNC_LIMIT = 0.001


class Durable:
    """Group commit of fixed-size lines, inline when alone (``bridge.store.journal.Journal``'s way)."""

    def __init__(self, path: Path, line: bytes) -> None:
        self.fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND, 0o600)
        self.line = line
        self.loop = asyncio.get_running_loop()
        self.waiting: list[Callable[[], None]] = []
        self.busy = self.scheduled = False
        self.in_flight = 0
        self.recent = 0.0
        self.thread = ThreadPoolExecutor(max_workers=1)

    def _sync(self, data: bytes) -> float:
        view = memoryview(data)
        while view:
            view = view[os.write(self.fd, view) :]
        started = time.perf_counter()
        os.fsync(self.fd)
        return time.perf_counter() - started

    def append(self, then: Callable[[], None]) -> None:
        self.in_flight += 1
        ready: Any = getattr(self.loop, "_ready", None)
        alone = self.in_flight == 1 and ready is not None and not ready
        if alone and not (self.waiting or self.busy) and self.recent < INLINE_FSYNC_LIMIT:
            self._done([then], self._sync(self.line))
            return
        self.waiting.append(then)
        if not (self.scheduled or self.busy):
            self.scheduled = True
            self.loop.call_soon(self._start)

    def _start(self) -> None:
        self.scheduled = False
        if self.busy or not self.waiting:
            return
        batch, self.waiting = self.waiting, []
        if len(batch) == 1 and self.recent < INLINE_FSYNC_LIMIT:
            self._done(batch, self._sync(self.line))
            return
        self.busy = True
        future = self.thread.submit(self._sync, self.line * len(batch))
        future.add_done_callback(lambda f: self.loop.call_soon_threadsafe(self._finished, batch, f))

    def _finished(self, batch: list[Callable[[], None]], future: Any) -> None:
        self.busy = False
        self._done(batch, future.result())

    def _done(self, batch: list[Callable[[], None]], seconds: float) -> None:
        self.recent = 0.8 * self.recent + 0.2 * seconds
        self.in_flight -= len(batch)
        for then in batch:
            then()
        if self.waiting and not self.scheduled:
            self.scheduled = True
            self.loop.call_soon(self._start)


def _send(ws: web.WebSocketResponse, transport: asyncio.Transport, data: bytes) -> None:
    """Write a frame now, as the bridge does: framed here and written straight to the transport."""
    if ws.closed or transport.is_closing():
        return
    transport.write(text_frame(data))


DURABLE = web.AppKey("durable", Durable)


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(decode_text=False, compress=False)
    await ws.prepare(request)
    durable = request.app[DURABLE]
    transport, protocol = request.transport, request.protocol
    assert transport is not None
    async for message in ws:
        if message.type == WSMsgType.TEXT:
            data = message.data if isinstance(message.data, bytes) else message.data.encode()
            durable.append(lambda data=data: _send(ws, transport, data))  # type: ignore[misc]
        if protocol.writing_paused:  # the bridge's rule too: read on only once the socket drains
            await protocol._drain_helper()
    return ws


async def serve(directory: Path, line_bytes: int) -> None:
    app = web.Application()
    app[DURABLE] = Durable(directory / "durable.jsonl", b"x" * (line_bytes - 1) + b"\n")
    app.router.add_get("/ws", echo)
    await serve_until_stopped(app)


if __name__ == "__main__":
    asyncio.run(serve(Path(sys.argv[1]), int(sys.argv[2])))
    sys.exit(0)
