"""Start and connect: the hello/welcome handshake, refusals, /healthz and /schema, over a real socket."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from typing import Any

import aiohttp
import pytest
from aiohttp.test_utils import TestClient
from bridgekit import BUDGET_S, GURPS_MP5, TOKEN, Start, entries, journal_lines, open_session

import bridge
import rules
from bridge.i18n import Catalogue
from bridge.protocol import PROTOCOL_VERSION
from bridge.server.app import BridgeSettings
from bridge.server.ratelimit import RelayLimits

pytestmark = pytest.mark.asyncio


async def test_welcome_names_versions_systems_and_session(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings
) -> None:
    session = await open_session(bridge_client)
    welcome = session.welcome
    assert welcome["server_version"] == bridge.__version__
    assert welcome["protocol_version"] == PROTOCOL_VERSION
    assert welcome["rules_version"] == rules.__version__
    names = [system["name"] for system in welcome["systems"]]
    assert "gurps" in names and "skirmish" in names
    # Protocol 2: a system's title is a message, the name players know it by (docs/protocol.md).
    skirmish_title = {"key": "common.system.skirmish", "values": {}}
    assert {"name": "skirmish", "title": skirmish_title, "default_action": "fire"} in welcome["systems"]
    gurps = next(system for system in welcome["systems"] if system["name"] == "gurps")
    assert Catalogue.load("en").render(gurps["title"]) == "GURPS 4e — rapid fire"
    assert Catalogue.load("ru").render(gurps["title"]) == "GURPS 4e — быстрая стрельба"
    # The session id is the journal file's name.
    (journal,) = (settings.data_dir / "sessions").glob("*.jsonl")
    assert welcome["session"] == journal.stem
    assert welcome["scripted_dice"] is True


async def _refused(client: TestClient[Any, Any], first: str | None) -> tuple[dict[str, Any], int | None]:
    ws = await client.ws_connect("/ws")
    if first is not None:
        await ws.send_str(first)
    error = json.loads((await ws.receive(timeout=BUDGET_S)).data)
    closing = await ws.receive(timeout=BUDGET_S)
    assert closing.type in (aiohttp.WSMsgType.CLOSE, aiohttp.WSMsgType.CLOSED, aiohttp.WSMsgType.CLOSING)
    return error, ws.close_code


@pytest.mark.parametrize(
    "first",
    [
        json.dumps({"type": "hello", "token": "not-the-token"}),
        json.dumps({"type": "hello"}),
        json.dumps({"type": "attack", "id": "r1", "request": GURPS_MP5}),
        "{not json",
    ],
    ids=["wrong token", "missing token", "attack before hello", "garbage"],
)
async def test_a_bad_hello_closes_with_policy_violation_and_resolves_nothing(
    bridge_client: TestClient[Any, Any], settings: BridgeSettings, first: str
) -> None:
    error, code = await _refused(bridge_client, first)
    assert error["type"] == "error" and error["code"] == "unauthorized"
    assert code == aiohttp.WSCloseCode.POLICY_VIOLATION
    assert entries(settings.data_dir) == []  # nothing resolved, nothing logged
    assert [line["kind"] for line in journal_lines(settings.data_dir)] == ["header"]


async def test_silence_past_the_hello_deadline_is_refused(start_bridge: Start) -> None:
    client = await start_bridge(hello_timeout=0.2)
    error, code = await _refused(client, None)
    assert error["code"] == "unauthorized" and "no hello within 0.2 s" in error["message"]
    assert code == aiohttp.WSCloseCode.POLICY_VIOLATION


async def test_a_second_hello_is_an_error_not_a_disconnect(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    error = await session.ask({"type": "hello", "token": TOKEN})
    assert error["code"] == "invalid" and error["message"] == "already authenticated"
    assert await session.ask({"type": "ping", "id": "p1"}) == {"type": "pong", "id": "p1"}


async def test_healthz_reports_session_and_journal(bridge_client: TestClient[Any, Any]) -> None:
    session = await open_session(bridge_client)
    await session.ask({"type": "attack", "id": "h1", "request": GURPS_MP5})
    response = await bridge_client.get("/healthz")
    assert response.status == 200
    health = await response.json()
    assert health["status"] == "ok"
    assert health["session"] == session.welcome["session"]
    assert health["connections"] == 1
    assert health["resolved"] == 1
    assert health["journal"]["lines"] == 1 and health["journal"]["batches"] == 1


async def test_schema_describes_every_message_and_the_rules(bridge_client: TestClient[Any, Any]) -> None:
    response = await bridge_client.get("/schema")
    assert response.status == 200
    schema = await response.json()
    defs = schema["protocol"]["$defs"]
    for name in ("Hello", "Attack", "Action", "OddsRequest", "Allocate", "Ping"):
        assert name in defs
    for name in ("Attack", "Action", "OddsRequest", "Allocate"):  # the relayed player, for rate limits
        assert "user" in defs[name]["properties"] and "user" not in defs[name]["required"]
    for name in ("Welcome", "ResultReply", "Pending", "OddsReply", "Error", "Pong"):
        assert name in defs
    assert defs["Attack"]["properties"]["type"]["enum"] == ["attack"]
    assert "gurps" in schema["rules"]["systems"]


async def test_log_lines_are_tagged_with_the_connection(
    bridge_client: TestClient[Any, Any], caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO, logger="volley.bridge")
    await open_session(bridge_client)
    await _refused(bridge_client, json.dumps({"type": "hello", "token": "nope"}))
    tagged = [record.getMessage() for record in caplog.records if "] " in record.getMessage()]
    assert any(re.fullmatch(r"\[#\d+ 127\.0\.0\.1\] authenticated", line) for line in tagged), tagged
    assert any(re.fullmatch(r"\[#\d+ 127\.0\.0\.1\] refused: wrong access token", line) for line in tagged), (
        tagged
    )


class StuckSocket:
    """A websocket whose client never reads: its close frame, once sent, is never answered."""

    closed = False
    close_code: int | None = None

    async def close(self, *, code: int, message: bytes) -> bool:
        self.closed, self.close_code = True, code
        await asyncio.Event().wait()
        return True


class Transport:
    """The socket under it: takes every write into a buffer that never drains."""

    aborted = False

    def __init__(self) -> None:
        self.written: list[bytes] = []

    def write(self, data: bytes) -> None:
        self.written.append(data)

    def is_closing(self) -> bool:
        return self.aborted

    def abort(self) -> None:
        self.aborted = True


class PushingBack:
    """aiohttp's protocol for the connection, told by the transport that its buffer is full for good."""

    writing_paused = True

    async def _drain_helper(self) -> None:
        await asyncio.Event().wait()


