"""The bridge's door: who may open a connection, from where, for how long, and how many at once.

The bridge listens on loopback for one referee's browser, yet anything on the machine (and, through
DNS rebinding, any web page the referee opens) can reach it. So before the websocket's own handshake:

* **Deadlines.** A connection must complete its HTTP request within ``Door.request_timeout`` seconds of
  opening (and of its previous response, when kept alive); TLS handshakes get the same. Idle or
  trickling sockets are closed, not kept for aiohttp's default hour.
* **Caps.** ``Door.max_connections`` sockets in all; of these at most ``Door.max_strangers`` not yet
  authenticated (a socket that has not shown the token in a ``hello``: idle TCP, a plain HTTP request,
  a websocket before its ``hello``). The rest, at least one slot, only token holders can hold. When the
  strangers' share is full, the *oldest* stranger is closed to let the newcomer in, so a table's
  referee reconnecting always gets a slot to say ``hello`` in, however many strangers sit there first;
  each newcomer keeps its slot until as many strangers again arrive after it. Turned-away
  connections and the process running out of file descriptors are logged once per interval.
* **Host and Origin.** Every HTTP request must name a loopback host (``localhost``, a loopback address,
  or the address it arrived on) unless ``--allow-remote``: a DNS-rebinding page names its own host and
  is refused. A websocket upgrade's ``Origin`` must be in ``--allow-origin`` when that list is given
  (a request without ``Origin`` is not from a browser and passes); with no list every origin passes,
  and the log says so at start.
* **No version banner.** Responses carry ``Server: Volley``, not the Python and aiohttp versions.

``handler_args`` and ``install`` are the two calls ``create_app`` makes; ``GatedSite`` is the listening
socket that feeds every accepted connection through the gate.
"""

from __future__ import annotations

import asyncio
import ipaddress
import logging
import math
import ssl
import sys
import time
from asyncio.constants import ACCEPT_RETRY_DELAY
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import Any, cast

from aiohttp import hdrs, web, web_response
from aiohttp.web_protocol import RequestHandler
from yarl import URL

from bridge.ratelimit import OncePerInterval

__all__ = ["GATE", "Door", "Gate", "GatedSite", "handler_args", "install", "normal_origin"]

log = logging.getLogger("volley.bridge")
#: aiohttp's own per-request log (malformed requests...), throttled like the rest.
http_log = logging.getLogger("volley.bridge.http")

#: What every response says in ``Server``: the product, never its libraries' versions.
SERVER_NAME = "Volley"
#: File descriptors kept free for the journal, the ledger's reads, pipes and the listening socket.
FD_RESERVE = 64
_OUT_OF_DESCRIPTORS = "socket.accept() out of system resource"
#: How asyncio names its accept retry in "Exception in callback ..." (selector event loops).
_RETRY_OF_A_CLOSED_LISTENER = "._start_serving("
#: Seconds past the last scheduled retry before the loop's own exception handler is put back.
_RETRY_MARGIN = 0.25


@dataclass(frozen=True)
class Door:
    """Who gets in: the host and origin policy, the connection caps and the request deadline."""

    #: Accept any Host header (set with ``--allow-remote``: the bridge is meant to be reached by name).
    allow_remote: bool = False
    #: Origins allowed to open the websocket (``scheme://host[:port]``); empty means any origin.
    allow_origins: tuple[str, ...] = ()
    #: Sockets open at once, authenticated or not.
    max_connections: int = 256
    #: Of those, sockets that have not yet authenticated; the oldest is closed to make room.
    max_strangers: int = 64
    #: Seconds to complete an HTTP request (or a TLS handshake) after connecting or after a response.
    request_timeout: float = 5.0
    #: Seconds between two log lines about turned-away connections, refused hosts and the like.
    warning_interval: float = 10.0

    def __post_init__(self) -> None:
        if not 1 <= self.max_strangers < self.max_connections:
            raise ValueError(
                f"max_strangers must be at least 1 and below max_connections ({self.max_connections}) so "
                f"that a token holder always has a slot, not {self.max_strangers}"
            )
        if not self.request_timeout > 0:
            raise ValueError(f"request_timeout must be more than 0 s, not {self.request_timeout}")


