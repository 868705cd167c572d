"""Ctrl-C (and SIGTERM, Ctrl-Break) asks the running bridge to stop politely, on every system.

A polite stop finishes the requests in flight and flushes the journal (``bridge.server.app.run_server``);
the default reaction to Ctrl-C would kill the server mid-request. On Linux and macOS asyncio's
``loop.add_signal_handler`` takes the signal inside the event loop. Windows' event loops do not have
it (they raise ``NotImplementedError``), so there the plain ``signal.signal`` handler is used, and it
hands the stop to the loop with ``call_soon_threadsafe``, which also wakes a loop waiting for I/O.
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable
from typing import Any

__all__ = ["STOP_SIGNALS", "stop_on_signals"]

#: Ctrl-C, a service manager's stop, and Windows' Ctrl-Break (only where the system has it).
STOP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGBREAK") if hasattr(signal, name)
)


def stop_on_signals(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> Callable[[], None]:
    """Set ``stop`` on any of ``STOP_SIGNALS``; returns the function that puts the old handlers back."""
    try:
        for signum in STOP_SIGNALS:
            loop.add_signal_handler(signum, stop.set)
    except NotImplementedError:  # Windows: no signal handling inside the event loop
        for signum in STOP_SIGNALS:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                loop.remove_signal_handler(signum)
        return _plain_handlers(loop, stop)

    def restore() -> None:
        for signum in STOP_SIGNALS:
            with contextlib.suppress(Exception):
                loop.remove_signal_handler(signum)

    return restore


def _plain_handlers(loop: asyncio.AbstractEventLoop, stop: asyncio.Event) -> Callable[[], None]:
    def on_signal(signum: int, frame: Any) -> None:
        loop.call_soon_threadsafe(stop.set)

    previous = {signum: signal.signal(signum, on_signal) for signum in STOP_SIGNALS}

    def restore() -> None:
        for signum, handler in previous.items():
            # None: the old handler was installed from C and cannot be put back; the default can.
            signal.signal(signum, signal.SIG_DFL if handler is None else handler)

    return restore