async def test_a_client_that_stops_reading_is_cut_off_after_the_stall_and_aborted() -> None:
    """Replies fill the outbox; only when it stays full past the deadline is the client cut off, and a
    close frame it will not take is not waited for: the socket is aborted and the replies let go."""
    from bridge.server.connection import Connection
    from bridge.server.outbox import Pace

    socket, transport = StuckSocket(), Transport()
    pace = Pace(outgoing_frames=3, stall_timeout=0.1, close_timeout=0.1)
    conn = Connection(
        socket,  # type: ignore[arg-type]
        None,  # type: ignore[arg-type]
        token=TOKEN,
        welcome=None,  # type: ignore[arg-type]
        limits=RelayLimits(),
        hello_timeout=1,
        tag="#test",
        pace=pace,
        transport=transport,  # type: ignore[arg-type]
        flow=PushingBack(),  # type: ignore[arg-type]
    )
    conn._writer = asyncio.create_task(conn._write_loop())
    for k in range(4):  # one is written and leaves the socket pushing back, three fill the outbox
        conn._send(f'{{"n": {k}}}'.encode())
        await asyncio.sleep(0)
    assert conn.outbox.full and not socket.closed
    full_at = time.monotonic()
    # Waited for, never slept on: a busy machine only makes the cut-off later, never earlier.
    async with asyncio.timeout(BUDGET_S):
        while not socket.closed:
            await asyncio.sleep(0.005)
        assert time.monotonic() - full_at >= 0.09  # full, but not cut off before the stall (0.1 s)
        while not transport.aborted:  # the close frame it will not take is not waited for
            await asyncio.sleep(0.005)
    assert socket.close_code == aiohttp.WSCloseCode.POLICY_VIOLATION
    assert (len(conn.outbox), conn.outbox.bytes, conn.dropped) == (0, 0, 3)
    await conn._finish()
    assert conn._writer.done()


