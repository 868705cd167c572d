"""One websocket client, from ``hello`` to goodbye (after Home Assistant's websocket_api handler).

* Auth phase: the first frame must be a ``hello`` with the right token, within ``hello_timeout``;
  anything else closes the socket with 1008 (policy violation) before a single request is read. A
  good token still needs a free slot for authenticated connections (``bridge.server.gate``), else 1013.
* Command phase: each frame is size-checked, decoded and rate-limited per relayed user
  (``bridge.server.ratelimit``), then handed to the scribe with a callback for its reply: a slow fsync for
  one request does not hold up the next, and a request answered at once (a ping, a retry, a
  refusal, cheap odds) or from the journal's completion (an attack) costs no task of its own.
* **One back-pressure rule for every reply**, whichever path sends it (``_write``): a reply is written
  to the socket only while the socket is not pushing back, and a write that leaves it pushing back
  (its buffer past the transport's high-water mark: the protocol aiohttp serves the connection with
  is told ``pause_writing``) sends every later reply to the ``Outbox`` until it drains. The socket is
  asked through aiohttp's own protocol for the connection (``request.protocol``), never through
  ``transport.get_protocol()``: under ``volley serve`` that is the door's protocol
  (``bridge.server.gate``), which passes the pause on but does not answer for it. A reply goes straight to
  the socket when nothing waits before it (the usual case: no hop through the writer task);
  otherwise through the outbox, bounded in frames and in bytes and drained by one writer task, which
  writes by the same rule. The reader applies back-pressure: while the outbox (with the requests in
  flight) is full, it reads no further frames, so a client that sends a burst and reads its replies
  is slowed down, never cut off. Only an outbox that *stays* full for ``Pace.stall_timeout`` (the
  client is not reading) closes the connection, 1008 "too slow"; the close itself has
  ``Pace.close_timeout``, after which a socket that will not take the close frame is aborted, and the
  replies it held are let go at once (they are journaled: a retry gets them).
* Every log line carries the connection's tag; repeated warnings are logged once per interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable, MutableMapping
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web
from aiohttp.base_protocol import BaseProtocol

from bridge.protocol import (
    MAX_FRAME_BYTES,
    Error,
    ErrorCode,
    Hello,
    Ping,
    Pong,
    ProtocolError,
    Welcome,
    decode_client,
    encode,
    loose_id,
)
from bridge.scribe import Scribe
from bridge.server import fast_send
from bridge.server.access import token_matches
from bridge.server.outbox import Outbox, Pace
from bridge.server.ratelimit import OncePerInterval, RelayLimits
from bridge.server.turns import Turns

__all__ = ["Connection"]

_log = logging.getLogger("volley.bridge")


class ConnectionLog(logging.LoggerAdapter[logging.Logger]):
    """Prefixes every line with the connection's tag, e.g. ``[#3 127.0.0.1:51234]``."""

    def process(self, msg: Any, kwargs: MutableMapping[str, Any]) -> tuple[Any, MutableMapping[str, Any]]:
        tag = self.extra["connection"] if self.extra else "?"
        return f"[{tag}] {msg}", kwargs


