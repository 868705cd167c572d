"""The aiohttp application: ``/ws`` for the VTT, ``/healthz`` for monitoring, ``/schema`` for tooling,
``/module/`` for Foundry to install the module from (``bridge.module.server``), ``/report/current`` for
the referee's session report (``bridge.report.route``).

State lives behind typed ``web.AppKey``s (aiohttp's ``web_ws.py`` example). The journal is opened in a
cleanup context, so it is created before the first request and flushed and closed after the last one;
``on_shutdown`` lets every connection finish its requests in flight before closing its socket. The
door (``bridge.server.entrance``: deadlines, connection caps, Host and Origin checks) is put on by one call;
``serving`` listens through it, over TLS when a certificate is given.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import secrets
import ssl
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from aiohttp import web

import bridge
import rules
from bridge.card import system_title
from bridge.expiry import PENDING_EXPIRY
from bridge.module.server import add_module_routes
from bridge.paths import sessions_dir
from bridge.protocol import MAX_FRAME_BYTES, PROTOCOL_VERSION, SystemInfo, Welcome, protocol_schema
from bridge.report.route import add_report_route
from bridge.resolution import SeedSource
from bridge.scribe import Scribe
from bridge.server import entrance
from bridge.server.connection import Connection
from bridge.server.door import Door
from bridge.server.fast_send import one_write_per_socket
from bridge.server.gate import GATE, GatedSite
from bridge.server.outbox import Pace
from bridge.server.ratelimit import BURST, RATE, RelayLimits
from bridge.server.stopping import stop_on_signals
from bridge.server.workers import RulesWorkers
from bridge.store.journal import Journal
from bridge.store.journal_file import discard_session
from bridge.store.ledger import Ledger
from bridge.store.lines import FORMAT_VERSION, Header
from bridge.store.lock import DirectoryLock

__all__ = [
    "BridgeSettings",
    "Serving",
    "close_connections",
    "create_app",
    "run_server",
    "serving",
    "tls_context",
]

log = logging.getLogger("volley.bridge")

#: aiohttp closes the socket (1009) above this; between MAX_FRAME_BYTES and this the client gets a
#: ``too_large`` error and keeps its connection. A frame of exactly this size is still read.
READ_LIMIT = 16 * MAX_FRAME_BYTES
#: Seconds a client has to say ``hello``.
HELLO_TIMEOUT = 5.0
#: Seconds ``Ctrl-C`` waits for requests in flight before giving up on them.
SHUTDOWN_TIMEOUT = 10.0
#: The young generation's collection threshold once the server listens (Python's default is 700).
YOUNG_COLLECTION_THRESHOLD = 10_000


@dataclass(frozen=True)
class BridgeSettings:
    token: str
    data_dir: Path
    allow_scripted_dice: bool = False
    seed_base: int | None = None
    hello_timeout: float = HELLO_TIMEOUT
    #: Messages per second and burst per relayed user (``bridge.server.ratelimit``).
    rate: float = RATE
    burst: int = BURST
    #: The whole connection's cap; ``None``: ``TABLE_SHARE`` users at ``rate``/``burst``.
    connection_rate: float | None = None
    connection_burst: int | None = None
    #: Seconds a two-step attack waits for its ``allocate`` before it expires.
    pending_expiry: float = PENDING_EXPIRY
    #: Start the rules workers at once and fill their caches (``rules.warm_up``); when off (tests), they
    #: start, cold, on the first request that needs one.
    warm_up: bool = True
    #: Rules worker processes (``bridge.server.workers``); None: one per core but one.
    workers: int | None = None
    #: Who gets in, how many, how fast they must ask (``bridge.server.door``).
    door: Door = field(default_factory=Door)
    #: How slow a reader may be and how long a goodbye may take (``bridge.server.connection``).
    pace: Pace = field(default_factory=Pace)
    #: Serve ``wss://`` with this certificate chain and private key (PEM files).
    tls_cert: Path | None = None
    tls_key: Path | None = None


SETTINGS = web.AppKey("settings", BridgeSettings)
SCRIBE = web.AppKey("scribe", Scribe)
WORKERS = web.AppKey("workers", RulesWorkers)
CONNECTIONS = web.AppKey[set[Connection]]("connections")


def _session_name() -> str:
    # Microseconds, so that sessions started within one second still sort in start order.
    return datetime.now(UTC).strftime("%Y%m%dT%H%M%S.%fZ") + "-" + secrets.token_hex(3)


async def _lock_context(app: web.Application) -> AsyncIterator[None]:
    """Hold the data directory for this server alone (``bridge.store.lock``), from before the journals
    are read."""
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
    try:
        journal.on_written = ledger.begin_session(journal.path, journal.head)
        journal.replying = one_write_per_socket
        app[SCRIBE] = Scribe(
            journal,
            ledger,
            allow_scripted_dice=settings.allow_scripted_dice,
            seeds=SeedSource(settings.seed_base),
            pending_expiry=settings.pending_expiry,
            workers=app[WORKERS],
        )
    except BaseException:  # a failed start leaves no header-only session behind
        await journal.close()
        ledger.close()
        await asyncio.to_thread(discard_session, journal.path)
        raise
    filling = asyncio.create_task(ledger.fill_filter(), name="ledger id filter")
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
    """The rules workers (``bridge.server.workers``): started in the background, so serving starts at once;
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


