"""Every preview is bounded (issue 18, item 5): GURPS odds with rof = loaded = shots = 10**6 used to be
4 MB computed on the event loop while every other client waited.

Nothing here is timed. What is checked: a preview beyond a system's bounds is refused with the field
named, cheaply, on the loop (``/healthz`` counts no worker job for it); the costliest preview the
bounds allow goes to a rules worker (``/healthz`` counts it) and its reply fits the outbox; the other
client is served meanwhile.
"""

from __future__ import annotations

from typing import Any

import pytest
from bridgekit import open_session

import rules
from bridge.i18n import Catalogue
from bridge.protocol import MAX_REPLY_BYTES, MAX_TARGETS, ProtocolError
from bridge.server.workers import OFFLOAD_MS
from rules.gurps.plan import MAX_PELLETS, MAX_ROF
from rules.gurps.requests import MAX_ROUNDS, SCORE_RANGE

pytestmark = pytest.mark.asyncio

MILLION: dict[str, Any] = {
    "system": "gurps",
    "attacker": {"id": "a1", "name": "Kane", "skill": 12},
    "weapon": {"name": "Minigun", "rof": 10**6, "rcl": 2, "loaded": 10**6},
    "shots": 10**6,
    "targets": [{"id": "t1"}],
}


def costliest() -> dict[str, Any]:
    """The largest GURPS preview the bounds let through the bridge: every projectile the RoF can fire,
    shared out among as many targets as a request may name, every one of them dodging."""
    each = MAX_ROF // MAX_TARGETS
    return {
        "system": "gurps",
        "attacker": {"id": "a1", "skill": SCORE_RANGE[1]},
        "weapon": {"rof": f"{MAX_ROF}x{MAX_PELLETS}", "rcl": 1, "loaded": MAX_ROUNDS},
        "shots": each * MAX_TARGETS,
        "targets": [{"id": f"t{k}", "dodge": 12, "shots": each} for k in range(MAX_TARGETS)],
    }


async def offloaded(client: Any) -> int:
    body: dict[str, Any] = await (await client.get("/healthz")).json()
    count: int = body["workers"]["offloaded"]
    return count


async def test_a_million_shot_preview_is_refused_with_its_field_and_never_reaches_a_worker(
    start_bridge: Any,
) -> None:
    client = await start_bridge(workers=1)
    player, other = await open_session(client), await open_session(client)
    await player.send({"type": "odds", "id": "big", "request": MILLION})
    raw = await player.raw_reply()
    assert len(raw) < 4096
    assert (await other.ask({"type": "ping", "id": "p"}))["type"] == "pong"
    within = {**MILLION, "weapon": {**MILLION["weapon"], "loaded": 1000}}
    refused = await player.ask({"type": "odds", "id": "rof", "request": within})
    assert (refused["type"], refused["code"], refused["path"]) == ("error", "invalid", "$.request.weapon.rof")
    assert refused["msg"]["key"] == "gurps.error.rof_too_high"
    assert await offloaded(client) == 0


async def test_the_costliest_allowed_preview_goes_to_a_worker_and_fits_one_reply(start_bridge: Any) -> None:
    assert rules.odds_cost(rules.decode_request(costliest())) > OFFLOAD_MS
    client = await start_bridge(workers=1)
    player, other = await open_session(client), await open_session(client)
    await player.send({"type": "odds", "id": "costly", "request": costliest()})
    assert (await other.ask({"type": "ping", "id": "p"}))["type"] == "pong"
    raw = await player.raw_reply()
    assert '"type":"odds"' in raw and len(raw.encode()) < MAX_REPLY_BYTES
    assert await offloaded(client) == 1


async def test_a_preview_larger_than_a_reply_may_be_is_refused_not_sent(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The last guard, for a system whose bounds would let one through: ``too_large``, with a message
    every catalogue renders, never a reply over the outbox limit."""
    import bridge.resolution

    request = {**MILLION, "weapon": {**MILLION["weapon"], "rof": 100, "loaded": 100}, "shots": 100}
    assert len(bridge.resolution.odds_reply("o1", request)) > 300
    monkeypatch.setattr(bridge.resolution, "MAX_REPLY_BYTES", 300)
    with pytest.raises(ProtocolError) as refused:
        bridge.resolution.odds_reply("o1", request)
    assert (refused.value.code, refused.value.path) == ("too_large", "$.request")
    assert refused.value.msg is not None
    for language in ("en", "ru"):
        assert "{" not in Catalogue.load(language).render(refused.value.msg)
