"""The Foundry module end to end, in headless Chromium, against a real ``volley serve``.

A referee opens the Token HUD on Sgt. Hale (MP5: RoF 13, Rcl 2, 30 rounds, skill 14) with two targeted
raiders, opens the attack dialog, watches the odds preview follow the shots box, fires three rounds at
the first raider and gets a chat card whose hits match the bridge's result, with the rounds left
written to the token's ``flags.volley``; then reloads from the same dialog. A player fires too,
through the referee's browser.

The page around the module is a harness (fake Foundry globals, ``harness/foundry-fake.js``); the
module, its templates, the bridge and the rules behind it are the real ones.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from browserkit import Table

SHOOTER = "tokHale000000001"
RAIDER = "tokRaider0000002"
PLAYER = "pl0000000000000b"
CONNECTION_STATE = "game.modules.get('volley').api.connection()?.state ?? null"


def open_harness(table: Table, *, token: str | None = None, player: bool = False) -> Any:
    """A new harness tab: the referee (with the bridge token in the settings) or the player."""
    page = table.pages.new()
    query = f"bridge={table.bridge.url}"
    if player:
        query += "&user=player"
    else:
        query += f"&token={token if token is not None else table.bridge.token}"
    page.goto(f"{table.site}/harness/index.html?{query}")
    page.wait_for_function("window.harness && (window.harness.ready || window.harness.bootError)")
    assert page.evaluate("window.harness.bootError ?? null") is None
    assert table.pages.errors == []
    return page


def wait_connected(page: Any) -> None:
    page.wait_for_function(f"{CONNECTION_STATE} === 'ready'")


def expected_hits(page: Any, row: int) -> str:
    cell = page.locator("tr.volley-dialog__target").nth(row).locator(".volley-dialog__expected")
    text: str = cell.inner_text()
    return text


def open_dialog(page: Any, *, wait_for_odds: bool = True) -> Any:
    """Token HUD (v13 render hook with an HTMLElement) -> the module's Fire button -> the dialog."""
    page.locator(f'[data-token-id="{SHOOTER}"]').click()
    page.locator("#token-hud .col.right .volley-fire").click()
    dialog = page.locator("dialog.volley-attack-dialog")
    dialog.wait_for()
    if wait_for_odds:
        page.wait_for_function("document.querySelector('.volley-dialog__expected').textContent !== '—'")
    return dialog


def set_shots(page: Any, dialog: Any, shots: int) -> float:
    """Type a new shot count for the first target and wait for the preview to follow."""
    before = expected_hits(page, 0)
    dialog.locator('input[name="targets.0.shots"]').fill(str(shots))
    page.wait_for_function(
        "(before) => document.querySelector('.volley-dialog__expected').textContent !== before", arg=before
    )
    return float(expected_hits(page, 0))


