"""The Foundry module end to end, in headless Chromium, against a real ``volley serve``.

A referee opens the Token HUD on Sgt. Hale (MP5: RoF 13, Rcl 2, 30 rounds, skill 14) with two targeted
raiders, opens the attack dialog, watches the odds preview follow the shots box, fires three rounds at
the first raider and gets a chat card whose hits match the bridge's result, with the rounds left
written to the token's ``flags.volley``. The page around the module is a harness (fake Foundry
globals); the module, its templates, the bridge and the rules are the real ones.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import Bridge

SHOOTER = "tokHale000000001"
RAIDER = "tokRaider0000002"


def open_harness(page: Any, site: str, bridge: Bridge, token: str | None = None) -> None:
    query = f"bridge={bridge.url}&token={token if token is not None else bridge.token}"
    page.goto(f"{site}/harness/index.html?{query}")
    page.wait_for_function("window.harness && (window.harness.ready || window.harness.bootError)")
    assert page.evaluate("window.harness.bootError ?? null") is None
    assert page.errors == []


def expected_hits(page: Any, row: int) -> str:
    cell = page.locator("tr.volley-dialog__target").nth(row).locator(".volley-dialog__expected")
    text: str = cell.inner_text()
    return text


def test_fire_from_the_token_hud(page_and_bridge: tuple[Any, str, Bridge], tmp_path: Path) -> None:
    page, site, bridge = page_and_bridge
    open_harness(page, site, bridge)
    page.wait_for_function("game.modules.get('volley').api.connection()?.state === 'ready'")
    assert page.locator(".notification.info").first.inner_text() == "Volley: connected to the bridge."

    # Token HUD (v13 render hook with an HTMLElement) -> the module's Fire button -> the dialog.
    page.locator(f'[data-token-id="{SHOOTER}"]').click()
    page.locator("#token-hud .col.right .volley-fire").click()
    dialog = page.locator("dialog.volley-attack-dialog")
    dialog.wait_for()
    assert dialog.locator("h2").inner_text() == "Volley: Sgt. Hale fires"
    rows = dialog.locator("tr.volley-dialog__target")
    assert rows.count() == 2
    # The second target's name is escaped by the template, not rendered as markup.
    assert rows.nth(1).locator("td").first.inner_text() == "Lookout <b>2</b>"

    # Live preview: all 13 shots at the first raider, then only 3 of them.
    page.wait_for_function("document.querySelector('.volley-dialog__expected').textContent !== '—'")
    full_burst = float(expected_hits(page, 0))
    assert expected_hits(page, 1) == "—"  # no shots at the lookout: no odds asked for
    jam_text = dialog.locator(".volley-dialog__jam").inner_text()
    assert jam_text.endswith("%")
    dialog.locator('input[name="targets.0.shots"]').fill("3")
    page.wait_for_function(
        "(before) => document.querySelector('.volley-dialog__expected').textContent !== before",
        arg=expected_hits(page, 0),
    )
    three_shots = float(expected_hits(page, 0))
    assert 0 < three_shots < full_burst <= 13
    page.screenshot(path=str(tmp_path / "volley-dialog.png"))
    # An impossible form shows why instead of odds.
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
    assert result["weapon"]["loaded"] == 27
    assert card.locator(".volley-card__title").inner_text() == "Sgt. Hale fires MP5"
    row = card.locator(f'tr[data-target="{RAIDER}"]')
    assert row.locator(".volley-card__name").inner_text() == "Raider"
    assert int(row.locator(".volley-card__hits").inner_text()) == raider["hits"]
    assert card.locator(".volley-card__loaded").inner_text() == "27"
    assert card.locator(".volley-card__log li").count() >= 1

    # The token's flags now hold the absolute values from the result.
    page.wait_for_function(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon.loaded === 27")
    weapon = page.evaluate(f"canvas.scene.tokens.get('{SHOOTER}').flags.volley.weapon")
    assert weapon["loaded"] == 27
    assert weapon["jammed"] is result["weapon"]["jammed"]
    assert page.locator(f'[data-token-id="{SHOOTER}"] .loaded').inner_text() == "27"

    # The bridge journalled the attack under the module's request id.
    request_id = page.evaluate("harness.chat[0].flags.volley.requestId")
    journals = list((bridge.data_dir / "sessions").glob("*"))
    assert journals, "the bridge wrote no session journal"
    assert any(request_id in path.read_text(encoding="utf-8") for path in journals if path.is_file())

    shot = tmp_path / "volley-module.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    assert page.errors == []


def test_wrong_token_is_reported_not_retried(page_and_bridge: tuple[Any, str, Bridge]) -> None:
    page, site, bridge = page_and_bridge
    open_harness(page, site, bridge, token="not-the-token")
    page.wait_for_function("game.modules.get('volley').api.connection()?.state === 'refused'")
    error = page.locator(".notification.error").first.inner_text()
    assert error.startswith("Volley: the bridge refused the access token")
    status = json.loads(page.evaluate("JSON.stringify(game.modules.get('volley').api.connection().state)"))
    assert status == "refused"
