"""Two-step attacks: ``pending`` (the pool, nothing spent) then ``allocate`` with the same dice."""

from __future__ import annotations

import asyncio
import json
import re
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import Session, Start, entries, open_session

from bridge.server.app import BridgeSettings

pytestmark = pytest.mark.asyncio


async def _defer(session: Session, id: str = "p1", **changes: Any) -> dict[str, Any]:
    return await session.ask(
        {"type": "attack", "id": id, "request": skirmish.fire(allocation="defer", shots=6, **changes)}
    )


async def test_pending_rolls_the_pool_and_spends_nothing(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    pending = await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    assert pending["type"] == "pending" and pending["id"] == "p1"
    # Protocol 3: the pool and the log are the result's, once.
    assert pending["result"]["pending"] == {"bullets": 3}
    assert "pending" not in pending and "pending" not in pending["card"] and "log" not in pending["card"]
    assert pending["result"]["log"] == [{"key": "skirmish.pool", "values": {"shots": 6, "bullets": 3}}]
    assert pending["result"]["updates"] == []  # no state changed yet
    (entry,) = entries(settings.data_dir)
    assert entry["outcome"] == "pending" and entry["dice"] == [4, 5, 6, 1, 2, 3]


async def test_allocate_resolves_with_the_same_seed(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    pending = await _defer(session)
    pool_faces = [roll["face"] for roll in pending["result"]["rolls"]]
    bullets = pending["result"]["pending"]["bullets"]
    reply = await session.ask(
        {"type": "allocate", "id": "a1", "pending_id": "p1", "allocation": [bullets, 0]}
    )
    assert reply["type"] == "result" and reply["id"] == "a1"
    faces = [roll["face"] for roll in reply["result"]["rolls"]]
    assert faces[:6] == pool_faces  # the pool the player saw, die for die
    assert [roll["for"] for roll in reply["result"]["rolls"][6:]] == [
        {"key": "skirmish.roll.to_hit", "values": {"target": "t1"}},
        {"key": "skirmish.roll.to_hit", "values": {"target": "t2"}},
    ]
    assert reply["result"]["weapon"]["loaded"] == 4  # spent now, not before
    first, second = entries(settings.data_dir)
    assert second["pending_id"] == "p1" and second["seed"] == first["seed"]
    assert second["request"]["allocation"] == [bullets, 0]


async def test_allocate_with_scripted_dice(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    # Scripted two-step: the allocate carries every face, pool first, then the to-hit dice.
    reply = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": [1, 2],
            "dice": [4, 5, 6, 1, 2, 3, 2, 6],
        }
    )
    assert [(t["id"], t["hits"]) for t in reply["result"]["targets"]] == [("t1", 0), ("t2", 2)]


async def test_a_pending_attack_is_allocated_once(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    allocate = {
        "type": "allocate",
        "id": "a1",
        "pending_id": "p1",
        "allocation": [3, 0],
        "dice": [4, 5, 6, 1, 2, 3, 3, 3],
    }
    await session.send(allocate)
    first = await session.raw_reply()
    await session.send(allocate)  # the same allocate again is a retry: same bytes
    assert await session.raw_reply() == first
    error = await session.ask({**allocate, "id": "a2"})  # a different one would spend twice
    assert (error["code"], error["path"]) == ("already_allocated", "$.pending_id")
    assert "'a1'" in error["message"]


async def test_allocation_errors_point_into_the_allocate_message(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    error = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": [9, 0],
            "dice": [4, 5, 6, 1, 2, 3, 3, 3],
        }
    )
    assert (error["code"], error["path"]) == ("rule", "$.allocation")
    assert error["message"] == "allocation gives 9 bullets, the pool is 3"
    # The pending attack is still open after a refused allocation.
    reply = await session.ask(
        {
            "type": "allocate",
            "id": "a2",
            "pending_id": "p1",
            "allocation": [3, 0],
            "dice": [4, 5, 6, 1, 2, 3, 3, 3],
        }
    )
    assert reply["type"] == "result"


async def test_allocate_dice_need_permission_too(start_bridge: Start) -> None:
    client = await start_bridge(allow_scripted_dice=False)
    session = await open_session(client)
    await _defer(session)
    error = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": [0, 0],
            "dice": [1, 1, 1, 1, 1, 1, 1, 1],
        }
    )
    assert (error["code"], error["path"]) == ("scripted_dice_refused", "$.dice")


async def test_pending_attacks_survive_a_restart(start_bridge: Start, settings: BridgeSettings) -> None:
    first_server = await start_bridge(allow_scripted_dice=False)
    session = await open_session(first_server)
    pending = await _defer(session)
    await first_server.close()

    second_server = await start_bridge(allow_scripted_dice=False)
    again = await open_session(second_server)
    bullets = pending["result"]["pending"]["bullets"]
    reply = await again.ask({"type": "allocate", "id": "a1", "pending_id": "p1", "allocation": [0, bullets]})
    assert reply["type"] == "result"
    faces = [roll["face"] for roll in reply["result"]["rolls"]]
    assert faces[:6] == [roll["face"] for roll in pending["result"]["rolls"]]
    await second_server.close()

    third_server = await start_bridge(allow_scripted_dice=False)
    last = await open_session(third_server)
    error = await last.ask({"type": "allocate", "id": "a9", "pending_id": "p1", "allocation": [0, bullets]})
    assert error["code"] == "already_allocated"


