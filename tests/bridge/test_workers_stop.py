"""A polite stop waits neither for a warm-up a busy machine starves nor for a worker deaf to SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
from typing import Any

import pytest
from bridgekit import BUDGET_S

from bridge.server.workers import RulesWorkers

pytestmark = pytest.mark.asyncio


async def stopped_warming_worker() -> tuple[RulesWorkers, asyncio.Task[None], Any]:
    """A pool of one worker, stopped (SIGSTOP) during its warm-up, as a starved worker stands still."""
    workers = RulesWorkers(workers=1, warm_up=True)
    starting = workers.start()
    pool = workers._ensure_pool()
    # The worker is spawned on the pool's first job; stop it there.
    async with asyncio.timeout(BUDGET_S):
        while not pool._processes:
            await asyncio.sleep(0.01)
    (process,) = pool._processes.values()
    assert process.pid is not None
    os.kill(process.pid, signal.SIGSTOP)
    return workers, starting, process


async def test_closing_during_a_warm_up_that_never_ends_does_not_wait_for_it() -> None:
    workers, starting, process = await stopped_warming_worker()
    # Before the fix, close() waited for the warm-up: forever here, minutes on a loaded machine.
    async with asyncio.timeout(BUDGET_S):
        await workers.close()
    assert starting.done() and not workers.warm
    async with asyncio.timeout(BUDGET_S):
        while process.is_alive():
            await asyncio.sleep(0.01)


async def test_a_warming_worker_deaf_to_sigterm_is_killed_so_the_stop_never_waits_on_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A SIGTERM can stay pending (a worker caught between fork and exec has every signal blocked; a
    stopped one never runs): after ``KILL_GRACE`` the worker is killed, and ``close`` returns."""
    workers, _, process = await stopped_warming_worker()
    monkeypatch.setattr(process, "terminate", lambda: None)  # the SIGTERM that never lands
    async with asyncio.timeout(BUDGET_S):
        await workers.close()
    async with asyncio.timeout(BUDGET_S):
        while process.is_alive():
            await asyncio.sleep(0.01)
    assert process.exitcode == -signal.SIGKILL