def handler_args(door: Door) -> dict[str, Any]:
    """aiohttp's per-connection settings: the request deadline, and the throttled error log."""
    return {"keepalive_timeout": door.request_timeout, "logger": http_log}


def install(app: web.Application, door: Door) -> None:
    """Put the door on ``app``: the gate, the Host/Origin middleware, and the quiet accept-error log."""
    app[GATE] = Gate(door)
    app.middlewares.append(_checkpoint)
    app.cleanup_ctx.append(_watch_the_door)
    # aiohttp stamps ``Server: Python/3.x aiohttp/3.x`` on every response, its own error pages (a 400
    # for an unparseable request never reaches the app's signals) included; it reads this name at
    # the moment it writes the headers.
    web_response.SERVER_SOFTWARE = SERVER_NAME  # type: ignore[attr-defined]


# --- the gate: caps and turn-aways --------------------------------------------------------------


class Gate:
    """Counts the sockets open on this server and which of them have shown the token."""

    def __init__(self, door: Door, clock: Callable[[], float] = time.monotonic) -> None:
        self.door = door
        self.max_connections, self.max_strangers = _fit_descriptors(door)
        self.origins = frozenset(normal_origin(origin) for origin in door.allow_origins)
        self._strangers: dict[_Doorway, None] = {}  # oldest first
        self._members: set[_Doorway] = set()
        self._handlers: dict[RequestHandler, _Doorway] = {}
        self.turned_away = OncePerInterval(door.warning_interval, clock)
        self.out_of_descriptors = OncePerInterval(door.warning_interval, clock)
        self.refused = OncePerInterval(door.warning_interval, clock)

    @property
    def strangers(self) -> int:
        return len(self._strangers)

    @property
    def members(self) -> int:
        return len(self._members)

    @property
    def max_members(self) -> int:
        return self.max_connections - self.max_strangers

    def arrive(self, doorway: _Doorway) -> None:
        """A socket was accepted: it is a stranger; make room by closing the oldest if need be."""
        while len(self._strangers) >= self.max_strangers:
            oldest = next(iter(self._strangers))
            del self._strangers[oldest]
            oldest.turn_away()
            count = self.turned_away.due()
            if count is not None:
                log.warning(
                    "connection cap: %d sockets had not authenticated (at most %d may wait); closed the "
                    "oldest to let a newcomer in (%d time%s since the last such line)",
                    self.max_strangers,
                    self.max_strangers,
                    count,
                    "" if count == 1 else "s",
                )
        self._strangers[doorway] = None

    def inside(self, doorway: _Doorway, handler: RequestHandler) -> None:
        """The socket reached aiohttp (after TLS, if any): remember its handler to find it from a request."""
        self._handlers[handler] = doorway

    def promote(self, handler: RequestHandler) -> bool:
        """The socket showed the token: move it to the token holders' slots, if one is free."""
        doorway = self._handlers.get(handler)
        if doorway is None:
            return True  # not accepted through a GatedSite (a test server): nothing to count
        if doorway in self._members:
            return True
        if len(self._members) >= self.max_members:
            return False
        self._strangers.pop(doorway, None)
        self._members.add(doorway)
        return True

    def leave(self, doorway: _Doorway) -> None:
        self._strangers.pop(doorway, None)
        self._members.discard(doorway)
        if doorway.handler is not None:
            self._handlers.pop(doorway.handler, None)

    def close_all(self) -> None:
        """Server stopped: drop whatever is still open (sockets still in their TLS handshake, say)."""
        for doorway in [*self._strangers, *self._members]:
            doorway.turn_away()
        self._strangers.clear()
        self._members.clear()
        self._handlers.clear()

    def as_dict(self) -> dict[str, int]:
        return {
            "strangers": self.strangers,
            "authenticated": self.members,
            "max_connections": self.max_connections,
            "max_strangers": self.max_strangers,
            "turned_away": self.turned_away.total,
        }


GATE = web.AppKey("gate", Gate)


