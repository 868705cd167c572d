"""One websocket client, from ``hello`` to goodbye (after Home Assistant's websocket_api handler).

* Auth phase: the first frame must be a ``hello`` with the right token, within ``hello_timeout``;
  anything else closes the socket with 1008 (policy violation) before a single request is read.
* Command phase: each frame is size-checked, rate-limited and decoded; requests run as tasks so a
  slow fsync for one does not hold up the next; ``ping`` is answered at once.
* Replies go through a bounded queue drained by one writer task, so a client that stops reading
  cannot stall the server: when its queue is full, the connection is closed.
* Every log line carries the connection's tag.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import MutableMapping
from typing import Any

from aiohttp import WSCloseCode, WSMsgType, web

from bridge.access import token_matches
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
from bridge.ratelimit import TokenBucket
from bridge.referee import Referee

__all__ = ["OUTGOING_QUEUE", "Connection"]

#: Replies a client may leave unread before it is considered stuck and disconnected.
OUTGOING_QUEUE = 256

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
        referee: Referee,
        *,
        token: str,
        welcome: Welcome,
        bucket: TokenBucket,
        hello_timeout: float,
        tag: str,
    ) -> None:
        self.ws = ws
        self.referee = referee
        self.log = ConnectionLog(_log, {"connection": tag})
        self._token = token
        self._welcome = welcome
        self._bucket = bucket
        self._hello_timeout = hello_timeout
        self._outgoing: asyncio.Queue[bytes | None] = asyncio.Queue(OUTGOING_QUEUE)
        self._writer: asyncio.Task[None] | None = None
        self._tasks: set[asyncio.Task[Any]] = set()
        self._stopping = False

    async def run(self) -> None:
        """Serve the socket until the client leaves or the server shuts down."""
        if not await self._authenticate():
            return
        self._writer = asyncio.create_task(self._write_loop())
        self.log.info("authenticated")
        try:
            async for message in self.ws:
                if message.type == WSMsgType.TEXT:
                    self._on_frame(message.data if isinstance(message.data, bytes) else message.data.encode())
                elif message.type == WSMsgType.BINARY:
                    self._send_error(
                        None, ErrorCode.INVALID, "binary frames are not part of the protocol", "$"
                    )
                elif message.type == WSMsgType.ERROR:
                    self.log.warning("socket error: %s", self.ws.exception())
                    break
        finally:
            await self._finish()
            self.log.info("disconnected")

    async def shutdown(self) -> None:
        """Server stopping: let requests in flight finish and their replies go out, then say goodbye."""
        self._stopping = True
        await self._finish()
        await self.ws.close(code=WSCloseCode.GOING_AWAY, message=b"server shutting down")

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
        await self.ws.send_frame(encode(self._welcome), WSMsgType.TEXT)
        return True

    async def _refuse(self, reason: str) -> bool:
        self.log.warning("refused: %s", reason)
        if not self.ws.closed:
            with contextlib.suppress(ConnectionError):
                await self.ws.send_frame(
                    encode(Error(id=None, code=ErrorCode.UNAUTHORIZED, message=reason, path=None)),
                    WSMsgType.TEXT,
                )
            await self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=reason.encode()[:120])
        return False

    # --- command phase --------------------------------------------------------------------------

    def _on_frame(self, data: bytes) -> None:
        # Every frame counts against the rate, oversized ones too: each costs a look for its id.
        if not self._bucket.take():
            self._send_error(
                loose_id(data),
                ErrorCode.RATE_LIMITED,
                f"more than {self._bucket.rate:g} messages/s (burst {self._bucket.burst}); slow down",
                None,
            )
            return
        if len(data) > MAX_FRAME_BYTES:
            self._send_error(
                loose_id(data),
                ErrorCode.TOO_LARGE,
                f"frame of {len(data)} bytes > {MAX_FRAME_BYTES} bytes, the most the bridge reads",
                "$",
            )
            return
        try:
            message = decode_client(data)
        except ProtocolError as error:
            self._send_error(error.id, error.code, error.message, error.path)
            return
        match message:
            case Hello():
                self._send_error(None, ErrorCode.INVALID, "already authenticated", "$.type")
            case Ping():
                self._send(encode(Pong(id=message.id)))
            case _ if self._stopping:
                self._send_error(message.id, ErrorCode.SHUTTING_DOWN, "the server is shutting down", None)
            case _:
                task = asyncio.create_task(self._answer(message))
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def _answer(self, message: Any) -> None:
        reply = await self.referee.answer(message)
        self._send(reply)

    def _send_error(self, id: str | None, code: str, message: str, path: str | None) -> None:
        self._send(encode(Error(id=id, code=code, message=message, path=path)))

    def _send(self, data: bytes) -> None:
        try:
            self._outgoing.put_nowait(data)
        except asyncio.QueueFull:
            self.log.warning("client is not reading its replies; disconnecting")
            self._stopping = True
            task = asyncio.create_task(self.ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"too slow"))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    async def _write_loop(self) -> None:
        while True:
            data = await self._outgoing.get()
            if data is None:
                return
            if self.ws.closed:
                continue  # the client left; its results are journaled and will be re-sent on retry
            try:
                await self.ws.send_frame(data, WSMsgType.TEXT)
            except ConnectionError:
                continue

    async def _finish(self) -> None:
        """Wait for requests in flight (they are journaled even if the client left), then flush."""
        while self._tasks:
            await asyncio.gather(*list(self._tasks), return_exceptions=True)
        if self._writer is not None and not self._writer.done():
            await self._outgoing.put(None)
            await self._writer
