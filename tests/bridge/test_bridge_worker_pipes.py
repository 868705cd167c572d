"""The rules workers are fed and read by the event loop itself (``bridge.server.workers.PipePool``, issue 38).

With ``concurrent.futures.ProcessPoolExecutor`` every job and answer passed two threads of the server
(the executor's manager and its queue's feeder); on two cores they, the loop and the workers
competed for the CPU and the interpreter's lock, and another client's ping paid for it. These tests
check the mechanism: no thread, the loop watching each worker's answers' pipe, one job per worker
with the rest waiting their turn, a job bigger than a pipe holds, a worker's error and a worker's
death. The executor still serves where the loop cannot watch a pipe (Windows); one test keeps that
path alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from concurrent.futures.process import BrokenProcessPool
from typing import Any

import pytest
from bridgekit import BUDGET_S

import bridge.server.workers
from bridge.resolution import odds_reply
from bridge.server.workers import PipePool, RulesWorkers

pytestmark = pytest.mark.asyncio

COLD = {
    "system": "megatraveller",
    "mode": "auto",
    "attacker": {"id": "a", "name": "Gunner", "skill": 2, "dex": 9, "selector": "auto"},
    "weapon": {"name": "LMG", "auto": True, "auto_targets": 4, "loaded": 48, "capacity": 48},
    "targets": [{"id": f"t{k}"} for k in range(4)] + [{"id": "b0", "bystander": True}],
    "empty_magazine": True,
}


def request_bytes(request: dict[str, Any]) -> bytes:
    import json

    return json.dumps(request).encode()


async def test_a_workers_answer_is_read_by_the_loop_with_no_thread_of_the_servers() -> None:
    before = set(threading.enumerate())
    workers = RulesWorkers(workers=1, warm_up=False)
    try:
        async with asyncio.timeout(BUDGET_S):
            outcome = await workers.odds("o1", request_bytes(COLD))
        assert outcome == ("odds", odds_reply("o1", request_bytes(COLD)))
        # The executor left a manager thread and a queue feeder thread here; the pipes need none.
        assert set(threading.enumerate()) == before
        pool = workers._pool
        assert isinstance(pool, PipePool)
        (worker,) = pool._all
        # The loop itself watches the worker's answers.
        selector = asyncio.get_running_loop()._selector  # type: ignore[attr-defined]
        assert selector.get_key(worker.answers.fileno()) is not None
    finally:
        await workers.close()


async def test_jobs_beyond_the_workers_wait_their_turn_and_each_gets_its_own_answer() -> None:
    pool = PipePool(2, parent=os.getpid(), warm_up=False)
    try:
        async with asyncio.timeout(BUDGET_S):
            futures = [pool.submit(abs, -k) for k in range(12)]
            # Two workers, one job each: the other ten wait in the server.
            assert sum(worker.busy is not None for worker in pool._all) == 2
            assert len(pool._waiting) == 10
            assert await asyncio.gather(*futures) == list(range(12))
        assert len(pool._processes) == 2 and not pool._waiting
    finally:
        pool.stop()
        await asyncio.to_thread(pool.join)


async def test_a_job_larger_than_a_pipe_holds_reaches_its_worker_whole() -> None:
    pool = PipePool(1, parent=os.getpid(), warm_up=False)
    big = bytes(range(256)) * 4096  # 1 MiB: sixteen times what a pipe holds
    try:
        async with asyncio.timeout(BUDGET_S):
            assert await pool.submit(bytes.hex, big) == big.hex()
            assert await pool.submit(len, big) == len(big)
    finally:
        pool.stop()
        await asyncio.to_thread(pool.join)


async def test_an_exception_in_a_worker_is_raised_to_its_caller_and_the_worker_serves_on() -> None:
    pool = PipePool(1, parent=os.getpid(), warm_up=False)
    try:
        async with asyncio.timeout(BUDGET_S):
            with pytest.raises(ValueError, match="invalid literal"):
                await pool.submit(int, "not a number")
            assert await pool.submit(int, "42") == 42
    finally:
        pool.stop()
        await asyncio.to_thread(pool.join)


async def test_a_worker_that_dies_in_a_job_breaks_the_pool_for_every_job_and_the_next() -> None:
    pool = PipePool(1, parent=os.getpid(), warm_up=False)
    try:
        async with asyncio.timeout(BUDGET_S):
            assert await pool.submit(abs, -1) == 1
            dying = pool.submit(os._exit, 3)
            waiting = pool.submit(abs, -2)
            with pytest.raises(BrokenProcessPool, match="died"):
                await dying
            with pytest.raises(BrokenProcessPool):
                await waiting
            with pytest.raises(BrokenProcessPool):
                pool.submit(abs, -3)
            (process,) = pool._processes.values()
            await asyncio.to_thread(process.join)
            assert process.exitcode == 3
    finally:
        pool.stop()
        await asyncio.to_thread(pool.join)


async def test_warm_workers_leave_when_the_server_closes_their_pipe() -> None:
    workers = RulesWorkers(workers=2, warm_up=False)
    async with asyncio.timeout(BUDGET_S):
        await workers.start()
        pool = workers._pool
        assert pool is not None
        processes = list(pool._processes.values())
        assert len(processes) == 2 and workers.warm
        await workers.close()
    for process in processes:
        assert not process.is_alive()
        assert process.exitcode == 0  # left on its own at the end of its jobs' pipe, not killed


async def test_where_the_loop_cannot_watch_a_pipe_the_executor_serves_byte_for_byte(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bridge.server.workers, "_loop_reads_pipes", lambda: False)
    workers = RulesWorkers(workers=1, warm_up=False)
    try:
        async with asyncio.timeout(BUDGET_S):
            outcome = await workers.odds("o2", request_bytes(COLD))
        assert isinstance(workers._pool, bridge.server.workers.ExecutorPool)
        assert outcome == ("odds", odds_reply("o2", request_bytes(COLD)))
    finally:
        await workers.close()


async def test_a_job_handed_over_without_a_task_is_read_once_and_cancelled_by_a_stop() -> None:
    """``soon`` (what a preview uses: no task per job) gives a future; ``outcome`` reads it. A job
    still in a worker when the workers stop is cancelled, which the referee answers shutting_down."""
    workers = RulesWorkers(workers=1, warm_up=False)
    async with asyncio.timeout(BUDGET_S):
        answered = workers.odds_soon("o3", request_bytes(COLD))
        assert answered is not None
        await asyncio.wait([answered])
        assert workers.outcome(answered) == ("odds", odds_reply("o3", request_bytes(COLD)))
        assert not workers._submitted  # read once, nothing kept
        pool = workers._pool
        assert isinstance(pool, PipePool)
        (worker,) = pool._all
        os.kill(worker.process.pid, signal.SIGSTOP)  # the next job stays in flight
        try:
            held = workers.odds_soon("o4", request_bytes(COLD))
            assert held is not None and not held.done()
            await workers.close()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(worker.process.pid, signal.SIGCONT)
        assert held.cancelled()
        with pytest.raises(asyncio.CancelledError):
            workers.outcome(held)
        assert workers.odds_soon("o5", request_bytes(COLD)) is None  # closed: computed inline


async def test_a_job_in_flight_is_cancelled_by_a_stop_even_if_its_worker_dies_as_the_stop_waits() -> None:
    """The bridge stops while the workers' warm-up is still under way and a preview is in a worker,
    and that worker dies as the stop begins (a kill, the OOM killer). The stop awaits the warm-up:
    its job must already be cancelled by then (the referee answers shutting_down), not failed as "a
    rules worker died" when the loop reads the dead worker's pipe during that wait."""
    workers = RulesWorkers(workers=1, warm_up=False)
    async with asyncio.timeout(BUDGET_S):
        first = workers.odds_soon("o6", request_bytes(COLD))
        assert first is not None
        await asyncio.wait([first])
        workers.outcome(first)
        pool = workers._pool
        assert isinstance(pool, PipePool)
        (worker,) = pool._all
        # A warm-up still running when the stop comes (on a busy machine it can take seconds).
        if workers._starting is not None:
            await asyncio.wait([workers._starting])
        workers._starting = asyncio.create_task(asyncio.sleep(3600), name="a warm-up still running")
        held = workers.odds_soon("o7", request_bytes(COLD))
        assert held is not None and not held.done()
        os.kill(worker.process.pid, signal.SIGKILL)
        worker.process.join(BUDGET_S)  # dead, and the loop has not yet run to read its pipe's end
        assert worker.process.exitcode == -signal.SIGKILL
        await workers.close()
        assert held.cancelled(), held
        with pytest.raises(asyncio.CancelledError):
            workers.outcome(held)
