"""The aiohttp application: ``/ws`` for the VTT, ``/healthz`` for monitoring, ``/schema`` for tooling,
``/module/`` for Foundry to install the module from (``bridge.module_server``), ``/report/current`` for
the referee's session report (``bridge.report.route``).

State lives behind typed ``web.AppKey``s (aiohttp's ``web_ws.py`` example). The journal is opened in a
cleanup context, so it is created before the first request and flushed and closed after the last one;
``on_shutdown`` lets every connection finish its requests in flight before closing its socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

import bridge
import rules
from bridge.card import system_title
from bridge.connection import Connection
from bridge.expiry import PENDING_EXPIRY
from bridge.journal import FORMAT_VERSION, Header, Journal, discard_session
from bridge.ledger import Ledger
from bridge.lock import DirectoryLock
from bridge.module_server import add_module_routes
from bridge.paths import sessions_dir
from bridge.protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION, SystemInfo, Welcome, protocol_schema
from bridge.ratelimit import BURST, RATE, TokenBucket
from bridge.referee import Referee
from bridge.report.route import add_report_route
from bridge.resolution import SeedSource
from bridge.stopping import stop_on_signals
from bridge.workers import RulesWorkers

__all__ = ["BridgeSettings", "create_app", "run_server"]

log = logging.getLogger("volley.bridge")

#: aiohttp closes the socket (1009) above this; between MAX_FRAME_BYTES and this the client gets a
#: ``too_large`` error and keeps its connection.
READ_LIMIT = 16 * MAX_FRAME_BYTES
#: Seconds a client has to say ``hello``.
HELLO_TIMEOUT = 5.0
#: Seconds ``Ctrl-C`` waits for requests in flight before giving up on them.
SHUTDOWN_TIMEOUT = 10.0


@dataclass(frozen=True)
class BridgeSettings:
    token: str
    data_dir: Path
    allow_scripted_dice: bool = False
    seed_base: int | None = None
    hello_timeout: float = HELLO_TIMEOUT
    rate: float = RATE
    burst: int = BURST
    #: Seconds a two-step attack waits for its ``allocate`` before it expires.
    pending_expiry: float = PENDING_EXPIRY
    #: Start the rules workers at once and fill their caches (``rules.warm_up``); when off (tests), they
    #: start, cold, on the first request that needs one.
    warm_up: bool = True
    #: Rules worker processes (``bridge.workers``); None: one per core but one.
    workers: int | None = None


SETTINGS = web.AppKey("settings", BridgeSettings)
REFEREE = web.AppKey("referee", Referee)
WORKERS = web.AppKey("workers", RulesWorkers)
CONNECTIONS = web.AppKey[set[Connection]]("connections")


def _session_name() -> str:
    # Microseconds, so that sessions started within one second still sort in start order.
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ") + "-" + secrets.token_hex(3)


async def _lock_context(app: web.Application) -> AsyncIterator[None]:
    """Hold the data directory for this server alone (``bridge.lock``), from before the journals are read."""
    lock = DirectoryLock(sessions_dir(app[SETTINGS].data_dir))
    lock.acquire()
    try:
        yield
    finally:
        lock.release()


async def _journal_context(app: web.Application) -> AsyncIterator[None]:
    settings = app[SETTINGS]
    directory = sessions_dir(settings.data_dir)
    ledger = await asyncio.to_thread(Ledger.open, directory, log.warning)
    started = datetime.now(UTC)
    header = Header(
        format=FORMAT_VERSION,
        session=_session_name(),
        started=started.isoformat(timespec="seconds").replace("+00:00", "Z"),
        rules_version=rules.__version__,
        bridge_version=bridge.__version__,
        systems={name: system.title for name, system in rules.SYSTEMS.items()},
    )
    try:
        journal = Journal.create(directory, header)
    except BaseException:
        ledger.close()
        raise
    journal.on_written = ledger.begin_session(journal.path, journal.head)
    filling = asyncio.create_task(ledger.fill_filter(), name="ledger id filter")
    app[REFEREE] = Referee(
        journal,
        ledger,
        allow_scripted_dice=settings.allow_scripted_dice,
        seeds=SeedSource(settings.seed_base),
        pending_expiry=settings.pending_expiry,
        workers=app[WORKERS],
    )
    log.info(
        "session %s: journal %s (%d earlier replies remembered)",
        journal.session,
        journal.path,
        ledger.remembered(),
    )
    try:
        yield
    finally:
        await journal.close()
        filling.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await filling
        ledger.close()
        if journal.stats.lines == 0:
            # A run that resolved nothing (or never got its port) leaves no empty session behind.
            await asyncio.to_thread(discard_session, journal.path)
            log.info("journal flushed: session %s resolved nothing; its file was removed", journal.session)
        else:
            log.info("journal flushed: %s", journal.path)


async def _workers_context(app: web.Application) -> AsyncIterator[None]:
    """The rules workers (``bridge.workers``): started in the background, so serving starts at once;
    stopped, and waited for, after the last connection is done."""
    settings = app[SETTINGS]
    workers = RulesWorkers(workers=settings.workers, warm_up=settings.warm_up)
    app[WORKERS] = workers
    if settings.warm_up:
        workers.start()
    try:
        yield
    finally:
        await workers.close()


async def _close_connections(app: web.Application) -> None:
    open_now: set[Connection] = app[CONNECTIONS]
    connections = list(open_now)
    if connections:
        await asyncio.gather(*(connection.shutdown() for connection in connections), return_exceptions=True)


def _welcome(app: web.Application) -> Welcome:
    referee = app[REFEREE]
    return Welcome(
        server_version=bridge.__version__,
        protocol_version=PROTOCOL_VERSION,
        rules_version=rules.__version__,
        systems=[
            SystemInfo(name=name, title=system_title(name), default_action=system.default_action)
            for name, system in sorted(rules.SYSTEMS.items())
        ],
        session=referee.journal.session,
        scripted_dice=referee.allow_scripted_dice,
    )


_counter = iter(range(1, 1 << 62))


async def websocket(request: web.Request) -> web.WebSocketResponse:
    app = request.app
    settings = app[SETTINGS]
    # No permessage-deflate: on loopback it only costs CPU per reply and a zlib context per socket.
    ws = web.WebSocketResponse(max_msg_size=READ_LIMIT, decode_text=False, heartbeat=30.0, compress=False)
    await ws.prepare(request)
    connection = Connection(
        ws,
        app[REFEREE],
        token=settings.token,
        welcome=_welcome(app),
        bucket=TokenBucket(settings.rate, settings.burst),
        hello_timeout=settings.hello_timeout,
        tag=f"#{next(_counter)} {request.remote}",
    )
    app[CONNECTIONS].add(connection)
    try:
        await connection.run()
    finally:
        app[CONNECTIONS].discard(connection)
    return ws


async def healthz(request: web.Request) -> web.Response:
    referee = request.app[REFEREE]
    body: dict[str, Any] = {
        "status": "ok",
        "server_version": bridge.__version__,
        "protocol_version": PROTOCOL_VERSION,
        "session": referee.journal.session,
        "connections": len(request.app[CONNECTIONS]),
        "resolved": referee.resolved,
        "retries": referee.retries,
        "journal": referee.journal.stats.as_dict(),
        "workers": {
            "warm": request.app[WORKERS].warm,
            "pids": request.app[WORKERS].pids,
            "offloaded": referee.offloaded,
        },
    }
    return web.json_response(body)


async def schema(request: web.Request) -> web.Response:
    return web.json_response({"protocol": protocol_schema(), "rules": rules.request_schema()})


def create_app(settings: BridgeSettings) -> web.Application:
    app = web.Application()
    app[SETTINGS] = settings
    app[CONNECTIONS] = set()
    app.cleanup_ctx.append(_lock_context)
    app.cleanup_ctx.append(_workers_context)
    app.cleanup_ctx.append(_journal_context)
    app.on_shutdown.append(_close_connections)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/schema", schema)
    add_module_routes(app)
    add_report_route(app, token=settings.token, journal=lambda: app[REFEREE].journal.path)
    return app


async def run_server(
    settings: BridgeSettings,
    host: str,
    port: int,
    ready: Callable[[str], None],
    *,
    app: web.Application | None = None,
) -> int:
    """Serve until SIGINT/SIGTERM; then stop accepting, finish requests, flush the journal, return 0.

    ``app`` is a ``create_app(settings)`` a command has added its own routes to (``volley sandbox``).
    """
    stop = asyncio.Event()
    # Handlers go in before anything is announced: a stop signal sent the moment we say "listening"
    # must get the graceful path, not the default kill. (Windows included: ``bridge.stopping``.)
    restore_signals = stop_on_signals(asyncio.get_running_loop(), stop)
    runner = web.AppRunner(app or create_app(settings), access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT)
    try:
        await runner.setup()
        site = web.TCPSite(runner, host, port)
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        ready(f"ws://{_url_host(str(bound_host))}:{bound_port}/ws")
        await stop.wait()
        log.info("stopping: finishing requests in flight")
    finally:
        await runner.cleanup()
        restore_signals()
    return 0


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
