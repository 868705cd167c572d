"""A request id is resolved once: retries get the logged bytes back, across reconnects and restarts."""

from __future__ import annotations

import asyncio
import json
import os
from pathlib import Path
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, Session, Start, entries, open_session

from bridge.server.app import BridgeSettings
from bridge.store.lock import DirectoryBusy

pytestmark = pytest.mark.asyncio

ATTACK = {"type": "attack", "id": "r1", "request": GURPS_MP5}


async def test_a_retry_on_the_same_socket_gets_the_same_bytes(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.send(ATTACK)
    first = await session.raw_reply()
    await session.send(ATTACK)
    second = await session.raw_reply()
    assert second == first
    assert len(entries(settings.data_dir)) == 1  # rolled and journaled once


async def test_a_retry_with_a_different_body_still_gets_the_logged_result(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    """The id is the key: a retry cannot fish for a better roll by changing the request."""
    session = await open_session(bridge_client)
    await session.send(ATTACK)
    first = await session.raw_reply()
    await session.send({**ATTACK, "request": {**GURPS_MP5, "shots": 3}})
    assert await session.raw_reply() == first
    assert len(entries(settings.data_dir)) == 1


async def test_a_retry_after_reconnecting_gets_the_same_bytes(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.send(ATTACK)
    first = await session.raw_reply()
    await session.ws.close()
    again = await open_session(bridge_client)
    await again.send(ATTACK)
    assert await again.raw_reply() == first
    assert len(entries(settings.data_dir)) == 1


async def test_a_retry_after_a_restart_gets_the_same_bytes(
    start_bridge: Start, settings: BridgeSettings
) -> None:
    first_server = await start_bridge()
    session = await open_session(first_server)
    await session.send(ATTACK)
    first = await session.raw_reply()
    await first_server.close()

    second_server = await start_bridge()
    again = await open_session(second_server)
    assert again.welcome["session"] != session.welcome["session"]  # a new session file...
    await again.send(ATTACK)
    assert await again.raw_reply() == first  # ...but ids are global across the data directory
    assert len(entries(settings.data_dir)) == 1
    health = await (await second_server.get("/healthz")).json()
    assert health["retries"] == 1 and health["resolved"] == 0


async def test_concurrent_duplicates_resolve_once(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    """The same id sent on two sockets at once (a retry racing the original) rolls once."""
    one = await open_session(bridge_client)
    two = await open_session(bridge_client)
    for _ in range(3):
        await one.send(ATTACK)
        await two.send(ATTACK)
    replies = [await one.raw_reply() for _ in range(3)] + [await two.raw_reply() for _ in range(3)]
    assert len(set(replies)) == 1
    assert len(entries(settings.data_dir)) == 1


async def test_distinct_ids_roll_independently(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    for k in range(20):
        await session.send({"type": "attack", "id": f"d{k}", "request": skirmish.fire(shots=8, loaded=8)})
    replies = [await session.reply() for _ in range(20)]
    assert sorted(r["id"] for r in replies) == sorted(f"d{k}" for k in range(20))
    faces = {tuple(roll["face"] for roll in r["result"]["rolls"]) for r in replies}
    assert len(faces) > 15  # fresh seeds: twenty 8d6 pools are (almost surely) not alike
    seeds = [entry["seed"] for entry in entries(settings.data_dir)]
    assert len(set(seeds)) == 20


async def test_journal_line_holds_request_seed_and_the_exact_reply(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.send(ATTACK)
    sent = await session.raw_reply()
    (entry,) = entries(settings.data_dir)
    assert entry["id"] == "r1" and entry["type"] == "attack" and entry["outcome"] == "result"
    assert entry["request"] == GURPS_MP5
    assert isinstance(entry["seed"], int) and entry["dice"] is None
    assert entry["reply"] == json.loads(sent)
    # And the bytes on disk are the bytes on the wire.
    (path,) = (settings.data_dir / "sessions").glob("*.jsonl")
    assert sent.encode() in path.read_bytes()


async def test_deterministic_seeds_for_recording(start_bridge: Start, settings: BridgeSettings) -> None:
    client = await start_bridge(seed_base=1000)
    session = await open_session(client)
    for k in range(3):
        await session.ask({"type": "attack", "id": f"s{k}", "request": GURPS_MP5})
    assert [entry["seed"] for entry in entries(settings.data_dir)] == [1000, 1001, 1002]


async def test_many_concurrent_requests_share_fsyncs(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    """Group commit: requests that arrive together are written and fsynced together."""
    sessions = [await open_session(bridge_client) for _ in range(8)]
    for n, session in enumerate(sessions):
        for k in range(10):
            await session.send({"type": "attack", "id": f"c{n}-{k}", "request": GURPS_MP5})

    async def ten(session: Session) -> list[dict[str, Any]]:
        return [await session.reply() for _ in range(10)]

    batches = await asyncio.gather(*(ten(session) for session in sessions))
    assert all(reply["type"] == "result" for replies in batches for reply in replies)
    assert len(entries(settings.data_dir)) == 80
    stats = (await (await bridge_client.get("/healthz")).json())["journal"]
    assert stats["lines"] == 80
    assert stats["batches"] < 80 and stats["largest_batch"] > 1


async def test_a_run_that_resolved_nothing_leaves_no_session(
    start_bridge: Start, settings: BridgeSettings
) -> None:
    client = await start_bridge()
    session = await open_session(client)
    await session.ask({"type": "odds", "id": "o1", "request": GURPS_MP5})  # odds are not journaled
    assert len(list((settings.data_dir / "sessions").glob("*.jsonl"))) == 1  # the open session's file
    await client.close()
    assert list((settings.data_dir / "sessions").glob("*.jsonl")) == []


async def test_a_second_server_on_the_same_data_directory_is_refused(
    start_bridge: Start, settings: BridgeSettings, tmp_path: Path
) -> None:
    """Two servers would each remember ids on their own, and a retry reaching the other would re-roll."""
    first = await start_bridge()
    with pytest.raises(
        DirectoryBusy, match=rf"another volley serve \(pid {os.getpid()}\) is using .*--data-dir"
    ):
        await start_bridge()
    await start_bridge(data_dir=tmp_path / "elsewhere")  # its own directory is fine
    session = await open_session(first)  # and the first one is untouched
    assert (await session.ask(ATTACK))["type"] == "result"
    await first.close()
    again = await start_bridge()  # the lock goes with the server
    assert (await (await open_session(again)).ask(ATTACK))["type"] == "result"
    assert len(entries(settings.data_dir)) == 1


async def test_ids_from_every_earlier_session_are_answered_after_the_index_is_lost(
    start_bridge: Start, settings: BridgeSettings
) -> None:
    """The journals are the record of truth: with the index deleted, a restart rebuilds it from them."""
    sent: dict[str, str] = {}
    for run in range(3):
        client = await start_bridge()
        session = await open_session(client)
        for k in range(3):
            id = f"run{run}-{k}"
            await session.send({"type": "attack", "id": id, "request": GURPS_MP5})
            sent[id] = await session.raw_reply()
        await client.close()
    (settings.data_dir / "sessions" / ".ledger.sqlite3").unlink()
    client = await start_bridge()
    session = await open_session(client)
    for id, reply in sent.items():
        await session.send({"type": "attack", "id": id, "request": GURPS_MP5})
        assert await session.raw_reply() == reply
    assert len(entries(settings.data_dir)) == 9
