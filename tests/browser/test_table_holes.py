"""The last holes a player (or a GM's assistant) could reach at a real table, each closed (issue #32):

* the bridge's address is the referee's own browser's: a world setting cannot send the referee's token
  elsewhere, and an address off this machine is used only once the referee confirms it there;
* a private card (GM, blind or self) carries in its flags, content and rolls only what every client may
  know; its readers still read it (the browser holding the bridge lifts it for them), and Undo works;
* a player names only tokens they can see: a hidden token, or one on another scene, is refused, and its
  name never reaches the player.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    MP5,
    REFEREE_ID,
    Table,
    cards,
    open_as,
    set_message_mode,
    settle,
    wait_booted,
    wait_connected,
)

BRIDGE = "/modules/volley/scripts/foundry/bridge.js"
ELSEWHERE = "ws://bridge.invalid:8765/ws"
CHOICE = {
    "system": "gurps",
    "token": "tokHale000000001",
    "weapon": "wMp5000001",
    "action": "attack",
    "modifier": 0,
    "targets": [{"id": "tokRaider0000002", "shots": 3, "modifier": 0}],
}


def sockets_opened(page: Any) -> list[str]:
    """Every websocket address the page opens from now on (call before it boots to see them all)."""
    opened: list[str] = []
    page.on("websocket", lambda socket: opened.append(socket.url))
    return opened


def relay(page: Any, message_id: str, choice: dict[str, Any] | None = None, kind: str = "attack") -> Any:
    """A choice sent through the module's own relay, as the dialog sends it (and as a console can)."""
    return page.evaluate(
        f"async ([id, choice, type]) => (await import('{BRIDGE}')).sendRelayed({{type, id, choice}})",
        [message_id, choice or CHOICE, kind],
    )


# The bridge's address


def test_a_world_setting_cannot_send_the_referees_token_elsewhere(table: Table) -> None:
    """An assistant GM may change world settings; the old world setting of the bridge's address no
    longer moves the referee's connection, so the token is never sent there."""
    referee = table.pages.new()
    opened = sockets_opened(referee)
    table.ready(page=referee)
    assistant = open_as(table, "assistant")
    assistant.evaluate(f"game.settings.set('volley', 'bridgeUrl', '{ELSEWHERE}')")
    referee.wait_for_function(f"game.settings.get('volley', 'bridgeUrl') === '{ELSEWHERE}'")
    settle(referee)
    assert [url for url in opened if "bridge.invalid" in url] == []
    wait_connected(referee)
    assert table.pages.errors == []


def test_an_address_off_this_machine_waits_for_the_referees_confirmation(table: Table) -> None:
    referee = table.pages.new()
    opened = sockets_opened(referee)
    table.ready(page=referee)
    referee.evaluate(f"game.settings.set('volley', 'bridgeAddress', '{ELSEWHERE}')")
    ask = referee.get_by_role("dialog", name="Volley: the bridge's address")
    ask.wait_for()
    assert ELSEWHERE in ask.inner_text()
    settle(referee)
    assert [url for url in opened if "bridge.invalid" in url] == [], "nothing is sent before it is confirmed"
    line = referee.locator(".volley-bridge-status").first
    assert ELSEWHERE in line.inner_text(), "the status line shows where the token would go"
    # Confirmed: the token goes there (the name never resolves here, so the connection then fails).
    with referee.expect_websocket(lambda socket: "bridge.invalid" in socket.url):
        ask.get_by_role("button", name="Yes").click()
    assert referee.evaluate("game.settings.get('volley', 'bridgeAddressConfirmed')") == ELSEWHERE
    # Confirmed once, in this browser: opened again (keeping its own address), it does not ask again.
    with referee.expect_websocket(lambda socket: "bridge.invalid" in socket.url):
        referee.goto(referee.url + "&address=keep")
    wait_booted(referee)
    settle(referee)
    assert referee.get_by_role("dialog", name="Volley: the bridge's address").count() == 0
    assert ELSEWHERE in referee.locator(".volley-bridge-status").first.inner_text()
    assert table.pages.errors == []


def test_the_old_world_address_is_taken_over_once_and_still_needs_confirming(table: Table) -> None:
    """A table that had moved its bridge with the old world setting keeps it: each GM browser takes the
    address over once, and one off this machine still waits for that referee's confirmation."""
    assistant = open_as(table, "assistant")
    assistant.evaluate(f"game.settings.set('volley', 'bridgeUrl', '{ELSEWHERE}')")
    referee = table.pages.new()
    opened = sockets_opened(referee)
    table.open(page=referee, extra="&address=keep")
    referee.wait_for_function(f"game.settings.get('volley', 'bridgeAddress') === '{ELSEWHERE}'")
    referee.get_by_role("dialog", name="Volley: the bridge's address").wait_for()
    settle(referee)
    assert [url for url in opened if "bridge.invalid" in url] == []
    assert table.pages.errors == []


# Private cards


#: What a card holds that only its readers may see: none of it may be in a non-reader's client.
SECRET_FIELDS = ("card", "result", "choice", "before", "weapon", "capacity")


def exposed(page: Any, message_id: str) -> dict[str, Any]:
    """What this page's client holds of a card: its flags' keys, its content's text, its rolls' dice."""
    return page.evaluate(
        """(id) => { const m = game.messages.get(id);
          return {keys: Object.keys(m.flags.volley ?? {}).sort(), content: m.content,
                  dice: m.rolls.flatMap((r) => r.terms.filter((t) => t.faces)).length}; }""",
        message_id,
    )


