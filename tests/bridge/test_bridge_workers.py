"""Rules workers: expensive odds are computed in worker processes that start and stop with the bridge.

What is measured (how much a cold preview delays another client's ping) is printed by
``scripts/bench.py``; these tests check the mechanism: which requests go to a worker, that a worker's
answer is byte for byte the loop's, warm-up and ``/healthz``, no orphans, and serving on without
workers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import multiprocessing.context
import os
import signal
import subprocess
import sys
import time
from typing import Any

import pytest
from bridgekit import BUDGET_S, GURPS_MP5, Start, open_session

import bridge.server.workers
import rules
from bridge.i18n import Catalogue
from bridge.resolution import odds_reply

pytestmark = pytest.mark.asyncio


def cold_auto(chosen: int, caught: int) -> dict[str, Any]:
    """Automatic fire from a 48-round magazine at several tokens: tens of milliseconds the first time.

    Each test takes its own shape: whatever this process computes itself, it remembers, and a
    remembered shape is cheap (so it would no longer go to a worker).
    """
    return {
        "system": "megatraveller",
        "mode": "auto",
        "attacker": {"id": "a", "name": "Gunner", "skill": 2, "dex": 9, "selector": "auto"},
        "weapon": {"name": "LMG", "auto": True, "auto_targets": chosen, "loaded": 48, "capacity": 48},
        "targets": [{"id": f"t{k}"} for k in range(chosen)]
        + [{"id": f"b{k}", "bystander": True} for k in range(caught)],
        "empty_magazine": True,
    }


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


async def health(client: Any) -> dict[str, Any]:
    body: dict[str, Any] = await (await client.get("/healthz")).json()
    return body


async def until_warm(client: Any) -> dict[str, Any]:
    deadline = time.monotonic() + BUDGET_S
    while time.monotonic() < deadline:
        workers: dict[str, Any] = (await health(client))["workers"]
        if workers["warm"]:
            return workers
        await asyncio.sleep(0.05)
    raise AssertionError("the rules workers never became warm")


async def test_the_rules_say_which_odds_are_expensive() -> None:
    assert rules.odds_cost(rules.decode_request(GURPS_MP5)) < bridge.server.workers.OFFLOAD_MS
    assert rules.odds_cost(rules.decode_request(cold_auto(5, 1))) > bridge.server.workers.OFFLOAD_MS


async def test_expensive_odds_are_computed_in_a_worker_byte_for_byte(start_bridge: Start) -> None:
    client = await start_bridge(workers=1)
    session = await open_session(client)
    request = cold_auto(5, 2)
    await session.send({"type": "odds", "id": "cold", "request": request})
    in_worker = await session.raw_reply()
    await session.send({"type": "odds", "id": "cheap", "request": GURPS_MP5})
    assert (await session.reply())["type"] == "odds"
    workers = (await health(client))["workers"]
    assert workers["offloaded"] == 1  # the GURPS odds stayed on the loop
    assert len(workers["pids"]) <= 1 and os.getpid() not in workers["pids"]
    assert in_worker.encode() == odds_reply("cold", request)  # what the loop would have sent


async def test_a_rule_error_found_in_a_worker_points_into_the_message(start_bridge: Start) -> None:
    client = await start_bridge(workers=1)
    session = await open_session(client)
    request = {**cold_auto(5, 3), "allocation": [[0], [1]]}  # cluster indices with no rolled pool
    error = await session.ask({"type": "odds", "id": "o1", "request": request})
    assert (error["type"], error["code"], error["id"], error["path"]) == (
        "error",
        "rule",
        "o1",
        "$.request.allocation",
    )
    # The refusal crosses the process boundary with its message, not only its English.
    assert error["msg"]["key"].startswith("megatraveller.error.")
    assert Catalogue.load("en").render(error["msg"]) == error["message"]


async def test_workers_warm_up_in_the_background_and_stop_with_the_bridge(start_bridge: Start) -> None:
    client = await start_bridge(warm_up=True, workers=1)
    session = await open_session(client)  # serving before the workers are up
    assert (await session.ask({"type": "ping", "id": "p"}))["type"] == "pong"
    workers = await until_warm(client)
    (pid,) = workers["pids"]
    assert pid != os.getpid() and alive(pid)
    await client.close()
    deadline = time.monotonic() + 10
    while alive(pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.05)
    assert not alive(pid)


async def test_a_worker_warms_up_at_the_servers_priority_and_then_lowers_it() -> None:
    """What a worker's initializer does, in a process of its own: the warm-up sees the priority the
    process started with, the jobs after it ``WORKER_NICE`` more."""
    probe = (
        "import json, os, rules, bridge.server.worker_process as w\n"
        "seen = []\n"
        "rules.warm_up = lambda: seen.append(os.getpriority(os.PRIO_PROCESS, 0))\n"
        "w._start_worker(os.getppid(), True)\n"
        "print(json.dumps([seen, os.getpriority(os.PRIO_PROCESS, 0)]))\n"
    )
    command = [sys.executable, "-c", probe]
    done = await asyncio.to_thread(
        subprocess.run, command, check=False, capture_output=True, text=True, timeout=BUDGET_S
    )
    assert done.returncode == 0, done.stderr
    (during,), after = json.loads(done.stdout)
    started = os.getpriority(os.PRIO_PROCESS, 0)
    assert during == started
    assert after == min(19, started + bridge.server.workers.WORKER_NICE)


async def test_a_worker_without_a_warm_up_takes_its_cold_first_job_at_the_servers_priority() -> None:
    """Without a warm-up the cold work (importing the rules, a first preview's caches) falls to the
    first odds job: it runs at the priority the process started with, the jobs after it lower.
    Lowered at once, a first MegaTraveller preview beside two busy processes outlasted the module's
    15 s request timeout (the import alone took 7.5 s at nice 19 there)."""
    probe = (
        "import json, os, bridge.server.worker_process as w\n"
        "w._start_worker(os.getppid(), False)\n"
        "before = os.getpriority(os.PRIO_PROCESS, 0)\n"
        "answer = w._odds('p', b'{}')\n"
        "print(json.dumps([before, os.getpriority(os.PRIO_PROCESS, 0), answer[0]]))\n"
    )
    command = [sys.executable, "-c", probe]
    done = await asyncio.to_thread(
        subprocess.run, command, check=False, capture_output=True, text=True, timeout=BUDGET_S
    )
    assert done.returncode == 0, done.stderr
    before, after, kind = json.loads(done.stdout)
    started = os.getpriority(os.PRIO_PROCESS, 0)
    assert kind == "error"  # an empty request is refused, and still counts as the cold first job
    assert before == started
    assert after == min(19, started + bridge.server.workers.WORKER_NICE)


async def test_a_warm_worker_takes_its_jobs_at_the_lower_priority(start_bridge: Start) -> None:
    """The warm-up runs at the server's priority (at nice 19 a busy machine starved it for a minute);
    once warm, the worker has lowered its own, so its jobs never win the CPU from the loop."""
    client = await start_bridge(warm_up=True, workers=1)
    (pid,) = (await until_warm(client))["pids"]
    expected = min(19, os.getpriority(os.PRIO_PROCESS, 0) + bridge.server.workers.WORKER_NICE)
    assert os.getpriority(os.PRIO_PROCESS, pid) == expected


async def test_without_workers_the_bridge_computes_every_preview_itself(
    start_bridge: Start, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    def no_processes(*args: Any, **kwargs: Any) -> Any:
        raise OSError(11, "Resource temporarily unavailable")

    # No process can be started (fork refused), whichever pool tries.
    monkeypatch.setattr(multiprocessing.context.SpawnProcess, "start", no_processes)
    caplog.set_level(logging.WARNING, logger="volley.bridge")
    client = await start_bridge(warm_up=True)
    session = await open_session(client)
    reply = await session.ask({"type": "odds", "id": "cold", "request": cold_auto(5, 4)})
    assert reply["type"] == "odds"
    assert (await health(client))["workers"] == {"warm": False, "pids": [], "offloaded": 0}
    assert any("rules workers failed to start" in r.getMessage() for r in caplog.records)


async def test_a_worker_that_dies_is_replaced(start_bridge: Start) -> None:
    client = await start_bridge(warm_up=True, workers=1)
    (pid,) = (await until_warm(client))["pids"]
    os.kill(pid, signal.SIGKILL)
    session = await open_session(client)
    first = await session.ask({"type": "odds", "id": "o1", "request": cold_auto(6, 1)})
    assert (first["type"], first["code"], first["id"]) == ("error", "internal", "o1")
    assert "worker died" in first["message"], first  # said as such, not as a bug in the bridge
    # While the fresh pool warms up (seconds on a loaded machine), the next preview is
    # computed on the loop rather than queued behind it; once it is warm, previews go to it again.
    second = await session.ask({"type": "odds", "id": "o2", "request": cold_auto(6, 2)})
    assert second["type"] == "odds"
    assert (await health(client))["workers"]["offloaded"] == 1
    assert pid not in (await until_warm(client))["pids"]
    third = await session.ask({"type": "odds", "id": "o3", "request": cold_auto(6, 3)})
    assert third["type"] == "odds"
    assert (await health(client))["workers"]["offloaded"] == 2


async def test_before_the_first_warm_up_ends_a_costly_preview_is_computed_on_the_loop(
    start_bridge: Start, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A worker warming up on a loaded machine may take a while; the first previews do not
    queue behind it. Once the pool is warm, they go to it."""
    release = asyncio.Event()
    started = bridge.server.workers.RulesWorkers._start

    async def slow_start(self: bridge.server.workers.RulesWorkers) -> None:
        await release.wait()  # the warm-up, as long as a starved worker's
        await started(self)

    monkeypatch.setattr(bridge.server.workers.RulesWorkers, "_start", slow_start)
    client = await start_bridge(warm_up=True, workers=1)
    session = await open_session(client)
    request = cold_auto(7, 1)
    assert rules.odds_cost(rules.decode_request(request)) > bridge.server.workers.OFFLOAD_MS
    assert (await session.ask({"type": "odds", "id": "cold", "request": request}))["type"] == "odds"
    assert (await health(client))["workers"]["offloaded"] == 0
    release.set()
    await until_warm(client)
    reply = await session.ask({"type": "odds", "id": "warm", "request": cold_auto(7, 2)})
    assert reply["type"] == "odds"
    assert (await health(client))["workers"]["offloaded"] == 1


async def test_a_preview_in_a_worker_costs_the_loop_no_task(start_bridge: Start) -> None:
    """A costly preview is handed to a worker while its frame is read and answered from the worker's
    future (``Scribe._offloaded``): no task or coroutine per preview, and the hand-over counts in
    the frame's work for the loop's turns. The worker is stopped (SIGSTOP) so the preview stays in
    flight while the loop's tasks are counted."""
    client = await start_bridge(workers=1)
    session = await open_session(client)
    assert (await session.ask({"type": "odds", "id": "first", "request": cold_auto(8, 1)}))["type"] == "odds"
    (pid,) = (await until_warm(client))["pids"]
    assert (await session.ask({"type": "ping", "id": "p1"}))["type"] == "pong"
    tasks = len(asyncio.all_tasks())
    os.kill(pid, signal.SIGSTOP)
    try:
        await session.send({"type": "odds", "id": "held", "request": cold_auto(8, 2)})
        # Frames on one socket are read in order: once the ping is answered, the preview was read and
        # handed over (its worker is stopped, so it is still in flight).
        assert await session.ask({"type": "ping", "id": "p2"}) == {"type": "pong", "id": "p2"}
        assert len(asyncio.all_tasks()) == tasks
    finally:
        os.kill(pid, signal.SIGCONT)
    held = await session.reply()
    assert (held["type"], held["id"]) == ("odds", "held")
    assert (await health(client))["workers"]["offloaded"] == 2
