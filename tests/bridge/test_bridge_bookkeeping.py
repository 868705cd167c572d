"""Every round counted once, the bridge's part (issue #31).

* A pending two-step attack holds its attacker's weapon: any other ``attack`` or ``action`` naming the
  same attacker and weapon is refused with ``pending_open`` naming the attack, until it is allocated or
  cancelled. ``cancel`` is journalled (its own line kind), spends nothing, and settles the attack.
* The applied record: ``applied`` marks a key whose updates the VTT applied, once; a mark of the same key
  under another id is ``already_applied`` (after a restart too), the same mark retried gets its bytes
  again. What changed outside Volley rides with the mark into the journal, where ``volley show`` tells it.
"""

from __future__ import annotations

import io
from typing import Any

import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import GURPS_MP5, Start, journal_lines, open_session

from bridge.cli.replay import replay_session
from bridge.cli.sessions import print_session
from bridge.i18n import Catalogue
from bridge.server.app import BridgeSettings
from bridge.store.files import session_files
from bridge.store.reader import read_session

pytestmark = pytest.mark.asyncio

OUTSIDE = {
    "token": "a1",
    "token_name": "Vasquez",
    "weapon": "w1",
    "weapon_name": "Smartgun",
    "field": "loaded",
    "from": 3,
    "to": 20,
    "by": "pl0000000000000b",
    "by_name": "Player",
    "kept": True,
}