@pytest.mark.foundry(13, 14)
def test_a_private_card_holds_nothing_its_non_readers_may_not_see_and_its_readers_still_read_it(
    table: Table,
) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player", extra="&dice3d=instant")
    co = open_as(table, "coreferee", extra="&token=none")
    # A blind roll of the player's, and a self roll of the referee's: the player reads neither.
    set_message_mode(player, "blind")
    assert relay(player, "volley-blind-1", {**CHOICE, "rollMode": "blind"})["type"] == "result"
    referee.evaluate(
        "game.settings.set('core', game.release.generation >= 14 ? 'messageMode' : 'rollMode',"
        " game.release.generation >= 14 ? 'self' : 'selfroll')"
    )
    assert relay(referee, "volley-self-1", {**CHOICE, "rollMode": "self"})["type"] == "result"
    player.wait_for_function("game.messages.contents.length === 2")
    for message in player.evaluate("game.messages.contents.map((m) => m.id)"):
        held = exposed(player, message)
        assert not set(SECRET_FIELDS) & set(held["keys"]), held["keys"]
        assert "Raider" not in held["content"] and "volley-card__row" not in held["content"]
        assert held["dice"] == 0, "no die of the bridge's in the message's rolls"
        assert "veil" in held["keys"]
    # The co-referee has no token: the referee's browser lifts the blind card for them.
    blind_id = referee.evaluate("game.messages.contents[0].id")
    co.locator(f'[data-message-id="{blind_id}"] .volley-card tr.volley-card__row').first.wait_for()
    # A GM roll of the player's: the player reads it (lifted by the referee's browser), and its dice
    # fall in the player's own browser.
    set_message_mode(player, "gm")
    assert relay(player, "volley-gm-1", {**CHOICE, "rollMode": "gm"})["type"] == "result"
    gm_id = referee.evaluate("game.messages.contents.at(-1).id")
    player.locator(f'[data-message-id="{gm_id}"] .volley-card tr.volley-card__row').first.wait_for()
    player.wait_for_function("sandbox.dice3d.shown.some((s) => s.throws > 0)")
    assert table.pages.errors == []


def test_a_player_cannot_ask_the_holder_for_a_card_they_may_not_read(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    set_message_mode(player, "blind")
    assert relay(player, "volley-blind-2", {**CHOICE, "rollMode": "blind"})["type"] == "result"
    referee.wait_for_function("game.messages.contents.length === 1")
    message_id = referee.evaluate("game.messages.contents[0].id")
    answer = player.evaluate(
        f"async (id) => (await import('{BRIDGE}'))"
        ".sendRelayed({type: 'reveal', id: 'volley-peek-1', message: id})",
        message_id,
    )
    assert answer["type"] == "error" and answer.get("key") == "VOLLEY.Form.NotYoursToRead", answer
    assert "secret" not in answer
    assert table.pages.errors == []


def test_undo_restores_a_blind_roll_from_under_its_veil(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    before = int(referee.evaluate(f"{MP5}.state.loaded"))
    set_message_mode(player, "blind")
    assert relay(player, "volley-blind-3", {**CHOICE, "rollMode": "blind"})["type"] == "result"
    referee.wait_for_function(f"{MP5}.state.loaded < {before}")
    card = cards(referee).last
    card.get_by_role("button", name="Undo").click()
    referee.wait_for_function(f"{MP5}.state.loaded === {before}")
    card.locator(".volley-card__undone").wait_for()
    assert referee.evaluate("game.messages.contents[0].flags.volley.undone.by") == REFEREE_ID
    assert table.pages.errors == []


# Players target only what they can see


@pytest.mark.foundry(13, 14)
def test_a_player_naming_a_hidden_or_far_token_is_refused_and_never_learns_its_name(table: Table) -> None:
    referee = open_as(table, "referee")
    wait_connected(referee)
    player = open_as(table, "player")
    referee.evaluate(
        "canvas.scene.tokens.get('tokSentry0000004').update({hidden: true, name: 'Hidden Sniper'})"
    )
    player.wait_for_function("canvas.scene.tokens.get('tokSentry0000004').hidden === true")
    hidden = {**CHOICE, "targets": [{"id": "tokSentry0000004", "shots": 1, "modifier": 0}]}
    for kind in ("odds", "attack"):
        answer = relay(player, f"volley-hidden-{kind}", hidden, kind)
        assert answer["type"] == "error" and answer.get("key") == "VOLLEY.Form.TargetUnseen", answer
        assert "Hidden Sniper" not in str(answer)
    # A token on another scene (the MegaTraveller scene's raider).
    far_id = referee.evaluate(
        "game.scenes.contents.find((s) => s.system === 'megatraveller').tokens.contents.at(-1).id"
    )
    far = {**CHOICE, "targets": [{"id": far_id, "shots": 1, "modifier": 0}]}
    answer = relay(player, "volley-far-1", far)
    assert answer["type"] == "error" and answer.get("key") == "VOLLEY.Form.TargetUnseen", answer
    settle(referee)
    assert referee.evaluate("game.messages.contents.length") == 0, "nothing was rolled"
    # What the player can see still fires.
    assert relay(player, "volley-seen-1")["type"] == "result"
    assert table.pages.errors == []