async def close_connections(app: web.Application) -> None:
    """Every open connection finishes its requests in flight and says goodbye (on shutdown, and when
    the sandbox takes its bridge down)."""
    open_now: set[Connection] = app[CONNECTIONS]
    connections = list(open_now)
    if connections:
        await asyncio.gather(*(connection.shutdown() for connection in connections), return_exceptions=True)


def _welcome(app: web.Application) -> Welcome:
    scribe = app[SCRIBE]
    return Welcome(
        server_version=bridge.__version__,
        protocol_version=PROTOCOL_VERSION,
        rules_version=rules.__version__,
        systems=[
            SystemInfo(name=name, title=system_title(name), default_action=system.default_action)
            for name, system in sorted(rules.SYSTEMS.items())
        ],
        session=scribe.journal.session,
        scripted_dice=scribe.allow_scripted_dice,
    )


_counter = iter(range(1, 1 << 62))


async def websocket(request: web.Request) -> web.WebSocketResponse:
    app = request.app
    settings = app[SETTINGS]
    # aiohttp refuses a frame of max_msg_size bytes or more, so + 1 keeps READ_LIMIT itself readable.
    # No permessage-deflate: replies are small, and each compressed socket would hold a zlib window.
    ws = web.WebSocketResponse(max_msg_size=READ_LIMIT + 1, decode_text=False, heartbeat=30.0, compress=False)
    await ws.prepare(request)
    gate, handler, transport = app[GATE], request.protocol, request.transport
    if transport is None:  # the client left during the handshake
        return ws
    connection = Connection(
        ws,
        app[SCRIBE],
        token=settings.token,
        welcome=_welcome(app),
        limits=RelayLimits(
            settings.rate,
            settings.burst,
            connection_rate=settings.connection_rate,
            connection_burst=settings.connection_burst,
        ),
        hello_timeout=settings.hello_timeout,
        pace=settings.pace,
        tag=f"#{next(_counter)} {request.remote}",
        transport=transport,
        flow=handler,
        admit=lambda: gate.promote(handler),
    )
    app[CONNECTIONS].add(connection)
    try:
        await connection.run()
    finally:
        app[CONNECTIONS].discard(connection)
    return ws


async def healthz(request: web.Request) -> web.Response:
    scribe = request.app[SCRIBE]
    body: dict[str, Any] = {
        "status": "ok",
        "server_version": bridge.__version__,
        "protocol_version": PROTOCOL_VERSION,
        "session": scribe.journal.session,
        "connections": len(request.app[CONNECTIONS]),
        "door": request.app[GATE].as_dict(),
        "resolved": scribe.resolved,
        "retries": scribe.retries,
        "journal": scribe.journal.stats.as_dict(),
        "workers": {
            "warm": request.app[WORKERS].warm,
            "pids": request.app[WORKERS].pids,
            "offloaded": scribe.offloaded,
        },
    }
    return web.json_response(body)