async def test_an_outbox_that_drains_in_time_keeps_the_client() -> None:
    from bridge.server.outbox import Outbox, Pace

    events: list[str] = []
    outbox = Outbox(
        Pace(outgoing_frames=2, outgoing_bytes=10),
        on_full=lambda: events.append("full"),
        on_room=lambda: events.append("room"),
    )
    assert outbox.has_room(in_flight=1) and not outbox.has_room(in_flight=2)
    outbox.put(b"12345")
    assert not outbox.full
    outbox.put(b"67890")  # two frames and ten bytes: full both ways
    assert outbox.full and events == ["full"]
    assert await outbox.take() == b"12345"
    assert events == ["full", "room"] and outbox.bytes == 5
    assert outbox.close() == 1 and outbox.bytes == 0
    assert not outbox.put(b"late")
    assert await outbox.take() is None


@pytest.mark.parametrize(
    ("hello", "says"),
    [
        ({"type": "hello"}, "bad hello: Object missing required field `token` at $.token"),
        ({"type": "hello", "token": 12345}, "bad hello: Expected `str`, got `int` at $.token"),
        ({"type": "ping"}, "the first message must be a hello"),
        ({"type": "hello", "token": "nope"}, "wrong access token"),
    ],
    ids=["no token", "token not a string", "not a hello", "wrong token"],
)
async def test_a_refused_hello_says_why(
    bridge_client: TestClient[Any, Any], hello: dict[str, Any], says: str
) -> None:
    error, code = await _refused(bridge_client, json.dumps(hello))
    assert (error["code"], error["message"]) == ("unauthorized", says)
    assert code == aiohttp.WSCloseCode.POLICY_VIOLATION


async def test_the_loop_turns_after_a_budget_of_frames_and_work_not_after_every_slow_frame() -> None:
    """Frames a socket sent together are taken one after another, and the loop turns (other sockets
    get read) once ``TURN_WORK`` was spent on at least ``TURN_FRAMES`` of them, or ``TURN_WORK_LIMIT``
    on fewer. On a busy host every attack alone took longer than ``TURN_WORK`` and the loop turned after
    each one (issue 38: ~8% of the server's CPU per attack under load)."""
    from bridge.server.turns import TURN_FRAMES, TURN_WORK, TURN_WORK_LIMIT, Turns

    def turns_after(seconds: float, frames: int) -> list[int]:
        turns = Turns()
        return [k for k in range(1, frames + 1) if turns.due(seconds)]

    slow_host = 1.5 * TURN_WORK  # each frame alone past the budget, on a host busy with others
    assert turns_after(slow_host, 12) == [TURN_FRAMES, 2 * TURN_FRAMES, 3 * TURN_FRAMES]
    quick = TURN_WORK / 10  # a quiet host: the budget is what ends a burst, as before
    assert turns_after(quick, 30) == [11, 22]
    huge = 1.2 * TURN_WORK_LIMIT  # a frame of a millisecond or more: the loop turns after each one
    assert turns_after(huge, 3) == [1, 2, 3]