async def test_a_pending_attack_holds_its_weapon_until_cancelled(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    first = await session.ask({"type": "attack", "id": "p1", "request": skirmish.fire(allocation="defer")})
    assert first["type"] == "pending"
    again = await session.ask({"type": "attack", "id": "p2", "request": skirmish.fire(allocation="defer")})
    assert (again["type"], again["code"], again["path"]) == ("error", "pending_open", "$.request.weapon")
    assert "Vasquez's Smartgun waits for the allocation of two-step attack 'p1'" in again["message"]
    reload = await session.ask(
        {
            "type": "action",
            "id": "r1",
            "request": {
                "system": "skirmish",
                "action": "reload",
                "attacker": {"id": "a1"},
                "weapon": {"id": "w1", "name": "Smartgun"},
                "capacity": 30,
            },
        }
    )
    assert reload["code"] == "pending_open", "a reload would refill what the pending attack has reserved"
    other = skirmish.fire()
    other["weapon"] = {"id": "w2", "name": "Pistol"}
    assert (await session.ask({"type": "attack", "id": "o1", "request": other}))["type"] == "result"
    cancelled = await session.ask(
        {"type": "cancel", "id": "c1", "pending_id": "p1", "user": "gm0000000000000a"}
    )
    assert cancelled == {"type": "cancelled", "id": "c1", "pending_id": "p1"}
    # Settled: the weapon is free, the attack can be neither allocated nor cancelled again.
    allocated = await session.ask({"type": "allocate", "id": "x1", "pending_id": "p1", "allocation": [1, 0]})
    assert allocated["code"] == "already_allocated" and "cancelled (by 'c1')" in allocated["message"]
    twice = await session.ask({"type": "cancel", "id": "c2", "pending_id": "p1"})
    assert twice["code"] == "already_allocated"
    await session.send({"type": "cancel", "id": "c1", "pending_id": "p1"})
    assert await session.reply() == cancelled, "a retried cancel id gets its bytes again"
    assert (await session.ask({"type": "attack", "id": "p3", "request": skirmish.fire()}))["type"] == "result"
    unknown = await session.ask({"type": "cancel", "id": "c3", "pending_id": "nobody"})
    assert (unknown["code"], unknown["path"]) == ("unknown_pending", "$.pending_id")
    lines = journal_lines(settings.data_dir)
    cancels = [line for line in lines if line["kind"] == "cancel"]
    assert [(c["id"], c["pending_id"], c["user"]) for c in cancels] == [("c1", "p1", "gm0000000000000a")]
    assert not any(line.get("id") == "p2" for line in lines), "a refused request is not journalled"


async def test_an_allocation_frees_the_weapon(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    # Pool 4, 5, 6, 1: three bullets; all three at the first target, whose 3 hits.
    await session.ask(
        {"type": "attack", "id": "p1", "request": skirmish.fire(allocation="defer", dice=[4, 5, 6, 1])}
    )
    result = await session.ask(
        {"type": "allocate", "id": "a1", "pending_id": "p1", "allocation": [3, 0], "dice": [4, 5, 6, 1, 3, 3]}
    )
    assert result["type"] == "result", result
    after = await session.ask({"type": "attack", "id": "p2", "request": skirmish.fire(allocation="defer")})
    assert after["type"] == "pending"


async def test_a_hold_ends_when_its_attack_expires(start_bridge: Start) -> None:
    # With an expiry of 0 s every pending attack has expired by the time the next request is read:
    # it can no longer be allocated, so it holds nothing.
    client = await start_bridge(pending_expiry=0)
    session = await open_session(client)
    await session.ask({"type": "attack", "id": "p1", "request": skirmish.fire(allocation="defer")})
    after = await session.ask({"type": "attack", "id": "p2", "request": skirmish.fire()})
    assert after["type"] == "result"


async def test_a_key_is_marked_applied_once(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.send({"type": "attack", "id": "r1", "request": GURPS_MP5})
    first = await session.raw_reply()
    # Before its mark, the key asked again is answered byte for byte, as ever.
    await session.send({"type": "attack", "id": "r1", "request": GURPS_MP5})
    assert await session.raw_reply() == first
    mark = {
        "type": "applied",
        "id": "m1",
        "target_id": "r1",
        "user": "gm0000000000000a",
        "outside": [OUTSIDE],
    }
    assert await session.ask(mark) == {"type": "marked", "id": "m1", "target_id": "r1"}
    await session.send(mark)
    assert await session.reply() == {"type": "marked", "id": "m1", "target_id": "r1"}
    again = await session.ask({"type": "applied", "id": "m2", "target_id": "r1"})
    assert (again["code"], again["path"]) == ("already_applied", "$.target_id")
    assert "'m1'" in again["message"]
    # Marked: the key asked again comes in an envelope saying so, the journalled reply inside, verbatim.
    await session.send({"type": "attack", "id": "r1", "request": GURPS_MP5})
    envelope = await session.raw_reply()
    assert envelope == '{"type":"applied","id":"r1","mark":"m1","reply":' + first + "}"
    unknown = await session.ask({"type": "applied", "id": "m3", "target_id": "nobody"})
    assert (unknown["code"], unknown["path"]) == ("unknown_target", "$.target_id")
    (line,) = [line for line in journal_lines(settings.data_dir) if line["kind"] == "applied"]
    assert (line["id"], line["target_id"], line["mark"], line["user"]) == (
        "applied:r1",
        "r1",
        "m1",
        "gm0000000000000a",
    )
    assert line["outside"] == [OUTSIDE]
    assert line["reply"] == {"type": "marked", "id": "m1", "target_id": "r1"}


async def test_two_marks_at_once_one_wins(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "r1", "request": GURPS_MP5})
    await session.send({"type": "applied", "id": "m1", "target_id": "r1"})
    await session.send({"type": "applied", "id": "m2", "target_id": "r1"})
    replies = {(await session.reply())["id"]: None for _ in range(2)}
    assert set(replies) == {"m1", "m2"}
    await session.send({"type": "applied", "id": "m1", "target_id": "r1"})
    await session.send({"type": "applied", "id": "m2", "target_id": "r1"})
    answers = [await session.reply() for _ in range(2)]
    kinds = sorted(answer["type"] for answer in answers)
    assert kinds == ["error", "marked"], answers


async def test_the_mark_survives_a_restart(start_bridge: Start) -> None:
    first = await start_bridge()
    session = await open_session(first)
    await session.ask({"type": "attack", "id": "r1", "request": GURPS_MP5})
    assert (await session.ask({"type": "applied", "id": "m1", "target_id": "r1"}))["type"] == "marked"
    await first.close()
    second = await start_bridge()
    session = await open_session(second)
    refused = await session.ask({"type": "applied", "id": "m9", "target_id": "r1"})
    assert refused["code"] == "already_applied", "the chat log cleared or not, the key stays applied"
    repeat = await session.ask({"type": "attack", "id": "r1", "request": GURPS_MP5})
    assert (repeat["type"], repeat["mark"], repeat["reply"]["type"]) == ("applied", "m1", "result")


async def test_replay_leaves_the_new_lines_out_and_show_tells_them(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "p1", "request": skirmish.fire(allocation="defer")})
    await session.ask({"type": "cancel", "id": "c1", "pending_id": "p1", "user": "gm01"})
    await session.ask({"type": "attack", "id": "r1", "request": GURPS_MP5})
    await session.ask({"type": "applied", "id": "m1", "target_id": "r1", "outside": [OUTSIDE]})
    await bridge_client.close()
    (path,) = session_files(settings.data_dir / "sessions")
    report = replay_session(path, progress=False)
    assert report.ok and (report.total, report.matched) == (2, 2)
    log = read_session(path)
    assert log.problems == []
    out = io.StringIO()
    print_session(log, out, Catalogue.load("en"))
    text = out.getvalue()
    assert "c1  cancel by gm01: two-step attack p1 cancelled before its allocation, nothing spent" in text
    assert "before r1, outside Volley: Vasquez Smartgun loaded 3 → 20 (by Player), kept" in text
    russian = io.StringIO()
    print_session(log, russian, Catalogue.load("ru"))
    assert "перед r1, вне Volley: Vasquez Smartgun loaded 3 → 20 (Player), оставлено" in russian.getvalue()


async def test_the_schema_names_the_new_messages(bridge_client: TestClient[Any, Any]) -> None:
    schema: dict[str, Any] = await (await bridge_client.get("/schema")).json()
    assert {"Cancel", "Cancelled", "Applied", "Marked"} <= set(schema["protocol"]["$defs"])
