"""The loop's and aiohttp's error logs under a flood, kept quiet: running out of file descriptors while
accepting is logged once per interval (asyncio would log a traceback per failed accept), the retry
asyncio still runs after the bridge stopped listening is ignored, and aiohttp's per-request log lets
one record per message through per interval.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
from asyncio.constants import ACCEPT_RETRY_DELAY
from collections.abc import Iterator
from typing import Any

from bridge.server.ratelimit import OncePerInterval

__all__ = ["http_log", "quiet_accept_errors", "throttle_http_log"]

log = logging.getLogger("volley.bridge")
#: aiohttp's own per-request log (malformed requests...), throttled like the rest.
http_log = logging.getLogger("volley.bridge.http")

_OUT_OF_DESCRIPTORS = "socket.accept() out of system resource"
#: How asyncio names its accept retry in "Exception in callback ..." (selector event loops).
_RETRY_OF_A_CLOSED_LISTENER = "._start_serving("
#: Seconds past the last scheduled retry before the loop's own exception handler is put back.
_RETRY_MARGIN = 0.25


@contextlib.contextmanager
def quiet_accept_errors(out_of_descriptors: OncePerInterval) -> Iterator[None]:
    """The running loop's exception handler, while the bridge listens: running out of descriptors is
    logged when ``out_of_descriptors`` says it is due; every other error goes to the handler before."""
    loop = asyncio.get_running_loop()
    previous = loop.get_exception_handler()
    #: When the last accept retry asyncio scheduled after running out of descriptors will run.
    retry_due = -math.inf

    def on_loop_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        nonlocal retry_due
        message = context.get("message", "")
        if message == _OUT_OF_DESCRIPTORS:
            retry_due = loop.time() + ACCEPT_RETRY_DELAY
            count = out_of_descriptors.due()
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


def throttle_http_log(interval: float) -> None:
    for existing in http_log.filters:
        if isinstance(existing, _OncePerIntervalFilter):
            return
    http_log.addFilter(_OncePerIntervalFilter(interval))
