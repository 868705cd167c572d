"""The server's fast send path, walled off here behind one switch (``ON``).

Under load most of the loop's time per attack was aiohttp's coroutine per frame and one kernel send per
reply, so the fast path does three things aiohttp's public API does not:

* **Hand-built frames.** A reply is written to the transport as an unmasked text frame built here
  (``write_frames``: what a server's aiohttp writes, byte for byte), several frames in one write, with
  no coroutine per frame; the connection then applies its one back-pressure rule
  (``bridge.server.connection``).
* **One write per socket per group commit** (``one_write_per_socket``): the journal tells a batch's
  waiters inside it (``Journal.replying``), and replies sent meanwhile are held and leave at its end,
  one write per socket. The batch being held is module state: there is one event loop.
* **A lone line written at once** (``nothing_else_ready``): the journal may fsync a line on the loop
  when no other request is due this turn, which only the loop's queue of ready callbacks can tell
  (``_ready``, a private attribute of asyncio's own loops; on a loop without it the answer is no).

With ``ON`` false (``VOLLEY_FAST_SEND=0`` in the environment, or a test setting it) every reply goes
through the connection's outbox and writer task with aiohttp's own ``send_str`` (which builds the frame
and waits for the socket to drain), nothing is held for a batch, and a lone line waits a turn for
company like any other. The replies are the same bytes, in the same order: tests/bridge/
test_bridge_send_paths.py holds both paths to that.
"""

from __future__ import annotations

import contextlib
import logging
import os
import struct
from collections.abc import Iterator
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    import asyncio

__all__ = ["ON", "Holder", "hold", "nothing_else_ready", "one_write_per_socket", "text_frame", "write_frames"]

_log = logging.getLogger("volley.bridge")

#: The switch: the fast path (True) or aiohttp's public one (False).
ON = os.environ.get("VOLLEY_FAST_SEND", "1") != "0"


class Holder(Protocol):
    """A connection whose replies ``one_write_per_socket`` may hold."""

    _held: list[bytes]

    def _send_held(self) -> None: ...


class _Holding:
    """The connections holding replies while ``one_write_per_socket`` is open (None when it is not)."""

    sockets: list[Holder] | None = None


_holding = _Holding()


def hold(connection: Holder, data: bytes) -> bool:
    """Hold ``data`` for ``connection``'s one write at the end of ``one_write_per_socket``, if it is
    open (True); else the caller writes it now (False)."""
    held = _holding.sockets
    if held is None:
        return False
    if not connection._held:
        held.append(connection)
    connection._held.append(data)
    return True


@contextlib.contextmanager
def one_write_per_socket() -> Iterator[None]:
    """Replies sent inside are held and leave at its end, one write per socket.

    Under load a group commit answers a hundred requests at once, several of them from the same
    client, and one write of their frames costs the kernel one send instead of several (the send was
    the loop's largest single cost). Order on each socket is kept, and the write obeys the one
    back-pressure rule (``Connection._write``). Nested use is the outer one; with the switch off,
    nothing is held.
    """
    if not ON or _holding.sockets is not None:
        yield
        return
    held: list[Holder] = []
    _holding.sockets = held
    try:
        yield
    finally:
        _holding.sockets = None
        for connection in held:
            try:
                connection._send_held()
            except Exception:  # one broken socket must not keep the rest of the batch's replies
                _log.exception("sending held replies failed")


def nothing_else_ready(loop: asyncio.AbstractEventLoop) -> bool:
    """Whether no callback is due this turn of ``loop`` (requests read in the same turn are tasks not
    yet started, visible only there). False with the switch off or on a loop that does not say."""
    if not ON:
        return False
    ready = getattr(loop, "_ready", None)
    return ready is not None and not ready


def write_frames(transport: asyncio.Transport, frames: list[bytes]) -> None:
    """Each reply as a text frame, all of them in one write."""
    if len(frames) == 1:
        transport.write(text_frame(frames[0]))
    else:
        transport.write(b"".join([text_frame(data) for data in frames]))


def text_frame(data: bytes) -> bytes:
    """One unmasked, uncompressed, final text frame (RFC 6455 5.2): what a server's aiohttp writes."""
    size = len(data)
    if size < 126:
        return _LEN1(0x81, size) + data
    if size < 65536:
        return _LEN2(0x81, 126, size) + data
    return _LEN3(0x81, 127, size) + data


_LEN1 = struct.Struct("!BB").pack
_LEN2 = struct.Struct("!BBH").pack
_LEN3 = struct.Struct("!BBQ").pack