def test_referee_fires_from_the_token_hud(table: Table, tmp_path: Path) -> None:
    page = open_harness(table)
    wait_connected(page)
    assert page.locator(".notification.info").first.inner_text() == "Volley: connected to the bridge."

    dialog = open_dialog(page)
    assert dialog.locator("h2").inner_text() == "Volley: Sgt. Hale fires"
    rows = dialog.locator("tr.volley-dialog__target")
    assert rows.count() == 2
    # The second target's name is escaped by the template, not rendered as markup.
    assert rows.nth(1).locator("td").first.inner_text() == "Lookout <b>2</b>"

    # Live preview: all 13 shots at the first raider, then only 3 of them.
    full_burst = float(expected_hits(page, 0))
    assert expected_hits(page, 1) == "—"  # no shots at the lookout: no odds for it
    assert dialog.locator(".volley-dialog__jam").inner_text().endswith("%")
    three_shots = set_shots(page, dialog, 3)
    assert 0 < three_shots < full_burst <= 13
    page.screenshot(path=str(tmp_path / "volley-dialog.png"))
    # A request the rules refuse shows the reason instead of odds.
    dialog.locator('input[name="targets.0.shots"]').fill("99")
    page.wait_for_function("document.querySelector('.volley-dialog__status').textContent.includes('99')")
    assert "RoF 13" in dialog.locator(".volley-dialog__status").inner_text()
    dialog.locator('input[name="targets.0.shots"]').fill("3")
    page.wait_for_function("document.querySelector('.volley-dialog__status').textContent === ''")

    # Fire: the bridge resolves it, the GM client posts the card and applies the updates.
    dialog.locator('button[data-action="fire"]').click()
    card = page.locator("#chat-log .volley-card")
    card.wait_for()
    result = page.evaluate("harness.chat[0].flags.volley.result")
    raider = next(t for t in result["targets"] if t["id"] == RAIDER)
    # Three rounds leave 27, unless the roll malfunctioned (Malf 17), which spends one round or none.
    loaded, spent = result["weapon"]["loaded"], result["weapon"]["spent"]
    assert loaded == 30 - spent
    assert spent == 3 or (result["weapon"]["jammed"] and spent in (0, 1))
    assert card.locator(".volley-card__title").inner_text() == "Sgt. Hale fires MP5"
    row = card.locator(f'tr[data-target="{RAIDER}"]')
    assert row.locator(".volley-card__name").inner_text() == "Raider"
    assert int(row.locator(".volley-card__hits").inner_text()) == raider["hits"]
    assert card.locator(".volley-card__loaded").inner_text() == str(loaded)
    assert card.locator(".volley-card__log li").count() >= 1

    # The token's flags now hold the absolute values from the result.
    page.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded === {loaded}")
    weapon = page.evaluate(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon")
    assert weapon["jammed"] is result["weapon"]["jammed"]
    assert weapon.get("malfunction") == result["weapon"]["malfunction"]  # null is written as absent
    assert page.locator(f'[data-token-id="{SHOOTER}"] .loaded').inner_text() == str(loaded)

    # The bridge journalled the attack under the module's request id.
    request_id = page.evaluate("harness.chat[0].flags.volley.requestId")
    journals = [path for path in (table.bridge.data_dir / "sessions").glob("*") if path.is_file()]
    assert journals, "the bridge wrote no session journal"
    assert any(request_id in path.read_text(encoding="utf-8") for path in journals)

    # Reload from the same dialog: a second card, and the magazine is full again.
    dialog = open_dialog(page)
    assert dialog.locator('input[name="weapon.loaded"]').input_value() == str(loaded)
    dialog.locator('button[data-action="reload"]').click()
    page.wait_for_function("harness.chat.length === 2")
    page.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded === 30")
    assert (
        page.locator("#chat-log .volley-card .volley-card__title").first.inner_text()
        == "Sgt. Hale: reload (MP5)"
    )

    shot = tmp_path / "volley-module.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert table.pages.errors == []


def test_referee_clears_a_jam(table: Table) -> None:
    page = open_harness(table)
    wait_connected(page)
    # An earlier burst left the MP5 with a stoppage, recorded on the token.
    page.evaluate(
        f"Object.assign(canvas.scene.tokens.get('{SHOOTER}').flags.volley, {{armoury: 12}});"
        f"Object.assign(canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon,"
        " {loaded: 29, jammed: true, malfunction: 'stoppage'})"
    )
    dialog = open_dialog(page, wait_for_odds=False)
    assert dialog.locator(".volley-dialog__malfunction").inner_text() == "stoppage"
    assert dialog.locator('input[name="unjam.skill"]').input_value() == "12"
    # Firing a jammed weapon is refused by the rules, and the preview says why.
    page.wait_for_function("document.querySelector('.volley-dialog__status').textContent.includes('jammed')")
    dialog.locator('button[data-action="unjam"]').click()
    card = page.locator("#chat-log .volley-card")
    card.wait_for()
    assert card.locator(".volley-card__title").inner_text() == "Sgt. Hale: unjam (MP5)"
    result = page.evaluate("harness.chat[0].flags.volley.result")
    assert result["action"] == "unjam"
    jammed = "true" if result["weapon"]["jammed"] else "false"
    page.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.jammed === {jammed}")
    assert page.evaluate(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded") == 29
    assert table.pages.errors == []


def test_player_fires_through_the_referee(table: Table) -> None:
    referee = open_harness(table)
    wait_connected(referee)
    player = open_harness(table, player=True)
    assert player.evaluate(CONNECTION_STATE) is None, "a player's browser never connects to the bridge"

    # The player's preview and attack travel over the module socket to the referee's browser.
    dialog = open_dialog(player)
    five_shots = set_shots(player, dialog, 5)
    assert 0 < five_shots <= 5
    dialog.locator('button[data-action="fire"]').click()

    card = referee.locator("#chat-log .volley-card")
    card.wait_for()
    message = referee.evaluate("harness.chat[0]")
    assert message["author"] == PLAYER
    assert message["speaker"]["alias"] == "Sgt. Hale"
    loaded = referee.evaluate("harness.chat[0].flags.volley.result.weapon.loaded")
    assert loaded in (25, 29, 30)  # five rounds, or one or none if the roll malfunctioned
    referee.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded === {loaded}")
    assert card.locator(".volley-card__loaded").inner_text() == str(loaded)
    kinds = player.evaluate("game.socket.emitted.map((m) => m.data.kind)")
    assert "volley.request" in kinds
    assert player.locator(".notification.error").count() == 0
    assert table.pages.errors == []


def test_connection_follows_the_gm_election(table: Table) -> None:
    page = open_harness(table)
    wait_connected(page)
    # A GM with a lower user id logs in: this browser hands the bridge over.
    page.evaluate(
        "harness.users.push({id: 'gA00000000000000', name: 'Early GM', isGM: true, active: true});"
        "Hooks.callAll('userConnected', harness.users.at(-1), true)"
    )
    page.wait_for_function(f"{CONNECTION_STATE} === null")
    # That GM leaves again: this browser is elected once more and reconnects.
    page.evaluate(
        "harness.users.at(-1).active = false; Hooks.callAll('userConnected', harness.users.at(-1), false)"
    )
    wait_connected(page)
    assert table.pages.errors == []


def test_wrong_token_is_reported_not_retried(table: Table) -> None:
    page = open_harness(table, token="not-the-token")
    page.wait_for_function(f"{CONNECTION_STATE} === 'refused'")
    error = page.locator(".notification.error").first.inner_text()
    assert error.startswith("Volley: the bridge refused the access token")
    page.wait_for_timeout(1500)  # longer than the first reconnect delay: still refused, no retry
    assert page.evaluate(CONNECTION_STATE) == "refused"
    assert page.locator(".notification.error").count() == 1


def test_attack_waits_for_a_restarted_bridge(table: Table) -> None:
    page = open_harness(table)
    wait_connected(page)
    dialog = open_dialog(page)
    set_shots(page, dialog, 4)
    # The bridge goes away while the dialog is open; the module keeps trying to reconnect.
    table.bridge.stop()
    page.wait_for_function(f"{CONNECTION_STATE} === 'waiting'")
    assert page.locator(".notification.warn").first.inner_text().startswith("Volley: bridge unreachable")
    dialog.locator('button[data-action="fire"]').click()  # waits in the connection's queue
    table.bridge.start()
    # After the next backoff step the module reconnects, says hello again and sends the queued attack.
    card = page.locator("#chat-log .volley-card")
    card.wait_for(timeout=20_000)
    loaded = page.evaluate("harness.chat[0].flags.volley.result.weapon.loaded")
    assert loaded in (26, 29, 30)  # four rounds, or one or none if the roll malfunctioned
    page.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded === {loaded}")
    assert page.evaluate(CONNECTION_STATE) == "ready"
    assert table.pages.errors == []