async def schema(request: web.Request) -> web.Response:
    return web.json_response({"protocol": protocol_schema(), "rules": rules.request_schema()})


def create_app(settings: BridgeSettings) -> web.Application:
    app = web.Application(handler_args=entrance.handler_args(settings.door))
    entrance.install(app, settings.door)
    app[SETTINGS] = settings
    app[CONNECTIONS] = set()
    app.cleanup_ctx.append(_lock_context)
    app.cleanup_ctx.append(_workers_context)
    app.cleanup_ctx.append(_journal_context)
    app.on_shutdown.append(close_connections)
    app.router.add_get("/ws", websocket)
    app.router.add_get("/healthz", healthz)
    app.router.add_get("/schema", schema)
    add_module_routes(app)
    add_report_route(app, token=settings.token, journal=lambda: app[SCRIBE].journal.path)
    return app


def tls_context(cert: Path, key: Path) -> ssl.SSLContext:
    """A server context for ``wss://``: TLS 1.2 or later, Python's default ciphers."""
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.minimum_version = ssl.TLSVersion.TLSv1_2
    context.load_cert_chain(cert, key)
    return context


@dataclass(frozen=True)
class Serving:
    """A running bridge: its app and the websocket URL it listens on."""

    app: web.Application
    url: str
    port: int


@contextlib.asynccontextmanager
async def serving(
    settings: BridgeSettings, host: str, port: int, *, app: web.Application | None = None
) -> AsyncIterator[Serving]:
    """Listen on ``host:port`` through the door (TLS if the settings name a certificate) until exit.

    ``app`` is a ``create_app(settings)`` a command has added its own routes to (``volley sandbox``).
    Leaving the block stops accepting, lets connections finish their requests in flight, flushes the
    journal and closes what is left.
    """
    tls = None
    if settings.tls_cert is not None and settings.tls_key is not None:
        tls = tls_context(settings.tls_cert, settings.tls_key)
    app = app or create_app(settings)
    runner = web.AppRunner(app, access_log=None, shutdown_timeout=SHUTDOWN_TIMEOUT)
    try:
        await runner.setup()
        site = GatedSite(runner, host, port, tls=tls)
        await site.start()
        bound_host, bound_port = runner.addresses[0][:2]
        scheme = "wss" if tls is not None else "ws"
        yield Serving(app, f"{scheme}://{_url_host(str(bound_host))}:{bound_port}/ws", int(bound_port))
    finally:
        await runner.cleanup()


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
    # must get the graceful path, not the default kill. (Windows included: ``bridge.server.stopping``.)
    restore_signals = stop_on_signals(asyncio.get_running_loop(), stop)
    try:
        async with serving(settings, host, port, app=app) as served:
            # What start-up built (modules, tables, the ledger's index) lives as long as the server:
            # kept out of every later collection, a full one walks only what serving allocated. Under
            # 32 clients the full collections alone were ~6 µs per attack (issue 18).
            gc.freeze()
            # A request's objects live until its batch is written (a millisecond or so, behind a
            # hundred others under load), so at the default threshold (700) nearly all of them were
            # still alive at a young collection, survived it and were walked again one generation up.
            # At this threshold most are gone by refcount first: 2.8 -> 0.5 µs of collecting per
            # attack under 32 clients (gc.callbacks timing). Only cyclic garbage waits longer.
            gc.set_threshold(YOUNG_COLLECTION_THRESHOLD, *gc.get_threshold()[1:])
            ready(served.url)
            await stop.wait()
            log.info("stopping: finishing requests in flight")
    finally:
        restore_signals()
    return 0


def _url_host(host: str) -> str:
    return f"[{host}]" if ":" in host else host
