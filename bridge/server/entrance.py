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
* **No version banner.** Responses carry ``Server: Volley``, not the Python and aiohttp versions.

The policy is ``bridge.server.door.Door``; the caps are ``bridge.server.gate``, the Host and Origin
checks ``bridge.server.origins``, the quiet error logs ``bridge.server.loop_errors``. ``handler_args``
and ``install`` are the two calls ``create_app`` makes; ``GatedSite`` is the listening socket that feeds
every accepted connection through the gate.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from aiohttp import hdrs, web, web_response

from bridge.server.door import Door
from bridge.server.gate import GATE, Gate, file_limit
from bridge.server.loop_errors import http_log, quiet_accept_errors, throttle_http_log
from bridge.server.origins import host_allowed, origin_allowed

__all__ = ["SERVER_NAME", "handler_args", "install"]

log = logging.getLogger("volley.bridge")

#: What every response says in ``Server``: the product, never its libraries' versions.
SERVER_NAME = "Volley"


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
    if upgrade and not origin_allowed(origin, gate.origins):
        _note_refusal(gate, "a websocket from origin %r (not in --allow-origin)", origin)
        return web.Response(status=403, text="This origin may not open the bridge's websocket.\n")
    return await handler(request)


def _note_refusal(gate: Gate, what: str, value: str | None) -> None:
    count = gate.refused.due()
    if count is not None:
        shown = value if value is None or len(value) <= 100 else value[:100] + "..."
        plural = "" if count == 1 else "s"
        log.warning("refused " + what + " (%d refusal%s since the last such line)", shown, count, plural)


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
    throttle_http_log(door.warning_interval)
    with quiet_accept_errors(gate.out_of_descriptors):
        try:
            yield
        finally:
            gate.close_all()
