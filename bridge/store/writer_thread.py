"""The journal's one writing thread: a batch goes in, and ``done(batch, seconds, error)`` comes back on
the event loop once it is durable (or failed).

This file's one concurrency mechanism is that thread and its queue; the group commit that decides
what goes to it lives on the loop (``bridge.store.journal``), the writing itself in
``bridge.store.journal_file``.
"""

from __future__ import annotations

import queue
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    import asyncio

__all__ = ["WriterThread"]

B = TypeVar("B")


class WriterThread(Generic[B]):
    """Writes each batch's bytes with ``write`` (returning the sync's seconds), in the order given.

    A queue and a thread of its own rather than a one-worker ``ThreadPoolExecutor``: the executor's
    future, locks and done-callback per batch were a measurable share of the loop's time per attack
    under load (the loop does everything else). Started with the first batch; a daemon, so a journal
    never closed (a test's) cannot keep the interpreter alive, and nothing is lost by that: a line is
    acknowledged only after ``done`` has run on the loop.
    """

    __slots__ = ("_done", "_loop", "_queue", "_started", "_write")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        write: Callable[[bytes], float],
        done: Callable[[B, float, BaseException | None], None],
    ) -> None:
        self._loop = loop
        self._write = write
        self._done = done
        self._queue: queue.SimpleQueue[tuple[B, bytes] | None] = queue.SimpleQueue()
        self._started: threading.Thread | None = None

    def write(self, batch: B, data: bytes) -> None:
        if self._started is None:
            self._started = threading.Thread(target=self._run, name="journal", daemon=True)
            self._started.start()
        self._queue.put((batch, data))

    def _run(self) -> None:
        while (item := self._queue.get()) is not None:
            batch, data = item
            seconds, error = 0.0, None
            try:
                seconds = self._write(data)
            except BaseException as failure:  # told to the loop, as a future would have held it
                error = failure
            try:
                self._loop.call_soon_threadsafe(self._done, batch, seconds, error)
            except RuntimeError:  # the loop has closed: nobody is left to tell
                return

    def shutdown(self) -> None:
        """Let the batch being written finish, then end the thread (blocks as long as that takes)."""
        if self._started is not None:
            self._queue.put(None)
            self._started.join()
