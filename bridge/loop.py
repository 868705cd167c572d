"""Which event loop the bridge runs on: uvloop (libuv) where it is installed, else asyncio's own.

uvloop is a drop-in ``asyncio`` loop whose transports, timers and callbacks are written in Cython:
under 32 clients it cut the bridge's CPU per attack by about a sixth (``scripts/bench.py`` prints
both loops' figures). Nothing in the bridge depends on it: on Windows, where uvloop does not exist,
or with ``VOLLEY_LOOP=asyncio`` set, the same code runs on the standard loop.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Coroutine
from typing import Any, TypeVar

__all__ = ["LOOP_ENV", "loop_factory", "loop_name", "run"]

T = TypeVar("T")

#: Environment variable choosing the loop: ``uvloop`` (the default where installed) or ``asyncio``.
LOOP_ENV = "VOLLEY_LOOP"


def loop_factory() -> Callable[[], asyncio.AbstractEventLoop] | None:
    """uvloop's loop constructor, or None for asyncio's default (not installed, or not wanted)."""
    if os.environ.get(LOOP_ENV, "uvloop").strip().lower() == "asyncio":
        return None
    try:
        import uvloop
    except ImportError:  # Windows, or an install without it: the standard loop does the same job
        return None
    factory: Callable[[], asyncio.AbstractEventLoop] = uvloop.new_event_loop
    return factory


def loop_name() -> str:
    """``uvloop`` or ``asyncio``: what ``run`` will use (``/healthz`` and the bench say it)."""
    return "asyncio" if loop_factory() is None else "uvloop"


def run(main: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(main)`` on the loop ``loop_factory`` picks."""
    with asyncio.Runner(loop_factory=loop_factory()) as runner:
        return runner.run(main)
