"""The gate: how many sockets may be open at once, and how many of them may be strangers.

``Door.max_connections`` sockets in all; of these at most ``Door.max_strangers`` not yet authenticated (a
socket that has not shown the token in a ``hello``: idle TCP, a plain HTTP request, a websocket before
its ``hello``). The rest, at least one slot, only token holders can hold. When the strangers' share is
full, the *oldest* stranger is closed to let the newcomer in, so a table's referee reconnecting always
gets a slot to say ``hello`` in, however many strangers sit there first; each newcomer keeps its slot
until as many strangers again arrive after it. A connection must complete its HTTP request within
``Door.request_timeout`` seconds of opening (and of its previous response); TLS handshakes get the same.
Every accepted socket is counted from ``accept`` (``GatedSite``), before aiohttp sees a byte.
"""

from __future__ import annotations

import asyncio
import logging
import ssl
import sys
import time
from collections.abc import Callable
from typing import cast

from aiohttp import web
from aiohttp.web_protocol import RequestHandler
from yarl import URL

from bridge.server.door import Door
from bridge.server.origins import normal_origin
from bridge.server.ratelimit import OncePerInterval

__all__ = ["FD_RESERVE", "GATE", "Gate", "GatedSite", "file_limit"]

log = logging.getLogger("volley.bridge")

#: File descriptors kept free for the journal, the ledger's reads, pipes and the listening socket.
FD_RESERVE = 64

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
