"""Rules work that may take more than a millisecond runs in worker processes, off the event loop.

A cold MegaTraveller preview of automatic fire at many tokens can take tens of milliseconds of CPU;
on the event loop that is tens of milliseconds every other client waits, pings included. Threads would
not help: they share the interpreter's lock. So the bridge keeps a small pool of worker processes and
sends them the odds the rules estimate (``rules.odds_cost``) above ``OFFLOAD_MS``. Everything cheaper
stays on the loop, where it costs less than the round trip to a worker would (about 0.2-0.5 ms).

* One worker per core but one (at least one): the event loop keeps a core to itself. Workers take
  their jobs at a lower priority (``WORKER_NICE``, POSIX) so that on a busy machine the loop still
  wins the CPU.
* The pool starts in the background after the server is listening (start-up is not slowed), or on the
  first request that needs it. Each worker fills the rules' caches (``rules.warm_up``, about half a
  second of CPU, at the server's own priority) before it is counted as warm; ``/healthz`` says when
  all are. Only then does it lower its priority: warming up at ``WORKER_NICE`` beside two busy
  processes took over a minute.
* Until the pool is warm, a costly preview is computed on the loop instead (``run`` answers None):
  it costs tens of milliseconds there, where queued behind a worker's warm-up on a loaded machine it
  could wait seconds (a browser test once waited 60 s for a preview at load 15 on two cores). The
  same holds for a pool started again after a worker died. Without a warm-up (``warm_up=False``,
  tests) jobs queue as before.
* Workers leave with the server: a polite stop shuts the pool down and waits for it; if the server is
  killed (SIGKILL), each worker notices its parent is gone within ``ORPHAN_CHECK`` seconds and exits.
* A worker that dies (a crash, the OOM killer) breaks the pool; the request gets ``internal`` and a
  fresh pool is started for the next one.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
import multiprocessing
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any

__all__ = ["OFFLOAD_MS", "ORPHAN_CHECK", "WORKER_NICE", "RulesWorkers", "default_workers"]

log = logging.getLogger("volley.bridge")

#: Odds the rules estimate above this many milliseconds are computed in a worker.
OFFLOAD_MS = 1.0
#: How much lower a worker's scheduling priority is than the server's (``nice`` steps).
WORKER_NICE = 19
#: Seconds between a worker's checks that the server that started it is still alive.
ORPHAN_CHECK = 0.5
#: Seconds a worker stopped mid-warm-up has to go after SIGTERM before it is killed (SIGKILL).
KILL_GRACE = 1.0

#: (kind, payload...): ``("odds", reply bytes)`` or ``("error", code, message, path, msg)``.
Outcome = tuple[Any, ...]


def default_workers() -> int:
    """One per core but one, and at least one."""
    return max(1, (os.cpu_count() or 1) - 1)


async def _kill_the_deaf(processes: list[Any], grace: float) -> None:
    """Kill (SIGKILL) what is still alive ``grace`` seconds after its SIGTERM.

    A SIGTERM can wait: a worker spawned a moment ago still has every signal blocked between its fork
    and its exec, and a worker the machine has stopped or starved may not run for a long time.
    Nothing a warming worker holds needs a clean exit, and the bridge's stop must not wait on it.
    """
    deadline = time.monotonic() + grace
    while time.monotonic() < deadline and any(process.is_alive() for process in processes):
        await asyncio.sleep(0.02)
    for process in processes:
        if process.is_alive():
            with contextlib.suppress(OSError, ValueError):  # gone meanwhile, or already closed
                process.kill()


# --- in the worker --------------------------------------------------------------------------------


def _leave_when_orphaned(parent: int) -> None:
    while True:
        time.sleep(ORPHAN_CHECK)
        if os.getppid() != parent:
            os._exit(0)


def _start_worker(parent: int, warm_up: bool) -> None:
    """Worker initializer: orphan watch, warm caches, then lower priority for the jobs.

    The warm-up (about half a second of CPU) runs at the server's own priority: at ``WORKER_NICE``
    beside two busy processes it took over a minute (a nice-19 process gets ~1.5% of a contended
    core), and until it ends costly previews fall back to the loop. Lowered afterwards, since only
    the jobs compete with the loop while tables are being served.
    """
    threading.Thread(target=_leave_when_orphaned, args=(parent,), daemon=True, name="orphan-watch").start()
    if warm_up:
        import gc

        import rules

        rules.warm_up()
        gc.freeze()  # the warm tables live as long as the worker: keep them out of every collection
    if sys.platform != "win32":  # Windows has no nice; its workers run at the server's priority
        with contextlib.suppress(OSError):
            os.nice(WORKER_NICE)


def _ready() -> int:
    time.sleep(0.02)
    return os.getpid()


def _odds(id: str, request: bytes) -> Outcome:
    """Odds in a worker, exactly as the loop would compute them (``bridge.resolution``)."""
    import gc

    from bridge.protocol import ProtocolError
    from bridge.resolution import odds_reply

    try:
        return ("odds", odds_reply(id, request))
    except ProtocolError as error:
        return ("error", error.code, error.message, error.path, error.msg)
    finally:
        # What a cold preview computed is memoised for the worker's life: keep it out of later
        # collections, which would otherwise walk every table on each full pass.
        gc.freeze()


# --- in the server --------------------------------------------------------------------------------


class RulesWorkers:
    """The server's pool of rules workers (see the module docstring)."""

    def __init__(self, *, workers: int | None = None, warm_up: bool = True) -> None:
        self.workers = workers or default_workers()
        self.warm_up = warm_up
        self._pool: concurrent.futures.ProcessPoolExecutor | None = None
        self._starting: asyncio.Task[None] | None = None
        self._pids: list[int] = []
        self._warm = False
        self._closed = False
        self._failed = False

    @property
    def warm(self) -> bool:
        """Every worker has started and filled its caches."""
        return self._warm

    @property
    def pids(self) -> list[int]:
        return list(self._pids)

    def start(self) -> asyncio.Task[None]:
        """Start the pool in the background (once); the task ends when every worker is warm."""
        if self._starting is None:
            self._starting = asyncio.create_task(self._start(), name="rules workers")
        return self._starting

    def _ensure_pool(self) -> concurrent.futures.ProcessPoolExecutor:
        if self._pool is None:
            self._pool = concurrent.futures.ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=_start_worker,
                initargs=(os.getpid(), self.warm_up),
            )
        return self._pool

    async def _start(self) -> None:
        started = time.perf_counter()
        loop = asyncio.get_running_loop()
        try:
            pool = self._ensure_pool()
            # A worker runs its initializer (and warm-up) before its first job, so once every worker
            # has answered a job, all are warm. Jobs linger a moment so that idle workers take them.
            seen: set[int] = set()
            for _ in range(50):
                jobs = [loop.run_in_executor(pool, _ready) for _ in range(self.workers)]
                seen.update(await asyncio.gather(*jobs))
                if len(seen) >= self.workers:
                    break
            self._pids = sorted(seen)
        except Exception as error:  # the server still serves, with every preview on the loop
            log.warning("rules workers failed to start (previews stay on the event loop): %r", error)
            self._failed = True
            return
        self._warm = True
        log.info(
            "%d rules worker(s) ready in %.0f ms (pids %s)",
            len(self._pids),
            1000 * (time.perf_counter() - started),
            ", ".join(map(str, self._pids)),
        )

    async def run(self, job: Callable[..., Outcome], *args: Any) -> Outcome | None:
        """Run ``job(*args)`` in a worker; None if there is no pool (the caller computes it inline)."""
        if self._closed or self._failed:
            return None
        self.start()  # no wait for the warm-up: a job queues until a worker is up...
        if self.warm_up and not self._warm:
            return None  # ...except behind a warm-up, which a loaded machine may starve
        try:
            pool = self._ensure_pool()
        except Exception:
            return None
        try:
            return await asyncio.get_running_loop().run_in_executor(pool, job, *args)
        except BrokenProcessPool:
            log.error("a rules worker died; starting a fresh pool")
            self._restart(pool)
            return ("error", "internal", "a rules worker died; try again", None, None)

    async def odds(self, id: str, request: bytes) -> Outcome | None:
        """Odds of ``request`` (the client's JSON bytes, decoded in the worker) in a worker."""
        return await self.run(_odds, id, request)

    def _restart(self, broken: concurrent.futures.ProcessPoolExecutor) -> None:
        if self._pool is broken:
            broken.shutdown(wait=False, cancel_futures=True)
            self._pool = None
            self._warm = False
            self._starting = None

    async def close(self) -> None:
        """Stop the workers and wait for them (no orphans).

        A warm-up still running is stopped, not waited for: on a busy machine it can take longer than
        the bridge's whole stop deadline (SIGTERM waited 30 s for one at nice 19), and a worker holds
        nothing but caches. Its processes are terminated (killed after ``KILL_GRACE``), and the task
        that waited for them cancelled.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        stopping: list[Any] = []
        if pool is not None and not self._warm:
            # ``_processes`` is the executor's own table of its workers (there is no public one).
            stopping = list((getattr(pool, "_processes", None) or {}).values())
            for process in stopping:
                process.terminate()
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.wait([self._starting])
        if stopping:
            await _kill_the_deaf(stopping, KILL_GRACE)
        if pool is not None:
            await asyncio.to_thread(pool.shutdown, wait=True, cancel_futures=True)
