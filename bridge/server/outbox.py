"""A connection's replies waiting for the socket (``Outbox``), and how far a client may fall behind in
reading them (``Pace``): the bounded queue behind the one back-pressure rule of
``bridge.server.connection``."""

from __future__ import annotations

import asyncio
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Outbox", "Pace"]


@dataclass(frozen=True)
class Pace:
    """How far a client may fall behind in reading its replies, and how long a goodbye may take."""

    #: Replies (plus requests in flight) a connection may have waiting before its frames stop being read.
    outgoing_frames: int = 256
    #: Bytes of replies a connection may have waiting (one larger reply still goes out alone).
    outgoing_bytes: int = 1 << 20
    #: Seconds the outbox may stay full before the client is judged not to be reading: 1008 "too slow".
    stall_timeout: float = 10.0
    #: Seconds a close may take (our close frame out, the client's back); then the socket is aborted.
    close_timeout: float = 2.0
    #: Seconds between two warnings of the same kind on one connection (rate limit).
    warning_interval: float = 10.0


class Outbox:
    """Reply frames waiting for the writer task, counted in frames and in bytes.

    ``put`` never refuses: a reply exists because its request was read, and the reader stops reading
    while ``has_room`` is false, so the count stays bounded. ``on_full`` and ``on_room`` tell the
    connection when the outbox fills up and when the writer takes a frame off a full one.
    """

    def __init__(self, pace: Pace, *, on_full: Callable[[], None], on_room: Callable[[], None]) -> None:
        self._pace = pace
        self._frames: deque[bytes] = deque()
        self.bytes = 0
        self._on_full = on_full
        self._on_room = on_room
        self._ready = asyncio.Event()
        self._room = asyncio.Event()
        self._room.set()
        self._idle = asyncio.Event()  # the writer is waiting for a frame: everything taken went out
        self.closed = False

    def __len__(self) -> int:
        return len(self._frames)

    @property
    def idle(self) -> bool:
        """The writer waits on an empty outbox: a reply sent now goes out after everything before it."""
        return self._idle.is_set() and not self.closed

    @property
    def full(self) -> bool:
        return len(self._frames) >= self._pace.outgoing_frames or self.bytes >= self._pace.outgoing_bytes

    def has_room(self, in_flight: int) -> bool:
        """Whether another frame may be read, counting the replies its requests in flight will add."""
        return (
            len(self._frames) + in_flight < self._pace.outgoing_frames
            and self.bytes < self._pace.outgoing_bytes
        )

    def may_read(self, in_flight: int) -> bool:
        """Whether the reader may go on: there is room, or the outbox is closed (nothing to wait for)."""
        return self.closed or self.has_room(in_flight)

    def put(self, data: bytes) -> bool:
        """Queue a reply; ``False`` if the outbox is closed (the reply is let go: it is journaled)."""
        if self.closed:
            return False
        self._frames.append(data)
        self.bytes += len(data)
        self._idle.clear()
        self._ready.set()
        if self.full:
            self._on_full()
        return True

    async def take(self) -> bytes | None:
        """The next reply, or ``None`` once the outbox is closed."""
        while not self._frames:
            if self.closed:
                return None
            self._idle.set()
            self._ready.clear()
            await self._ready.wait()
        self._idle.clear()
        was_full = self.full
        data = self._frames.popleft()
        self.bytes -= len(data)
        self._room.set()
        if was_full and not self.full:
            self._on_room()
        return data

    async def wait_for_room(self, in_flight: Callable[[], int]) -> None:
        while not self.may_read(in_flight()):
            self._room.clear()
            await self._room.wait()

    async def drained(self) -> None:
        """Until every queued reply has been handed to the socket."""
        await self._idle.wait()

    def nudge(self) -> None:
        """A request in flight finished: the reader may have room again."""
        self._room.set()

    def close(self) -> int:
        """Let go of every waiting reply (they are journaled: a retry gets them); how many there were."""
        dropped = len(self._frames)
        self._frames.clear()
        self.bytes = 0
        self.closed = True
        self._ready.set()
        self._room.set()
        self._idle.set()
        return dropped