async def test_megatraveller_deferred_allocation_round_trip(bridge_client: TestClient[Any, Any]) -> None:
    """The real two-step system: ``"allocation": "defer"`` gives the pool, ``allocate`` fires it."""
    session = await open_session(bridge_client)
    request = {
        "system": "megatraveller",
        "action": "fire",
        "attacker": {"id": "m1", "name": "Jamison", "skill": 2, "dex": 8},
        "weapon": {"name": "ACR", "loaded": 40, "capacity": 40, "rapid": True, "burst": 4, "auto": True},
        "mode": "rapid",
        "targets": [{"id": "x1", "name": "Vargr"}, {"id": "x2", "name": "Vargr 2"}],
        "allocation": "defer",
    }
    pending = await session.ask({"type": "attack", "id": "mt1", "request": request})
    if pending["type"] == "error":
        pytest.fail(f"the MegaTraveller request shape changed: {json.dumps(pending)}")
    assert pending["type"] == "pending", pending
    pool = pending["result"]["pending"]
    bullets = pool["bullets"] if isinstance(pool, dict) and "bullets" in pool else None
    assert isinstance(bullets, int)
    reply = await session.ask(
        {"type": "allocate", "id": "mt2", "pending_id": "mt1", "allocation": [bullets, 0]}
    )
    assert reply["type"] == "result", reply
    pool_faces = [roll["face"] for roll in pending["result"]["rolls"]]
    assert [roll["face"] for roll in reply["result"]["rolls"]][: len(pool_faces)] == pool_faces


@pytest.mark.parametrize(
    ("allocation", "says"),
    [(None, "allocation is null"), ("defer", "defers 'p1' again")],
    ids=["null", "defer again"],
)
async def test_an_allocate_must_settle_the_attack(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, allocation: Any, says: str
) -> None:
    session = await open_session(bridge_client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    error = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": allocation,
            "dice": [4, 5, 6, 1, 2, 3],  # the pool alone: deferring rolls nothing more
        }
    )
    assert (error["type"], error["code"], error["path"], error["id"]) == (
        "error",
        "invalid",
        "$.allocation",
        "a1",
    )
    assert says in error["message"]
    assert [entry["id"] for entry in entries(settings.data_dir)] == ["p1"]  # nothing settled, nothing spent
    reply = await session.ask(
        {
            "type": "allocate",
            "id": "a2",
            "pending_id": "p1",
            "allocation": [3, 0],
            "dice": [4, 5, 6, 1, 2, 3, 3, 3],
        }
    )
    assert [(t["id"], t["hits"]) for t in reply["result"]["targets"]] == [("t1", 3), ("t2", 0)]


async def test_a_scripted_first_step_needs_scripted_dice_to_finish(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    """Without them the pool would be rolled afresh, not the one the player saw."""
    session = await open_session(bridge_client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    error = await session.ask({"type": "allocate", "id": "a1", "pending_id": "p1", "allocation": [3, 0]})
    assert (error["code"], error["path"]) == ("dice", "$.dice")
    assert "'p1' was rolled with scripted dice" in error["message"]
    assert [entry["id"] for entry in entries(settings.data_dir)] == ["p1"]


async def test_two_allocates_racing_for_one_attack_spend_it_once(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    one = await open_session(bridge_client)
    two = await open_session(bridge_client)
    await _defer(one, dice=[4, 5, 6, 1, 2, 3])
    allocate = {
        "type": "allocate",
        "pending_id": "p1",
        "allocation": [3, 0],
        "dice": [4, 5, 6, 1, 2, 3, 3, 3],
    }
    await one.send({**allocate, "id": "a1"})
    await two.send({**allocate, "id": "a2"})
    replies = sorted([await one.reply(), await two.reply()], key=lambda reply: reply["type"])
    assert [reply["type"] for reply in replies] == ["error", "result"]
    error, result = replies
    assert error["code"] == "already_allocated"
    assert error["message"] in (
        f"attack 'p1' was already allocated (by {result['id']!r})",
        "attack 'p1' was already allocated (by another allocate, still in flight)",
    )
    assert [entry["id"] for entry in entries(settings.data_dir)] == ["p1", result["id"]]


async def test_a_pending_attack_expires_and_says_so_when_allocated_late(start_bridge: Start) -> None:
    client = await start_bridge(pending_expiry=0.2)
    session = await open_session(client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    await asyncio.sleep(0.4)
    error = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": [3, 0],
            "dice": [4, 5, 6, 1, 2, 3, 3, 3],
        }
    )
    assert (error["type"], error["code"], error["path"], error["id"]) == (
        "error",
        "pending_expired",
        "$.pending_id",
        "a1",
    )
    # How long ago is what the clock says (0 s, or 1 s on a busy machine); the rule is the same.
    assert re.search(
        r"'p1' was rolled \d+ s ago; pending attacks expire after 0 s, so roll it again", error["message"]
    ), error["message"]


async def test_a_fresh_pending_attack_is_not_expired(start_bridge: Start) -> None:
    client = await start_bridge(pending_expiry=60)
    session = await open_session(client)
    await _defer(session, dice=[4, 5, 6, 1, 2, 3])
    reply = await session.ask(
        {
            "type": "allocate",
            "id": "a1",
            "pending_id": "p1",
            "allocation": [3, 0],
            "dice": [4, 5, 6, 1, 2, 3, 3, 3],
        }
    )
    assert reply["type"] == "result"
