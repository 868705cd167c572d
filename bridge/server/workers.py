"""Rules work that may take more than a millisecond runs in worker processes, off the event loop.

A cold MegaTraveller preview of automatic fire at many tokens can take tens of milliseconds of CPU;
on the event loop that is tens of milliseconds every other client waits, pings included. Threads would
not help: they share the interpreter's lock. So the bridge keeps a small pool of worker processes and
sends them the odds the rules estimate (``rules.odds_cost``) above ``OFFLOAD_MS``. Everything cheaper
stays on the loop, where it costs less than the round trip to a worker would (about 0.2-0.5 ms).

* **The loop feeds and reads the workers itself** (``PipePool``): each worker has a pipe for its jobs
  and one for its answers, the answers' pipe is watched by the event loop (``loop.add_reader``), and a
  worker holds one job at a time (the others wait in the server, for whichever worker is free first).
  No thread of the server's is involved: ``concurrent.futures.ProcessPoolExecutor`` hands each job
  and answer through a manager thread and a queue feeder thread, and on two cores those threads, the
  loop and the workers competing for the CPU and the interpreter's lock cost another client's ping
  up to a millisecond per preview answered (issue 38). Where the loop cannot watch a pipe (Windows'
  proactor loop) the executor is used as before (``ExecutorPool``).
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
  tests) jobs queue as before, and each worker's cold first job runs at the server's priority.
* Workers leave with the server: a polite stop shuts the pool down and waits for it; if the server is
  killed (SIGKILL), each worker notices its parent is gone within ``ORPHAN_CHECK`` seconds and exits.
* A worker that dies (a crash, the OOM killer) breaks the pool; the request gets ``internal`` and a
  fresh pool is started for the next one.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sys
import time
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from typing import Any, Protocol

from bridge.server.executor_pool import ExecutorPool
from bridge.server.pipe_pool import PipePool
from bridge.server.worker_process import ORPHAN_CHECK, WORKER_NICE, Outcome, _odds, _ready

__all__ = [
    "OFFLOAD_MS",
    "ORPHAN_CHECK",
    "WORKER_NICE",
    "ExecutorPool",
    "Outcome",
    "PipePool",
    "RulesWorkers",
    "default_workers",
]

log = logging.getLogger("volley.bridge")

#: Odds the rules estimate above this many milliseconds are computed in a worker.
OFFLOAD_MS = 1.0
#: Seconds a worker stopped mid-warm-up has to go after SIGTERM before it is killed (SIGKILL).
KILL_GRACE = 1.0


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


class Pool(Protocol):
    """What ``RulesWorkers`` needs of a pool of worker processes."""

    @property
    def _processes(self) -> dict[int, Any]:
        """The worker processes by pid (each a ``multiprocessing`` process)."""
        ...

    def submit(self, job: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        """``job(*args)`` in a worker; raises ``BrokenProcessPool`` once a worker has died."""
        ...

    def stop(self) -> None:
        """Take no more jobs, cancel those not answered, let the workers go (on the loop)."""
        ...

    def join(self) -> None:
        """Wait until every worker has exited (blocking: run it in a thread)."""
        ...


def _loop_reads_pipes() -> bool:
    """Whether the running loop can watch a pipe (``add_reader``): every POSIX selector loop can."""
    return sys.platform != "win32" and isinstance(asyncio.get_running_loop(), asyncio.SelectorEventLoop)


class RulesWorkers:
    """The server's pool of rules workers (see the module docstring)."""

    def __init__(self, *, workers: int | None = None, warm_up: bool = True) -> None:
        self.workers = workers or default_workers()
        self.warm_up = warm_up
        self._pool: Pool | None = None
        self._starting: asyncio.Task[None] | None = None
        self._pids: list[int] = []
        self._warm = False
        self._closed = False
        self._failed = False
        #: jobs handed over and not finished, with the pool each went to (a broken one is restarted)
        self._submitted: dict[asyncio.Future[Outcome], Pool] = {}

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

    def _ensure_pool(self) -> Pool:
        if self._pool is None:
            kind = PipePool if _loop_reads_pipes() else ExecutorPool
            self._pool = kind(self.workers, parent=os.getpid(), warm_up=self.warm_up)
        return self._pool

    async def _start(self) -> None:
        started = time.perf_counter()
        try:
            pool = self._ensure_pool()
            # A worker runs its initializer (and warm-up) before its first job, so once every worker
            # has answered a job, all are warm. An executor may give two jobs to one worker: ask again.
            seen: set[int] = set()
            for _ in range(50):
                seen.update(await asyncio.gather(*(pool.submit(_ready) for _ in range(self.workers))))
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

    def soon(self, job: Callable[..., Outcome], *args: Any) -> asyncio.Future[Outcome] | None:
        """``job(*args)`` handed to a worker now, with no task or coroutine: its future (read it with
        ``outcome``), or None if there is no pool (the caller computes it inline)."""
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
            future: asyncio.Future[Outcome] = pool.submit(job, *args)
        except BrokenProcessPool as error:
            future = asyncio.get_running_loop().create_future()
            future.set_exception(error)
        self._submitted[future] = pool
        return future

    def outcome(self, future: asyncio.Future[Outcome]) -> Outcome:
        """What a finished ``soon`` job came to (every one is read once, so): a worker's death is the
        ``internal`` error, and a fresh pool is started for the next job. A cancelled job (the
        workers stopped) raises ``CancelledError``."""
        pool = self._submitted.pop(future, None)
        try:
            return future.result()
        except BrokenProcessPool:
            log.error("a rules worker died; starting a fresh pool")
            if pool is not None:
                self._restart(pool)
            return ("error", "internal", "a rules worker died; try again", None, None)

    async def run(self, job: Callable[..., Outcome], *args: Any) -> Outcome | None:
        """Run ``job(*args)`` in a worker; None if there is no pool (the caller computes it inline)."""
        future = self.soon(job, *args)
        if future is None:
            return None
        try:
            await asyncio.wait([future])
        except asyncio.CancelledError:
            self._submitted.pop(future, None)
            future.cancel()
            raise
        return self.outcome(future)

    def odds_soon(self, id: str, request: bytes) -> asyncio.Future[Outcome] | None:
        """Odds of ``request`` (the client's JSON bytes, decoded in the worker) handed to a worker."""
        return self.soon(_odds, id, request)

    async def odds(self, id: str, request: bytes) -> Outcome | None:
        """Odds of ``request`` in a worker (``odds_soon``, awaited)."""
        return await self.run(_odds, id, request)

    def _restart(self, broken: Pool) -> None:
        if self._pool is broken:
            broken.stop()
            self._pool = None
            self._warm = False
            self._starting = None

    async def close(self) -> None:
        """Stop the workers and wait for them (no orphans).

        A warm-up still running is stopped, not waited for: on a busy machine it can take longer than
        the bridge's whole stop deadline (SIGTERM waited 30 s for one at nice 19), and a worker holds
        nothing but caches. Its processes are terminated (killed after ``KILL_GRACE``), and the task
        that waited for them cancelled. Warm workers leave when their jobs' pipe closes (after the job
        in hand, if any); one still there after ``KILL_GRACE`` is killed too.
        """
        self._closed = True
        pool, self._pool = self._pool, None
        processes = list(pool._processes.values()) if pool is not None else []
        if pool is not None:
            # Every job not answered is cancelled (the referee answers shutting_down) before anything
            # here yields to the loop: a worker terminated below could otherwise be seen to die while
            # the warm-up is awaited, and its jobs would fail as "a rules worker died" instead.
            pool.stop()
            if not self._warm:
                for process in processes:
                    process.terminate()
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.wait([self._starting])
        if pool is None:
            return
        if processes:
            await _kill_the_deaf(processes, KILL_GRACE)
        await asyncio.to_thread(pool.join)
