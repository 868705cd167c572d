"""Stopping the rules workers never waits for a warm-up: SIGTERM to `volley serve` or `volley sandbox`
on a busy machine hung for as long as a nice-19 worker took to fill its caches (30 s and more)."""

from __future__ import annotations

import asyncio
import os

import pytest

import bridge.server.worker_process
import bridge.server.workers
from bridge.server.workers import RulesWorkers

#: Only a hang trips this (a close that waits for a warm-up waits forever in the first test).
HANG_S = 120

pytestmark = pytest.mark.asyncio


async def test_close_does_not_wait_for_a_warm_up_that_never_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    never = asyncio.Event()

    async def endless_start(self: RulesWorkers) -> None:
        await never.wait()  # a warm-up starved for ever

    monkeypatch.setattr(bridge.server.workers.RulesWorkers, "_start", endless_start)
    workers = RulesWorkers(workers=1, warm_up=True)
    starting = workers.start()
    await asyncio.sleep(0)  # the start task is running and waiting
    await asyncio.wait_for(workers.close(), HANG_S)
    assert starting.cancelled()
    assert await workers.run(bridge.server.worker_process._ready) is None  # closed: callers compute inline


async def test_close_during_a_real_warm_up_leaves_no_worker_behind() -> None:
    workers = RulesWorkers(workers=1, warm_up=True)
    workers.start()
    pool = workers._ensure_pool()
    # Wait until the worker process exists (it is spawned on the first job), warm-up under way or done.
    for _ in range(HANG_S * 10):
        if pool._processes:
            break
        await asyncio.sleep(0.1)
    processes = list(pool._processes.values())
    assert processes
    await asyncio.wait_for(workers.close(), HANG_S)
    for process in processes:
        process.join(HANG_S)
        assert not process.is_alive(), process.pid
        with pytest.raises(ProcessLookupError):
            os.kill(process.pid, 0)
