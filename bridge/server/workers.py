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
import pickle
import signal
import struct
import sys
import threading
import time
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any, Protocol

__all__ = [
    "OFFLOAD_MS",
    "ORPHAN_CHECK",
    "WORKER_NICE",
    "ExecutorPool",
    "PipePool",
    "RulesWorkers",
    "default_workers",
]

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


def _serve(parent: int, warm_up: bool, jobs: Connection, answers: Connection) -> None:
    """A ``PipePool`` worker: start (``_start_worker``), then answer jobs one at a time until the
    server closes the jobs' pipe (or is gone: the same end of file)."""
    # Ctrl-C in a terminal reaches every process of the group: the server decides when workers stop.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    _start_worker(parent, warm_up)
    while True:
        try:
            job, args = pickle.loads(jobs.recv_bytes())
        except (EOFError, OSError):  # nothing to tidy up: a worker holds only caches
            os._exit(0)
        try:
            answer: tuple[bool, Any] = (True, job(*args))
        except Exception as error:
            answer = (False, error)
        try:
            payload = pickle.dumps(answer, pickle.HIGHEST_PROTOCOL)
        except Exception as error:  # an answer that cannot cross: said as a failure, never lost
            payload = pickle.dumps((False, RuntimeError(f"unpicklable answer: {error!r}")))
        try:
            answers.send_bytes(payload)
        except OSError:  # the server closed its end
            os._exit(0)


# --- in the server --------------------------------------------------------------------------------

_LENGTH = struct.Struct("!i")  # how ``multiprocessing.connection`` frames a message (up to 2 GiB)


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


class _Worker:
    """One worker process as the server sees it: its pipes and the job it holds."""

    __slots__ = ("answers", "busy", "inbox", "jobs", "outgoing", "process", "reading")

    def __init__(self, process: Any, jobs: Connection, answers: Connection) -> None:
        self.process = process
        self.jobs = jobs  # the server writes jobs here (non-blocking)
        self.answers = answers  # and reads answers here, when the loop says it is readable
        self.busy: asyncio.Future[Any] | None = None  # the job it holds
        self.inbox = bytearray()  # answer bytes read so far
        self.outgoing = bytearray()  # job bytes the pipe has not taken yet
        self.reading = False


