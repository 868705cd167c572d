"""The server's two send paths (``bridge.server.fast_send.ON``): hand-built frames written straight to
the socket, held for one write per group commit, a lone line fsynced at once; or aiohttp's own
``send_str`` through the outbox and writer task. A client cannot tell them apart: the same requests get
the same reply bytes, each once, in the order sent."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, open_session

from bridge.server import fast_send
from bridge.server.app import SCRIBE

pytestmark = pytest.mark.asyncio

#: Scripted dice, so both paths roll the same: to-hit 11 (a hit), dodge 15 (failed).
ATTACK = {**GURPS_MP5, "dice": [3, 4, 4, 5, 5, 5]}
BURST = 24


async def exchange(client: TestClient[Any, Any], prefix: str) -> list[str]:
    """One session's frames for the same script, with ``prefix`` taken out of the ids."""
    session = await open_session(client)
    frames = []
    for message in (
        {"type": "ping", "id": f"{prefix}p"},
        {"type": "attack", "id": f"{prefix}a", "request": ATTACK},
        {"type": "attack", "id": f"{prefix}a", "request": ATTACK},  # a retry: the journaled bytes
        {"type": "odds", "id": f"{prefix}o", "request": GURPS_MP5},
        {"type": "attack", "id": f"{prefix}bad", "request": {**ATTACK, "shots": 99}},
    ):
        await session.send(message)
        frames.append(await session.raw_reply())
    # A burst sent without waiting: every reply once, and in order (one client's lines are journaled,
    # and answered, in the order they were read).
    await asyncio.gather(
        *(session.send({"type": "attack", "id": f"{prefix}b{k}", "request": ATTACK}) for k in range(BURST))
    )
    frames += [await session.raw_reply() for _ in range(BURST)]
    await session.ws.close()
    return [frame.replace(f'"{prefix}', '"') for frame in frames]


async def test_both_send_paths_answer_the_same_bytes_in_the_same_order(
    bridge_client: TestClient[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    written: list[int] = []
    real_write_frames = fast_send.write_frames

    def counting(transport: Any, frames: list[bytes]) -> None:
        written.append(len(frames))
        real_write_frames(transport, frames)

    monkeypatch.setattr(fast_send, "write_frames", counting)
    monkeypatch.setattr(fast_send, "ON", True)
    fast = await exchange(bridge_client, "fast-")
    assert sum(written) == len(fast)  # every reply was a hand-built frame
    monkeypatch.setattr(fast_send, "ON", False)
    written.clear()
    plain = await exchange(bridge_client, "plain-")
    assert written == []  # none was: aiohttp built and sent them all
    assert plain == fast
    types = [json.loads(frame)["type"] for frame in fast]
    assert types[:5] == ["pong", "result", "result", "odds", "error"]
    assert [json.loads(frame)["id"] for frame in fast[5:]] == [f"b{k}" for k in range(BURST)]


async def test_with_the_switch_off_nothing_reads_the_loops_private_queue(
    bridge_client: TestClient[Any, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Off, a lone line is never written at once on the strength of asyncio's ``_ready``: the scribe
    never tells the journal a line is alone, so each waits a turn for company like any other. (Once
    its turn comes, a batch of one may still be written on the loop when fsyncs are fast: that is the
    journal's own choice, counted in the same ``inline_batches``, so the count is not what is checked.)"""

    class NoPeeking:
        def __getattr__(self, name: str) -> Any:
            raise AssertionError(f"read {name}")

    monkeypatch.setattr(fast_send, "ON", False)
    assert fast_send.nothing_else_ready(NoPeeking()) is False  # type: ignore[arg-type]
    journal = bridge_client.server.app[SCRIBE].journal
    told_alone: list[bool] = []
    append_then = journal.append_then

    def watched(line: Any, then: Any, *, alone: bool = False) -> None:
        told_alone.append(alone)
        append_then(line, then, alone=alone)

    monkeypatch.setattr(journal, "append_then", watched)
    session = await open_session(bridge_client)
    for k in range(3):
        reply = await session.ask({"type": "attack", "id": f"lone{k}", "request": ATTACK})
        assert reply["type"] == "result"
    assert told_alone == [False, False, False]
