"""A group commit's replies to one socket leave in one write
(``bridge.server.fast_send.one_write_per_socket``): every reply arrives whole, once, in the order its
lines were journaled."""

from __future__ import annotations

import json
import os
import threading
import time
from typing import Any

import pytest
from aiohttp.test_utils import TestClient
from bridgekit import BUDGET_S, GURPS_MP5, entries, open_session

from bridge.server import connection
from bridge.server.app import SCRIBE, BridgeSettings

pytestmark = pytest.mark.asyncio

COUNT = 20


async def test_a_batch_of_replies_to_one_socket_is_one_write_that_carries_every_frame(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = bridge_client.server.app[SCRIBE].journal
    real_fsync = os.fsync
    appended = [0]
    real_append = journal.append_then

    def counting_append(*args: Any, **kwargs: Any) -> None:
        appended[0] += 1
        real_append(*args, **kwargs)

    def gated_fsync(fd: int) -> None:
        # A writer-thread fsync waits until several lines queue behind it, so they share the next
        # batch (the loop's own inline fsync is never held: the test's client runs on that loop).
        if threading.current_thread() is not threading.main_thread():
            deadline = time.monotonic() + BUDGET_S
            while len(journal._waiting) < 2 and appended[0] < COUNT and time.monotonic() < deadline:
                time.sleep(0.001)
        real_fsync(fd)

    held: list[int] = []
    real_send_held = connection.Connection._send_held

    def counting_send_held(self: connection.Connection) -> None:
        held.append(len(self._held))
        real_send_held(self)

    monkeypatch.setattr(os, "fsync", gated_fsync)
    monkeypatch.setattr(journal, "append_then", counting_append)
    monkeypatch.setattr(connection.Connection, "_send_held", counting_send_held)
    session = await open_session(bridge_client)
    ids = [f"w{k}" for k in range(COUNT)]
    for id in ids:
        await session.send({"type": "attack", "id": id, "request": GURPS_MP5})
    replies = [json.loads(await session.raw_reply()) for _ in ids]
    assert sorted(reply["id"] for reply in replies) == sorted(ids)
    assert all(reply["type"] == "result" and reply["card"] for reply in replies)
    # The socket got them in the order their lines were journaled.
    assert [reply["id"] for reply in replies] == [entry["id"] for entry in entries(settings.data_dir)]
    assert max(held, default=0) >= 2, held  # some write carried several frames
