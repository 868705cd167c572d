"""A bare aiohttp websocket echo server: the baseline the bridge's round trips are measured against.

It does what the bridge does for a frame minus the bridge: aiohttp reads a text frame and sends the same
bytes back. ``scripts/bench.py`` starts it as its own process, like the bridge, and drives both with the
same ``websockets`` client.

    .venv/bin/python scripts/bench_echo.py      # prints "listening on ws://127.0.0.1:PORT/ws"
"""

from __future__ import annotations

import asyncio
import signal
import sys

from aiohttp import WSMsgType, web


async def echo(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(decode_text=False)
    await ws.prepare(request)
    async for message in ws:
        if message.type == WSMsgType.TEXT:
            data = message.data if isinstance(message.data, bytes) else message.data.encode()
            await ws.send_frame(data, WSMsgType.TEXT)
    return ws


async def serve() -> None:
    app = web.Application()
    app.router.add_get("/ws", echo)
    await serve_until_stopped(app)


async def serve_until_stopped(app: web.Application) -> None:
    """Listen on a free loopback port, say where, and serve until SIGINT/SIGTERM (shared with the
    durable baseline, ``bench_durable.py``, so both baselines start and stop alike)."""
    runner = web.AppRunner(app, access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    host, port = runner.addresses[0][:2]
    print(f"listening on ws://{host}:{port}/ws", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await stop.wait()
    await runner.cleanup()


if __name__ == "__main__":
    asyncio.run(serve())
    sys.exit(0)
