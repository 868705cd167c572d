"""Every message type and every error path, through a real socket; the connection stays usable."""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import aiohttp
import msgspec
import pytest
import skirmish
from aiohttp.test_utils import TestClient
from bridgekit import BUDGET_S, GURPS_MP5, Session, Start, entries, open_session

import rules
from bridge.i18n import Catalogue
from bridge.protocol import MAX_FRAME_BYTES, MAX_TARGETS
from bridge.server.app import CONNECTIONS, READ_LIMIT, BridgeSettings

pytestmark = pytest.mark.asyncio


async def still_usable(session: Session) -> None:
    assert await session.ask({"type": "ping", "id": "alive"}) == {"type": "pong", "id": "alive"}


async def test_attack_returns_result_card_and_updates(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    # Skirmish, scripted: pool 5,4,1,6 -> 3 bullets, all to the Drone; Drone to-hit 3 (hits), Walker 2.
    request = skirmish.fire(dice=[5, 4, 1, 6, 3, 2], allocation=[3, 0])
    reply = await session.ask({"type": "attack", "id": "r1", "request": request})
    assert reply["type"] == "result" and reply["id"] == "r1"
    result = reply["result"]
    assert [(t["id"], t["hits"]) for t in result["targets"]] == [("t1", 3), ("t2", 0)]
    assert result["weapon"] == {"loaded": 6, "jammed": False}
    assert [roll["face"] for roll in result["rolls"]] == [5, 4, 1, 6, 3, 2]
    # Protocol 3: the updates and the log are the result's, once (no copy at the top, none in the card).
    assert "updates" not in reply
    assert result["updates"][0] == {"token": "a1", "state": {"weapon.loaded": 6}}
    card = reply["card"]
    # Protocol 2: the card says things in messages; the module and the CLI pick the words.
    assert card["title"] == {"key": "common.card.fires", "values": {"who": "Vasquez", "weapon": "Smartgun"}}
    assert card["system_title"] == {"key": "common.system.skirmish", "values": {}}
    assert Catalogue.load("en").render(card["title"]) == "Vasquez fires Smartgun"
    assert card["weapon"] == {"name": "Smartgun", "loaded": 6, "jammed": False}
    # A row's statuses are its token's updates in the result (the card refers to them).
    assert card["rows"][0] == {"target": "t1", "name": "Drone", "hits": 3}
    assert {"token": "t1", "statuses_add": ["wounded"]} in result["updates"]
    assert result["log"] == [
        {"key": "skirmish.pool", "values": {"shots": 4, "bullets": 3}},
        {"key": "skirmish.to_hit", "values": {"target": "t1", "roll": 3, "hits": 3}},
        {"key": "skirmish.to_hit", "values": {"target": "t2", "roll": 2, "hits": 0}},
    ]
    assert "log" not in card and "pending" not in card


async def test_action_resolves_a_non_firing_action(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    request = {"system": "skirmish", "action": "reload", "attacker": {"id": "a1"}, "weapon": {"id": "w"}}
    reply = await session.ask({"type": "action", "id": "r2", "request": {**request, "capacity": 30}})
    assert reply["type"] == "result"
    assert reply["result"]["updates"] == [{"token": "a1", "state": {"weapon.loaded": 30}}]
    title = reply["card"]["title"]
    assert title == {
        "key": "common.card.acts",
        "values": {"who": "a1", "action": {"key": "skirmish.action.reload", "values": {}}, "weapon": "w"},
    }


async def test_a_real_gurps_attack_goes_through(start_bridge: Start) -> None:
    # The bridge rolls (no scripted dice), from a known seed: with fresh seeds one attack in 54 rolls 17+
    # and malfunctions (Malf 17), spending one round, not ten (the hog run on c27a120 drew one).
    session = await open_session(await start_bridge(seed_base=1))
    reply = await session.ask({"type": "attack", "id": "g1", "request": GURPS_MP5})
    assert reply["type"] == "result"
    assert reply["result"]["system"] == "gurps"
    assert reply["result"]["weapon"]["malfunction"] is None
    assert reply["result"]["weapon"]["loaded"] == 20  # ten shots from a full 30-round magazine
    title = reply["card"]["title"]
    assert Catalogue.load("en").render(title) == "Kane fires MP5"
    assert Catalogue.load("ru").render(title) == "Kane: огонь (MP5)"
    assert Catalogue.load("en").render(reply["card"]["system_title"]) == "GURPS 4e — rapid fire"


async def test_odds_are_answered_and_not_journaled(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    reply = await session.ask({"type": "odds", "id": "o1", "request": GURPS_MP5})
    assert reply["type"] == "odds" and reply["id"] == "o1"
    # The rules engine's exact figures, passed through untouched.
    assert reply["odds"] == json.loads(msgspec.json.encode(rules.odds(rules.decode_request(GURPS_MP5))))
    (target,) = reply["odds"]["targets"]
    assert target["id"] == "t1"
    assert sum(target["hits"]) == pytest.approx(1.0)
    assert entries(settings.data_dir) == []


async def test_ping_pong(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    assert await session.ask({"type": "ping"}) == {"type": "pong", "id": None}


@pytest.mark.parametrize(
    ("message", "code", "path", "says"),
    [
        ("{nope", "bad_json", "$", "not valid JSON"),
        ({"type": "teleport", "id": "x1"}, "unknown_type", "$.type", "expected one of hello, attack, action"),
        ({"id": "x2"}, "unknown_type", "$.type", "a message needs a 'type'"),
        ({"type": "attack", "request": GURPS_MP5}, "invalid", "$.id", "missing required field `id`"),
        ({"type": "attack", "id": 7, "request": GURPS_MP5}, "invalid", "$.id", "Expected `str`, got `int`"),
        ({"type": "attack", "id": "", "request": GURPS_MP5}, "invalid", "$.id", "length >= 1"),
        ({"type": "attack", "id": "x3", "request": []}, "invalid", "$.request", "Expected `object`"),
        ({"type": "odds", "id": "x3b"}, "invalid", "$.request", "missing required field `request`"),
        (
            {"type": "attack", "id": "x4", "request": {**GURPS_MP5, "shots": 14}},
            "rule",
            "$.request.shots",
            "14",
        ),
        (
            {"type": "attack", "id": "x5", "request": {**GURPS_MP5, "system": "d6"}},
            "invalid",
            "$.request.system",
            "unknown system 'd6'",
        ),
        (
            {
                "type": "attack",
                "id": "x6",
                "request": {**GURPS_MP5, "weapon": {**GURPS_MP5["weapon"], "rcl": "x"}},
            },
            "invalid",
            "$.request.weapon.rcl",
            "Expected `int`, got `str`",
        ),
        (
            {"type": "attack", "id": "x6b", "request": {"system": "gurps"}},
            "invalid",
            "$.request.attacker",
            "missing required field `attacker`",
        ),
        (
            {"type": "attack", "id": "x6c", "request": {**GURPS_MP5, "attacker": {"skill": 12}}},
            "invalid",
            "$.request.attacker.id",
            "missing required field `id`",
        ),
        (
            {"type": "odds", "id": "x7", "request": {**GURPS_MP5, "shots": 14}},
            "rule",
            "$.request.shots",
            "14",
        ),
        (
            {"type": "allocate", "id": "x8", "pending_id": "nobody", "allocation": [1]},
            "unknown_pending",
            "$.pending_id",
            "no pending attack with id 'nobody'",
        ),
        (
            {"type": "allocate", "id": "x9", "pending_id": "nobody"},
            "invalid",
            "$.allocation",
            "missing required field `allocation`",
        ),
    ],
    ids=[
        "bad json",
        "unknown type",
        "no type",
        "no id",
        "id not a string",
        "empty id",
        "request not an object",
        "no request",
        "rule violation",
        "unknown system",
        "wrong field type",
        "missing rules field",
        "missing nested rules field",
        "odds rule violation",
        "unknown pending",
        "no allocation",
    ],
)
async def test_errors_are_messages_naming_code_and_path(
    bridge_client: TestClient[Any, Any],
    settings: BridgeSettings,
    *,
    message: Any,
    code: str,
    path: str,
    says: str,
) -> None:
    session = await open_session(bridge_client)
    error = await session.ask(message)
    assert error["type"] == "error"
    assert (error["code"], error["path"]) == (code, path), error
    assert says in error["message"], error
    if code in ("rule", "invalid") and path.startswith("$.request"):
        # A refusal of the rules request carries it as a message, which says the same in English.
        assert Catalogue.load("en").render(error["msg"]) == error["message"], error
    if "msg" in error:
        assert Catalogue.load("ru").render(error["msg"]) != error["message"], error
    if isinstance(message, dict) and isinstance(message.get("id"), str) and message["id"]:
        assert error["id"] == message["id"]
    await still_usable(session)
    assert entries(settings.data_dir) == []


async def test_rule_errors_carry_the_rules_message(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "attack", "id": "x9", "request": {**GURPS_MP5, "shots": 14}})
    assert error["message"] == "shots 14 > RoF 13"
    # ... and, for a client in another language, as a message (protocol 2, docs/protocol.md).
    assert error["msg"] == {"key": "gurps.error.shots_over_rof", "values": {"shots": 14, "rof": 13}}
    assert Catalogue.load("ru").render(error["msg"]) == "14 выстрелов — больше СС 13"


async def test_a_refusal_without_a_message_sends_no_msg(bridge_client: TestClient[Any, Any]) -> None:
    """The bridge's own refusals (not the rules') have only their English ``message``; no ``msg``."""
    session = await open_session(bridge_client)
    error = await session.ask({"type": "allocate", "id": "x10", "pending_id": "nobody", "allocation": [1]})
    assert error["code"] == "unknown_pending" and "msg" not in error


async def test_a_refused_id_may_be_sent_again_corrected(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "attack", "id": "fix", "request": {**GURPS_MP5, "shots": 14}})
    assert error["type"] == "error"
    reply = await session.ask({"type": "attack", "id": "fix", "request": GURPS_MP5})
    assert reply["type"] == "result"


async def test_frames_over_64_kib_get_too_large_and_keep_the_connection(
    bridge_client: TestClient[Any, Any],
) -> None:
    session = await open_session(bridge_client)
    padding = "x" * MAX_FRAME_BYTES
    error = await session.ask({"type": "attack", "id": "big", "request": {**GURPS_MP5, "note": padding}})
    assert (error["code"], error["id"], error["path"]) == ("too_large", "big", "$")
    assert f"> {MAX_FRAME_BYTES} bytes" in error["message"]
    await still_usable(session)


async def test_frames_over_1_mib_close_the_socket_with_1009(bridge_client: TestClient[Any, Any]) -> None:
    """Past aiohttp's own read limit the frame is never read; the socket closes (message too big)."""
    session = await open_session(bridge_client)
    await session.send({"type": "ping", "note": "x" * (READ_LIMIT + 1)})
    frame = await session.ws.receive(timeout=BUDGET_S)
    assert frame.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    assert session.ws.close_code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG


async def test_more_than_32_targets_is_refused_before_the_rules(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    crowd = [{"id": f"t{k}", "name": "Zombie"} for k in range(MAX_TARGETS + 1)]
    error = await session.ask({"type": "attack", "id": "many", "request": skirmish.fire(targets=crowd)})
    assert (error["code"], error["path"], error["id"]) == ("too_many_targets", "$.request.targets", "many")
    # Exactly 32 is fine.
    reply = await session.ask(
        {"type": "attack", "id": "ok", "request": skirmish.fire(targets=crowd[:MAX_TARGETS], shots=1)}
    )
    assert reply["type"] == "result"
    # A preview is held to the same limit, and the limit still comes first (a typo beside it waits).
    for kind in ("odds", "attack"):
        request = {**skirmish.fire(targets=crowd), "sjots": 1}
        error = await session.ask({"type": kind, "id": f"{kind}-many", "request": request})
        assert (error["code"], error["path"]) == ("too_many_targets", "$.request.targets"), error
    odds = await session.ask({"type": "odds", "id": "o-ok", "request": skirmish.fire(targets=crowd[:3])})
    assert odds["type"] == "odds", odds


async def test_scripted_dice_are_refused_unless_allowed(
    start_bridge: Start, settings: BridgeSettings
) -> None:
    client = await start_bridge(allow_scripted_dice=False)
    session = await open_session(client)
    assert session.welcome["scripted_dice"] is False
    error = await session.ask(
        {"type": "attack", "id": "cheat", "request": skirmish.fire(dice=[6, 6, 6, 6, 6, 6])}
    )
    assert (error["code"], error["path"]) == ("scripted_dice_refused", "$.request.dice")
    assert entries(settings.data_dir) == []
    # Without dice the server rolls, and journals the seed it drew.
    reply = await session.ask({"type": "attack", "id": "fair", "request": skirmish.fire()})
    assert reply["type"] == "result"
    (entry,) = entries(settings.data_dir)
    assert isinstance(entry["seed"], int) and entry["dice"] is None


async def test_scripted_dice_that_do_not_fit_are_a_dice_error(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "attack", "id": "short", "request": skirmish.fire(dice=[6])})
    assert error["code"] == "dice" and error["path"] == "$.request.dice"
    error = await session.ask(
        {"type": "attack", "id": "seven", "request": skirmish.fire(dice=[7, 1, 1, 1, 1, 1])}
    )
    assert error["code"] == "dice" and error["path"] == "$.request.dice[0]"


async def test_floods_are_rate_limited_not_disconnected(start_bridge: Start) -> None:
    client = await start_bridge(rate=0.001, burst=5)
    session = await open_session(client)
    for k in range(8):
        await session.send({"type": "ping", "id": f"p{k}"})
    replies = [await session.reply() for _ in range(8)]
    assert [r["type"] for r in replies] == ["pong"] * 5 + ["error"] * 3
    assert {r["code"] for r in replies[5:]} == {"rate_limited"}
    assert [r["id"] for r in replies[5:]] == ["p5", "p6", "p7"]
    assert not session.ws.closed


async def test_binary_frames_are_an_error(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await session.ws.send_bytes(json.dumps({"type": "ping"}).encode())
    error = await session.reply()
    assert error["code"] == "invalid" and "binary" in error["message"]
    await still_usable(session)


async def test_one_connection_survives_every_error_in_a_row(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    deep = '{"type": "attack", "id": "deep", "request": ' + "[" * 20_000 + "]" * 20_000 + "}"
    for bad in ("[]", "null", '{"type": 1}', '{"type": "ping", "id": 3}', "[" * 30_000 + "]" * 30_000, deep):
        reply = await session.ask(bad)
        assert reply["type"] == "error", bad
    await still_usable(session)


async def test_a_bug_in_a_rules_system_is_an_internal_error_not_a_crash(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    error = await session.ask(
        {"type": "action", "id": "bug", "request": {"system": "skirmish", "action": "misfire"}}
    )
    assert (error["type"], error["code"], error["id"]) == ("error", "internal", "bug")
    assert "ZeroDivisionError" not in error["message"]  # details stay in the server log
    await still_usable(session)
    assert entries(settings.data_dir) == []


async def test_a_journal_that_cannot_be_written_acknowledges_nothing(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, monkeypatch: pytest.MonkeyPatch
) -> None:
    session = await open_session(bridge_client)

    def disk_full(fd: object) -> None:
        raise OSError(28, "No space left on device")

    with monkeypatch.context() as patch:
        patch.setattr(os, "fsync", disk_full)
        patch.setattr(os, "fdatasync", disk_full, raising=False)  # a line over the journal's zeros
        error = await session.ask({"type": "attack", "id": "full", "request": GURPS_MP5})
    assert (error["code"], error["id"]) == ("journal_failed", "full")
    assert "No space left on device" in error["message"]
    assert entries(settings.data_dir) == []
    # The disk recovers; the same id is resolved now, for the first time.
    reply = await session.ask({"type": "attack", "id": "full", "request": GURPS_MP5})
    assert reply["type"] == "result"
    assert [entry["id"] for entry in entries(settings.data_dir)] == ["full"]


async def test_requests_during_shutdown_are_refused(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    (connection,) = bridge_client.app[CONNECTIONS]
    connection._stopping = True  # what shutdown() sets before draining
    error = await session.ask({"type": "attack", "id": "late", "request": GURPS_MP5})
    assert (error["code"], error["id"]) == ("shutting_down", "late")


ACTION_REQUESTS = sorted((Path(__file__).resolve().parents[1] / "replays" / "requests").glob("*/*.json"))


@pytest.mark.parametrize("path", ACTION_REQUESTS, ids=lambda path: f"{path.parent.name}/{path.stem}")
async def test_every_action_of_every_system_goes_through_action(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, path: Path
) -> None:
    """Reload, unjam, ready, retarget, recover...: the bridge carries each one without knowing it."""
    request = json.loads(path.read_text())
    session = await open_session(bridge_client)
    reply = await session.ask({"type": "action", "id": path.stem, "request": request})
    assert reply["type"] == "result", reply
    assert reply["result"]["system"] == path.parent.name
    assert reply["result"]["action"] == reply["card"]["action"] == request["action"]
    assert "updates" not in reply and "log" not in reply["card"] and reply["result"]["log"]
    assert [row["target"] for row in reply["card"]["rows"]] == [t["id"] for t in reply["result"]["targets"]]
    (entry,) = entries(settings.data_dir)
    assert (entry["type"], entry["request"], entry["reply"]) == ("action", request, reply)


async def test_a_card_for_an_action_without_an_attacker_names_its_targets(
    bridge_client: TestClient[Any, Any],
) -> None:
    session = await open_session(bridge_client)
    request = {
        "system": "d100",
        "action": "suppression_test",
        "targets": [
            {"id": "h1", "name": "Heretic", "wp": 30},
            {"id": "h2", "name": "Heretic", "wp": 30},
            {"id": "c1", "wp": 25},
        ],
        "dice": [5, 5, 5],
    }
    reply = await session.ask({"type": "action", "id": "sup", "request": request})
    assert reply["card"]["title"]["values"]["who"] == ["Heretic", "c1"]  # each name once, in order
    assert Catalogue.load("en").render(reply["card"]["title"]) == "Heretic, c1: Suppression test"
    assert Catalogue.load("ru").render(reply["card"]["title"]) == "Heretic, c1: тест на Подавление"
    assert (reply["card"]["action"], reply["card"]["attacker"]) == ("suppression_test", None)
