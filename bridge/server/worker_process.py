"""What runs in a rules worker process (``bridge.server.workers``): its start (an orphan watch, the
rules' caches filled at the server's priority, then ``WORKER_NICE`` lower for the jobs; without a
warm-up, lower once the first odds job is done), the jobs the
server sends (``_odds``, ``_ready``), and the loop of a ``PipePool`` worker (``_serve``), which reads
its jobs from one pipe and writes its answers to another, one job at a time.

Nothing here runs in the server's process; the server's side of the pools is ``bridge.server.pipe_pool``
and ``bridge.server.executor_pool``.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import signal
import sys
import threading
import time
from multiprocessing.connection import Connection
from typing import Any

__all__ = ["ORPHAN_CHECK", "WORKER_NICE", "Outcome"]

#: How much lower a worker's scheduling priority is than the server's (``nice`` steps).
WORKER_NICE = 19
#: Seconds between a worker's checks that the server that started it is still alive.
ORPHAN_CHECK = 0.5

#: (kind, payload...): ``("odds", reply bytes)`` or ``("error", code, message, path, msg)``.
Outcome = tuple[Any, ...]


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

    Without a warm-up the same cold work (importing the rules, filling the caches the first preview
    needs: about a tenth of a second of CPU) falls to the first ``_odds`` job, which runs at the
    server's priority too and lowers it when done. Lowered at once, a first MegaTraveller preview
    beside two busy processes went unanswered past the module's 15 s request timeout.
    """
    threading.Thread(target=_leave_when_orphaned, args=(parent,), daemon=True, name="orphan-watch").start()
    if warm_up:
        import gc

        import rules

        rules.warm_up()
        gc.freeze()  # the warm tables live as long as the worker: keep them out of every collection
        _lower_priority()


#: Set once the worker has lowered its priority (it does so once in its life).
_LOWERED = threading.Event()


def _lower_priority() -> None:
    """``WORKER_NICE`` steps below the server, once (POSIX; Windows' workers keep the server's)."""
    if _LOWERED.is_set():
        return
    _LOWERED.set()
    if sys.platform != "win32":
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
        _lower_priority()  # the cold first job is done (a no-op after a warm-up)


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