class Connection:
    def __init__(
        self,
        ws: web.WebSocketResponse,
        scribe: Scribe,
        *,
        token: str,
        welcome: Welcome,
        limits: RelayLimits,
        hello_timeout: float,
        tag: str,
        transport: asyncio.Transport,
        flow: BaseProtocol,
        pace: Pace | None = None,
        admit: Callable[[], bool] | None = None,
    ) -> None:
        self.ws = ws
        self.scribe = scribe
        self.log = ConnectionLog(_log, {"connection": tag})
        self.limits = limits
        self.pace = pace or Pace()
        self._token = token
        self._welcome = welcome
        self._hello_timeout = hello_timeout
        self._transport = transport
        #: aiohttp's protocol for this connection: the one told when the socket pushes back
        self._flow_control = flow
        self._admit = admit
        self.outbox = Outbox(self.pace, on_full=self._outbox_full, on_room=self._outbox_has_room)
        self._writer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        #: requests read whose replies have not been sent or queued yet
        self._unanswered = 0
        self._all_answered = asyncio.Event()  # set whenever every request read has been answered
        self._all_answered.set()
        #: replies held by ``one_write_per_socket`` for one write at its end
        self._held: list[bytes] = []
        #: waits for the socket's buffer to drain after a write left it pushing back
        self._drain_wait: asyncio.Task[None] | None = None
        self._stall: asyncio.TimerHandle | None = None
        self._stopping = False  # the server is shutting down: no new requests
        self._hanging_up = False  # this connection is being closed: nothing more is sent
        self._rate_warning = OncePerInterval(self.pace.warning_interval)
        self.dropped = 0

    async def run(self) -> None:
        """Serve the socket until the client leaves, is cut off, or the server shuts down."""
        if not await self._authenticate():
            return
        self._writer = asyncio.create_task(self._write_loop())
        self.log.info("authenticated")
        turns = Turns()
        try:
            async for message in self.ws:
                started = time.perf_counter()
                if message.type == WSMsgType.TEXT:
                    self._on_frame(message.data if isinstance(message.data, bytes) else message.data.encode())
                elif message.type == WSMsgType.BINARY:
                    self._send_error(
                        None, ErrorCode.INVALID, "binary frames are not part of the protocol", "$"
                    )
                elif message.type == WSMsgType.ERROR:
                    self.log.warning("socket error: %s", self.ws.exception())
                    break
                # Frames that arrived together are read without a turn of the loop in between, up
                # to a budget (``Turns``): then the loop turns, and other sockets get read.
                if turns.due(time.perf_counter() - started):
                    await asyncio.sleep(0)
                # Back-pressure: read no further frame until the replies already owed have room (asked
                # here first: almost always there is, and then no coroutine is made for the wait).
                if not self.outbox.may_read(self._unanswered):
                    await self.outbox.wait_for_room(self._in_flight)
                if self._hanging_up:
                    break
        finally:
            await self._finish()
            self.log.info("disconnected%s", self._summary())

    async def shutdown(self) -> None:
        """Server stopping: let requests in flight finish and their replies go out, then say goodbye."""
        self._stopping = True
        await self._finish(drain=True)
        await self._hang_up(WSCloseCode.GOING_AWAY, "server shutting down")

    # --- auth phase -----------------------------------------------------------------------------

    async def _authenticate(self) -> bool:
        try:
            async with asyncio.timeout(self._hello_timeout):
                message = await self.ws.receive()
        except TimeoutError:
            return await self._refuse(f"no hello within {self._hello_timeout:g} s")
        if message.type != WSMsgType.TEXT:
            return await self._refuse("the first message must be a hello")
        data = message.data if isinstance(message.data, bytes) else str(message.data).encode()
        try:
            hello = decode_client(data)
        except ProtocolError as error:
            if error.path in ("$.token", "$.client"):  # only a hello has these fields
                return await self._refuse(f"bad hello: {error.message} at {error.path}")
            return await self._refuse("the first message must be a hello")
        if not isinstance(hello, Hello):
            return await self._refuse("the first message must be a hello")
        if not token_matches(self._token, hello.token):
            return await self._refuse("wrong access token")
        if self._admit is not None and not self._admit():
            return await self._refuse(
                "every slot for an authenticated connection is taken; close another and retry",
                code=ErrorCode.BUSY,
                close_code=WSCloseCode.TRY_AGAIN_LATER,
            )
        with contextlib.suppress(ConnectionError):
            await self.ws.send_frame(encode(self._welcome), WSMsgType.TEXT)
        return not self.ws.closed

    async def _refuse(
        self,
        reason: str,
        *,
        code: str = ErrorCode.UNAUTHORIZED,
        close_code: int = WSCloseCode.POLICY_VIOLATION,
    ) -> bool:
        self.log.warning("refused: %s", reason)
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError):
                async with asyncio.timeout(self.pace.close_timeout):
                    await self.ws.send_frame(
                        encode(Error(id=None, code=code, message=reason, path=None)), WSMsgType.TEXT
                    )
        await self._hang_up(close_code, reason)
        return False

    # --- command phase --------------------------------------------------------------------------

    def _on_frame(self, data: bytes) -> None:
        if len(data) > MAX_FRAME_BYTES:
            # Not decoded: its user is unknown, so it counts against the connection's own bucket.
            id = loose_id(data)
            if not self._rate_limited(None, id):
                self._send_error(
                    id,
                    ErrorCode.TOO_LARGE,
                    f"frame of {len(data)} bytes > {MAX_FRAME_BYTES} bytes, the most the bridge reads",
                    "$",
                )
            return
        try:
            message = decode_client(data)
        except ProtocolError as error:
            if not self._rate_limited(None, error.id):
                self._send(encode(error.reply()))
            return
        if self._rate_limited(getattr(message, "user", None), getattr(message, "id", None)):
            return
        match message:
            case Hello():
                self._send_error(None, ErrorCode.INVALID, "already authenticated", "$.type")
            case Ping():
                self._send(encode(Pong(id=message.id)))
            case _ if self._stopping:
                self._send_error(message.id, ErrorCode.SHUTTING_DOWN, "the server is shutting down", None)
            case _:
                self._unanswered += 1
                self._all_answered.clear()
                self.scribe.submit(message, self._reply)

    def _rate_limited(self, user: str | None, id: str | None) -> bool:
        """Refuse the frame with ``rate_limited`` if its user (or the connection) is over the rate."""
        refusal = self.limits.admit(user)
        if refusal is None:
            return False
        count = self._rate_warning.due()
        if count == 1:
            self.log.warning(
                "rate limit: %s; further refusals are counted and logged at most every %g s",
                refusal.message,
                self._rate_warning.interval,
            )
        elif count is not None:
            self.log.warning(
                "rate limit: %d more frames refused in the last %g s or so (latest: %s)",
                count,
                self._rate_warning.interval,
                refusal.message,
            )
        self._send_error(id, ErrorCode.RATE_LIMITED, refusal.message, None)
        return True

    def _in_flight(self) -> int:
        return self._unanswered

    def _reply(self, data: bytes) -> None:
        """The scribe's answer to one request read from this socket."""
        self._unanswered -= 1
        self._send(data)
        if not self._unanswered:
            self._all_answered.set()
        self.outbox.nudge()

    def _send_error(self, id: str | None, code: str, message: str, path: str | None) -> None:
        self._send(encode(Error(id=id, code=code, message=message, path=path)))

    def _send(self, data: bytes) -> None:
        if (
            fast_send.ON
            and self.outbox.idle
            and self._drain_wait is None
            and not self._hanging_up
            and not self.ws.closed
        ):
            # Inside ``one_write_per_socket`` it is written with this socket's other replies at its end.
            if not fast_send.hold(self, data):
                self._write([data])
        elif not self.outbox.put(data):
            self.dropped += 1

    def _send_held(self) -> None:
        """Write the replies ``one_write_per_socket`` held for this socket in one write."""
        frames, self._held = self._held, []
        self._write(frames)

    def _write(self, frames: list[bytes]) -> None:
        """The one way a reply reaches the socket (straight from ``_send``, held for a batch, or from
        the writer task): consecutive unmasked text frames in one write (what aiohttp would write one
        by one, byte for byte, without its coroutine per frame), then the back-pressure rule: if the
        socket now pushes back, later replies wait in the outbox until it drains (``_drain_wait``)."""
        transport = self._transport
        if transport.is_closing() or self.ws.closed:
            self.dropped += len(frames)  # the client left; its results are journaled (a retry gets them)
            return
        try:
            fast_send.write_frames(transport, frames)
        except (ConnectionError, RuntimeError):
            self.dropped += len(frames)
            return
        if self._drain_wait is None and self._flow_control.writing_paused:
            self._drain_wait = asyncio.create_task(self._drained())
            self._drain_wait.add_done_callback(self._drain_ended)

    async def _drained(self) -> None:
        """Until the socket takes writes again (aiohttp's protocol is told ``resume_writing``), or is lost."""
        with contextlib.suppress(ConnectionError):
            await self._flow_control._drain_helper()

    def _drain_ended(self, task: asyncio.Task[None]) -> None:
        if self._drain_wait is task:
            self._drain_wait = None
        if not task.cancelled():
            task.exception()  # a socket that broke meanwhile: nothing more to do for this frame

    # --- slow readers ---------------------------------------------------------------------------

    def _outbox_full(self) -> None:
        if self._stall is None and not self._hanging_up:
            self._stall = asyncio.get_running_loop().call_later(self.pace.stall_timeout, self._stalled)

    def _outbox_has_room(self) -> None:
        if self._stall is not None:
            self._stall.cancel()
            self._stall = None

    def _stalled(self) -> None:
        self._stall = None
        self.log.warning(
            "client is not reading its replies (%d frames, %d bytes waiting for %g s); disconnecting",
            len(self.outbox),
            self.outbox.bytes,
            self.pace.stall_timeout,
        )
        task = asyncio.create_task(self._hang_up(WSCloseCode.POLICY_VIOLATION, "too slow"))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _hang_up(self, code: int, reason: str) -> None:
        """Close the socket with ``code``; a client that will not take the close frame is aborted.

        Replies still waiting are let go first (they are journaled; a retry after reconnecting gets
        them), so a stuck client holds no memory while its close is pending.
        """
        if self._hanging_up:
            return
        self._hanging_up = True
        self.dropped += self.outbox.close()
        self._outbox_has_room()
        try:
            async with asyncio.timeout(self.pace.close_timeout):
                await self.ws.close(code=code, message=reason.encode()[:120])
        except TimeoutError:
            self.log.warning(
                "the client did not take the close frame within %g s; connection aborted",
                self.pace.close_timeout,
            )
            self._abort()
        except ConnectionError:
            self._abort()

    def _abort(self) -> None:
        """Drop the socket and whatever it still buffers (also when a close is stuck flushing)."""
        if self._transport is not None:
            self._transport.abort()

    async def _write_loop(self) -> None:
        while True:
            await self._until_drained()  # the socket is pushing back on the last write
            data = await self.outbox.take()
            if data is None:
                return
            if fast_send.ON:
                await self._until_drained()
                self._write([data])
            else:
                await self._send_plain(data)

    async def _send_plain(self, data: bytes) -> None:
        """A reply through aiohttp's own ``send_str``, which builds the frame and waits for the socket
        to drain (the fast path's switch is off: ``bridge.server.fast_send``)."""
        if self._transport.is_closing() or self.ws.closed:
            self.dropped += 1  # the client left; its result is journaled (a retry gets it)
            return
        try:
            await self.ws.send_str(data.decode())
        except (ConnectionError, RuntimeError):
            self.dropped += 1

    async def _until_drained(self) -> None:
        flow = self._drain_wait
        if flow is not None:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await flow

    async def _finish(self, *, drain: bool = False) -> None:
        """Wait for requests in flight (they are journaled even if the client left), then stop writing.

        With ``drain`` (a polite shutdown) the replies still waiting get ``close_timeout`` to go out.
        """
        while self._tasks or self._unanswered:
            await self._all_answered.wait()
            if self._tasks:
                await asyncio.gather(*list(self._tasks), return_exceptions=True)
        writer = self._writer
        if writer is None or writer.done():
            self._stop_drain_wait()
            return
        if drain and not self._hanging_up:
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(self.pace.close_timeout):
                    await self.outbox.drained()
        self.dropped += self.outbox.close()
        self._outbox_has_room()
        try:
            async with asyncio.timeout(self.pace.close_timeout):
                await writer
        except TimeoutError:
            # The writer is stuck sending to a client that does not read: abort the socket under it.
            self._abort()
            writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await writer
        self._stop_drain_wait()

    def _stop_drain_wait(self) -> None:
        """A reply still waiting for the socket to drain when the connection is done: let it go."""
        if self._drain_wait is not None and not self._drain_wait.done():
            self._drain_wait.cancel()

    def _summary(self) -> str:
        parts = []
        if self._rate_warning.total:
            parts.append(f"{self._rate_warning.total} frames rate-limited")
        if self.dropped:
            parts.append(f"{self.dropped} replies not delivered (journaled; a retry gets them)")
        return f" ({'; '.join(parts)})" if parts else ""
