"""The rules workers' pool where the event loop cannot watch a pipe (Windows' proactor loop):
``concurrent.futures.ProcessPoolExecutor``, each job and answer passing the executor's threads
(``bridge.server.workers``; on POSIX the loop feeds its workers itself, ``bridge.server.pipe_pool``).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import multiprocessing
from collections.abc import Callable
from typing import Any

from bridge.server.worker_process import _start_worker

__all__ = ["ExecutorPool"]


class ExecutorPool:
    """``concurrent.futures.ProcessPoolExecutor`` behind ``Pool``: where the event loop cannot watch a
    pipe (Windows' proactor loop), each job and answer passes the executor's threads as before."""

    def __init__(self, workers: int, *, parent: int, warm_up: bool) -> None:
        self._executor = concurrent.futures.ProcessPoolExecutor(
            max_workers=workers,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_start_worker,
            initargs=(parent, warm_up),
        )

    @property
    def _processes(self) -> dict[int, Any]:
        # The executor's own table of its workers (there is no public one).
        return getattr(self._executor, "_processes", None) or {}

    def submit(self, job: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        return asyncio.wrap_future(self._executor.submit(job, *args))

    def stop(self) -> None:
        self._executor.shutdown(wait=False, cancel_futures=True)

    def join(self) -> None:
        self._executor.shutdown(wait=True, cancel_futures=True)
