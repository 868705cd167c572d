"""The rules workers' pool on a POSIX event loop: worker processes fed and read by the loop itself,
through a pipe for each worker's jobs and one for its answers, with no thread of the server's
(``bridge.server.workers`` says why). The worker's side is ``bridge.server.worker_process._serve``.
"""

from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import os
import pickle
import struct
import sys
from collections import deque
from collections.abc import Callable
from concurrent.futures.process import BrokenProcessPool
from multiprocessing.connection import Connection
from typing import Any

from bridge.server.worker_process import _serve

__all__ = ["PipePool"]

_LENGTH = struct.Struct("!i")  # how ``multiprocessing.connection`` frames a message (up to 2 GiB)


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