def file_limit() -> int | None:
    """How many files this process may open (``ulimit -n``), or ``None`` if unlimited or unknown."""
    if sys.platform == "win32":
        return None  # no such limit to fit under
    import resource

    soft, _hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else soft


def _fit_descriptors(door: Door) -> tuple[int, int]:
    """The caps, lowered if the process may not open that many files (``ulimit -n``)."""
    limit = file_limit()
    if limit is None or door.max_connections <= limit - FD_RESERVE:
        return door.max_connections, door.max_strangers
    total = max(2, limit - FD_RESERVE)
    return total, max(1, min(door.max_strangers, total - 1))


# --- one accepted socket ------------------------------------------------------------------------


class _Doorway(asyncio.Protocol):
    """Stands between the listening socket and aiohttp's handler for one connection.

    It is counted by the gate from the moment of ``accept`` (before TLS, so a socket stuck in its
    handshake is a stranger like any other), can be turned away at any stage, and hands the
    connection (upgraded to TLS first, if the site serves TLS) to aiohttp's ``RequestHandler``.
    """

    #: Bytes a TLS client may send before its connection is handed over (it cannot send any).
    _EARLY_LIMIT = 1 << 16

    def __init__(
        self, gate: Gate, make_handler: Callable[[], RequestHandler], tls: ssl.SSLContext | None
    ) -> None:
        self._gate = gate
        self._make_handler = make_handler
        self._tls = tls
        self.handler: RequestHandler | None = None
        self._raw: asyncio.Transport | None = None
        self._securing: asyncio.Task[None] | None = None
        self._early: list[bytes] = []
        self._early_eof = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        # A stream transport, though not always an ``asyncio.Transport`` instance (uvloop's TCP
        # transport implements the same interface without subclassing it).
        stream = cast(asyncio.Transport, transport)
        self._raw = stream
        self._gate.arrive(self)
        if self._tls is None:
            self._enter(stream)
        else:
            self._securing = asyncio.ensure_future(self._secure(stream, self._tls))

    async def _secure(self, raw: asyncio.Transport, tls: ssl.SSLContext) -> None:
        timeout = self._gate.door.request_timeout
        try:
            secure = await asyncio.get_running_loop().start_tls(
                raw, self, tls, server_side=True, ssl_handshake_timeout=timeout, ssl_shutdown_timeout=timeout
            )
        except (OSError, TimeoutError) as error:  # ssl.SSLError is an OSError
            log.debug("TLS handshake failed: %r", error)
            secure = None
        except asyncio.CancelledError:
            self._give_up(raw)
            raise
        if secure is None or raw.is_closing():
            # A connection lost mid-handshake is never reported to this protocol: count it out here.
            self._give_up(raw)
            return
        self._enter(secure)

    def _give_up(self, raw: asyncio.Transport) -> None:
        raw.abort()
        self._gate.leave(self)

    def _enter(self, transport: asyncio.Transport) -> None:
        handler = self.handler = self._make_handler()
        self._gate.inside(self, handler)
        handler.connection_made(transport)
        early, self._early = self._early, []
        for chunk in early:
            handler.data_received(chunk)
        if self._early_eof:
            handler.eof_received()

    def data_received(self, data: bytes) -> None:
        if self.handler is not None:
            self.handler.data_received(data)
            return
        # Application data that TLS decrypted in the same read as the handshake's end, just before
        # ``start_tls`` returned: keep it for the handler (a little, never a flood).
        self._early.append(data)
        if sum(map(len, self._early)) > self._EARLY_LIMIT:
            self.turn_away()

    def eof_received(self) -> None:
        # aiohttp's handler answers None (close when the client is done sending); so does this.
        if self.handler is not None:
            self.handler.eof_received()
        else:
            self._early_eof = True

    def pause_writing(self) -> None:
        if self.handler is not None:
            self.handler.pause_writing()

    def resume_writing(self) -> None:
        if self.handler is not None:
            self.handler.resume_writing()

    def connection_lost(self, exc: Exception | None) -> None:
        self._gate.leave(self)
        if self._securing is not None and not self._securing.done():
            self._securing.cancel()
        if self.handler is not None:
            self.handler.connection_lost(exc)

    def turn_away(self) -> None:
        """Close at once, dropping anything buffered: the slot is needed now."""
        if self._raw is not None:
            self._raw.abort()