class PipePool:
    """Worker processes fed and read by the event loop itself, with no thread (module docstring).

    Each worker holds at most one job; the others wait here in order and go to the first worker that
    answers. Jobs and answers are pickled and framed as ``multiprocessing.connection`` frames them (the
    worker reads and writes with its blocking ``Connection``; the server with non-blocking ``os.read``
    and ``os.write`` on the same pipes). A worker whose answers' pipe ends (it died: a crash, the OOM
    killer, SIGKILL) breaks the pool, as it breaks a ``ProcessPoolExecutor``: every job not answered
    fails with ``BrokenProcessPool``, and so does every later ``submit``.
    """

    def __init__(self, workers: int, *, parent: int, warm_up: bool) -> None:
        self.workers = workers
        self._args = (parent, warm_up)
        self._context = multiprocessing.get_context("spawn")
        self._processes: dict[int, Any] = {}
        self._all: list[_Worker] = []
        self._idle: deque[_Worker] = deque()
        self._waiting: deque[tuple[bytes, asyncio.Future[Any]]] = deque()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._broken: str | None = None
        self._stopped = False

    def submit(self, job: Callable[..., Any], *args: Any) -> asyncio.Future[Any]:
        if self._broken is not None:
            raise BrokenProcessPool(self._broken)
        if self._stopped:
            raise RuntimeError("the rules workers are stopped")
        loop = asyncio.get_running_loop()
        if self._loop is None:
            self._loop = loop
            self._launch()
        future: asyncio.Future[Any] = loop.create_future()
        self._waiting.append((pickle.dumps((job, args), pickle.HIGHEST_PROTOCOL), future))
        self._dispatch()
        return future

    def _launch(self) -> None:
        if sys.platform == "win32":  # never chosen there (``_loop_reads_pipes``)
            raise NotImplementedError("the rules workers' pipes need a POSIX event loop")
        assert self._loop is not None
        for _ in range(self.workers):
            jobs_in, jobs_out = self._context.Pipe(duplex=False)
            answers_in, answers_out = self._context.Pipe(duplex=False)
            process = self._context.Process(
                target=_serve,
                args=(*self._args, jobs_in, answers_out),
                name="volley-rules-worker",
                daemon=True,
            )
            try:
                process.start()
            finally:
                jobs_in.close()  # the worker's ends: the server keeps only its own, so that either
                answers_out.close()  # side's exit is the other's end of file
            worker = _Worker(process, jobs_out, answers_in)
            os.set_blocking(jobs_out.fileno(), False)
            os.set_blocking(answers_in.fileno(), False)
            self._loop.add_reader(answers_in.fileno(), self._readable, worker)
            worker.reading = True
            assert process.pid is not None
            self._processes[process.pid] = process
            self._all.append(worker)
            self._idle.append(worker)

    def _dispatch(self) -> None:
        """Give waiting jobs to idle workers (a job whose waiter left is dropped)."""
        while self._idle and self._waiting:
            payload, future = self._waiting.popleft()
            if future.done():
                continue
            worker = self._idle.popleft()
            worker.busy = future
            self._send(worker, _LENGTH.pack(len(payload)) + payload)

    def _send(self, worker: _Worker, frame: bytes) -> None:
        try:
            written = os.write(worker.jobs.fileno(), frame)
        except BlockingIOError:
            written = 0
        except OSError as error:  # the worker is gone; its answers' pipe says so too
            self._break(f"a rules worker's pipe failed: {error!r}")
            return
        if written < len(frame):  # a job larger than the pipe holds: the rest when it has room
            worker.outgoing += frame[written:]
            assert self._loop is not None
            self._loop.add_writer(worker.jobs.fileno(), self._writable, worker)

    def _writable(self, worker: _Worker) -> None:
        try:
            written = os.write(worker.jobs.fileno(), worker.outgoing)
        except BlockingIOError:
            return
        except OSError as error:
            self._break(f"a rules worker's pipe failed: {error!r}")
            return
        del worker.outgoing[:written]
        if not worker.outgoing and self._loop is not None:
            self._loop.remove_writer(worker.jobs.fileno())

    def _readable(self, worker: _Worker) -> None:
        """The loop says the worker's answers' pipe has bytes (or has ended)."""
        try:
            data = os.read(worker.answers.fileno(), 1 << 16)
        except BlockingIOError:
            return
        except OSError as error:
            self._break(f"a rules worker's pipe failed: {error!r}")
            return
        if not data:
            self._break(f"a rules worker (pid {worker.process.pid}) died")
            return
        inbox = worker.inbox
        inbox += data
        while len(inbox) >= 4:
            (size,) = _LENGTH.unpack_from(inbox)
            if len(inbox) < 4 + size:
                return
            answer = bytes(inbox[4 : 4 + size])
            del inbox[: 4 + size]
            self._answered(worker, answer)

    def _answered(self, worker: _Worker, payload: bytes) -> None:
        future, worker.busy = worker.busy, None
        self._idle.append(worker)
        if future is not None and not future.done():
            try:
                ok, value = pickle.loads(payload)
            except Exception as error:
                future.set_exception(error)
            else:
                if ok:
                    future.set_result(value)
                else:
                    future.set_exception(value)
        self._dispatch()

    def _break(self, reason: str) -> None:
        """A worker died: the pool is broken (every job not answered fails, later ones too)."""
        if self._broken is not None or self._stopped:
            return
        self._broken = reason
        error = BrokenProcessPool(reason)
        futures = [worker.busy for worker in self._all] + [future for _, future in self._waiting]
        self._release()
        for future in futures:
            if future is not None and not future.done():
                future.set_exception(error)

    def _release(self) -> None:
        """Stop watching the pipes and close the server's ends: every worker reads its end of file."""
        for worker in self._all:
            if self._loop is not None and not self._loop.is_closed():
                if worker.reading:
                    self._loop.remove_reader(worker.answers.fileno())
                if worker.outgoing:
                    self._loop.remove_writer(worker.jobs.fileno())
            worker.reading = False
            worker.outgoing.clear()
            worker.busy = None
            worker.jobs.close()
            worker.answers.close()
        self._idle.clear()
        self._waiting.clear()

    def stop(self) -> None:
        if self._stopped:
            return
        futures = [worker.busy for worker in self._all] + [future for _, future in self._waiting]
        self._release()
        self._stopped = True
        for future in futures:
            if future is not None:
                future.cancel()
        if self._broken is not None:  # the others of a broken pool are let go at once
            for process in self._processes.values():
                with contextlib.suppress(OSError, ValueError):
                    process.terminate()

    def join(self) -> None:
        for process in self._processes.values():
            process.join()


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
        if pool is not None and not self._warm:
            for process in processes:
                process.terminate()
        if self._starting is not None and not self._starting.done():
            self._starting.cancel()
            await asyncio.wait([self._starting])
        if pool is None:
            return
        pool.stop()
        if processes:
            await _kill_the_deaf(processes, KILL_GRACE)
        await asyncio.to_thread(pool.join)