class GatedSite(web.BaseSite):
    """A TCP site whose every accepted socket goes through the app's ``Gate`` (and TLS, if given)."""

    __slots__ = ("_gate", "_host", "_port", "_tls")

    def __init__(
        self,
        runner: web.AppRunner,
        host: str,
        port: int,
        *,
        tls: ssl.SSLContext | None = None,
        backlog: int = 128,
    ) -> None:
        super().__init__(runner, backlog=backlog)
        self._gate: Gate = runner.app[GATE]
        self._host = host
        self._port = port
        self._tls = tls

    @property
    def name(self) -> str:
        scheme = "https" if self._tls else "http"
        return str(URL.build(scheme=scheme, host=self._host, port=self._port))

    async def start(self) -> None:
        await super().start()
        server = self._runner.server
        assert server is not None
        gate, tls = self._gate, self._tls
        self._server = await asyncio.get_running_loop().create_server(
            lambda: _Doorway(gate, server, tls), self._host, self._port, backlog=self._backlog
        )


# --- Host and Origin ----------------------------------------------------------------------------


def _host_name(header: str) -> str:
    """``[::1]:8765`` -> ``::1``, ``Localhost.:80`` -> ``localhost``."""
    header = header.strip().lower()
    if header.startswith("["):
        return header[1:].partition("]")[0]
    if header.count(":") == 1:
        header = header.partition(":")[0]
    return header.rstrip(".")


def host_allowed(header: str | None, arrived_on: str | None) -> bool:
    """A loopback name or address, or the address the request arrived on (DNS rebinding names neither)."""
    if not header:
        return False
    name = _host_name(header)
    if name == "localhost" or name.endswith(".localhost"):
        return True  # RFC 6761: browsers resolve these to loopback themselves, never through DNS
    try:
        address = ipaddress.ip_address(name)
    except ValueError:
        return False
    if address.is_loopback:
        return True
    try:
        return arrived_on is not None and ipaddress.ip_address(arrived_on) == address
    except ValueError:
        return False


def normal_origin(origin: str) -> str:
    """``HTTP://Foundry.Example:80/`` -> ``http://foundry.example``; ``ValueError`` if not an origin."""
    if origin.strip().lower() == "null":
        return "null"
    url = URL(origin.strip())
    if not url.scheme or not url.host or url.path not in ("", "/") or url.query_string or url.fragment:
        raise ValueError(f"not an origin (scheme://host[:port]): {origin!r}")
    port = "" if url.explicit_port is None or url.is_default_port() else f":{url.explicit_port}"
    host = f"[{url.host}]" if ":" in url.host else url.host
    return f"{url.scheme.lower()}://{host.lower()}{port}"


def _origin_allowed(origin: str | None, allowed: frozenset[str]) -> bool:
    if not allowed or origin is None:
        return True  # no list given; or not a browser (browsers always send Origin on a websocket)
    try:
        return normal_origin(origin) in allowed
    except ValueError:
        return False


Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


@web.middleware
async def _checkpoint(request: web.Request, handler: Handler) -> web.StreamResponse:
    gate = request.app[GATE]
    door = gate.door
    if not door.allow_remote:
        sockname = request.transport.get_extra_info("sockname") if request.transport else None
        arrived_on = str(sockname[0]) if isinstance(sockname, tuple) and sockname else None
        if hdrs.HOST not in request.headers:  # only HTTP/1.0 may omit it; aiohttp refuses it in 1.1
            return web.Response(status=400, text="A request needs a Host header.\n")
        if not host_allowed(request.headers.get(hdrs.HOST), arrived_on):
            _note_refusal(gate, "a request for host %r (not loopback)", request.headers.get(hdrs.HOST))
            return web.Response(
                status=403,
                text="This bridge answers only to localhost and loopback addresses "
                "(volley serve --allow-remote lifts this).\n",
            )
    origin = request.headers.get(hdrs.ORIGIN)
    upgrade = request.headers.get(hdrs.UPGRADE, "").lower() == "websocket"
    if upgrade and not _origin_allowed(origin, gate.origins):
        _note_refusal(gate, "a websocket from origin %r (not in --allow-origin)", origin)
        return web.Response(status=403, text="This origin may not open the bridge's websocket.\n")
    return await handler(request)


def _note_refusal(gate: Gate, what: str, value: str | None) -> None:
    count = gate.refused.due()
    if count is not None:
        shown = value if value is None or len(value) <= 100 else value[:100] + "..."
        plural = "" if count == 1 else "s"
        log.warning("refused " + what + " (%d refusal%s since the last such line)", shown, count, plural)


# --- start-up, accept errors, shutdown -----------------------------------------------------------


async def _watch_the_door(app: web.Application) -> AsyncIterator[None]:
    """Log the policy at start; log running out of file descriptors once per interval; close up at the end."""
    gate = app[GATE]
    door = gate.door
    if (gate.max_connections, gate.max_strangers) != (door.max_connections, door.max_strangers):
        log.warning(
            "the process may open only %d files (ulimit -n): connection caps lowered to %d "
            "(%d unauthenticated)",
            file_limit(),
            gate.max_connections,
            gate.max_strangers,
        )
    log.info(
        "door: at most %d connections, %d of them not yet authenticated; an HTTP request must arrive "
        "within %g s",
        gate.max_connections,
        gate.max_strangers,
        door.request_timeout,
    )
    if door.allow_remote:
        log.info("door: any Host header accepted (--allow-remote)")
    if door.allow_origins:
        log.info("door: websocket upgrades accepted from %s only", ", ".join(door.allow_origins))
    else:
        log.info("door: websocket upgrades accepted from any Origin (restrict them with --allow-origin)")
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    #: When the last accept retry asyncio scheduled after running out of descriptors will run.
    retry_due = -math.inf

    def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        nonlocal retry_due
        message = context.get("message", "")
        if message == _OUT_OF_DESCRIPTORS:
            retry_due = loop.time() + ACCEPT_RETRY_DELAY
            count = gate.out_of_descriptors.due()
            if count is not None:
                log.warning(
                    "out of file descriptors accepting a connection (%s); accepting pauses for a second "
                    "(%d time%s since the last such line)",
                    context.get("exception"),
                    count,
                    "" if count == 1 else "s",
                )
            return
        if isinstance(context.get("exception"), ValueError) and _RETRY_OF_A_CLOSED_LISTENER in message:
            # asyncio keeps the retry it scheduled while accepting was paused even after the server
            # closes its socket, and the retry then fails on the closed socket (fd -1): nothing is
            # wrong, the bridge is no longer listening (CPython reschedules once per failed accept,
            # python/cpython#151615, so a stop right after a flood meets many of them).
            log.debug("a paused accept retried after the bridge stopped listening: ignored")
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    def restore() -> None:
        if loop.get_exception_handler() is on_loop_error:
            loop.set_exception_handler(previous)

    loop.set_exception_handler(on_loop_error)
    _throttle_http_log(door.warning_interval)
    try:
        yield
    finally:
        # The retries still scheduled were asked before now (the site has stopped listening, so no
        # new ones come): keep the handler until the last of them has run, then give the loop back.
        pending = retry_due - loop.time()
        if pending > 0:
            loop.call_later(pending + _RETRY_MARGIN, restore)
        else:
            restore()
        gate.close_all()


class _OncePerIntervalFilter(logging.Filter):
    """Lets one record per message through per interval (aiohttp logs a traceback per bad request)."""

    def __init__(self, interval: float) -> None:
        super().__init__()
        self._seen: dict[str, OncePerInterval] = {}
        self._interval = interval

    def filter(self, record: logging.LogRecord) -> bool:
        key = str(record.msg)
        throttle = self._seen.get(key)
        if throttle is None:
            if len(self._seen) > 100:
                self._seen.clear()
            throttle = self._seen[key] = OncePerInterval(self._interval)
        return throttle.due() is not None


def _throttle_http_log(interval: float) -> None:
    for existing in http_log.filters:
        if isinstance(existing, _OncePerIntervalFilter):
            return
    http_log.addFilter(_OncePerIntervalFilter(interval))
