"""The module API, its hooks and the hotbar, end to end on ``volley sandbox``'s page.

A macro is a script calling ``game.modules.get('volley').api``: the tests run exactly such scripts in
the page. In each system a shot fired from the dialog is undone through ``api.undo`` and fired again
through ``api.fire`` with the dialog's dice scripted: the bridge must get the same request and the
card must show the same rolls and hits, so the API goes the dialog's way (the same choice, the
same relay, the same checks, the same card). A ``volley.preAttack`` handler that returns false stops
the shot (the API's and the dialog's) with its reason, and nothing reaches the bridge's journal;
``volley.attackResolved`` and ``volley.undone`` see what happened. A weapon dragged from the dialog
or the profile editor onto the hotbar becomes a macro that opens the dialog with that weapon.
"""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
from browserkit import (
    BUDGET_S,
    FIRE,
    MP5,
    SHOOTER,
    Table,
    cards,
    chat_flags,
    fire_first,
    open_attack_dialog,
    open_dialog,
    player_view,
    sent_with_id,
    wait_for_chart,
)

API = "game.modules.get('volley').api"
README = Path(__file__).resolve().parents[2] / "vtt_module" / "README.md"

#: Per system: the shooter (its button's name and token id), a target on the chart, and the dialog's
#: mode to fire in (None: as it opens). MegaTraveller's autorifle opens on automatic fire, a two-step
#: attack; burst fire resolves at once.
SYSTEMS = {
    "gurps": ("Sgt. Hale", "tokHale000000001", "Raider", None),
    "megatraveller": ("Kira Rhyne", "tokKira000000001", "Vargr raider", "burst"),
    "d100": ("Vex", "tokVex0000000001", "Heretic", None),
}


def api_call(page: Any, script: str) -> Any:
    """Run ``script`` (the body of an async function with ``api`` in scope) as a macro would; return
    ``{ok, value}`` or ``{ok: false, error, code}`` for a rejection."""
    return page.evaluate(
        f"""async () => {{
          const api = {API};
          try {{
            const value = await (async () => {{ {script} }})();
            return {{ ok: true, value }};
          }} catch (error) {{
            return {{ ok: false, error: String(error?.message ?? error), code: error?.code ?? null,
                      name: error?.name ?? null }};
          }}
        }}"""
    )


def resolved_count(table: Table) -> int:
    """How many requests the bridge has resolved and journalled (its /healthz)."""
    with urllib.request.urlopen(table.sandbox.origin + "/healthz", timeout=BUDGET_S) as response:
        count: int = json.loads(response.read())["resolved"]
        return count


def faces_of(result: dict[str, Any]) -> list[int]:
    return [roll["face"] for roll in result["rolls"]]


def hits_of(result: dict[str, Any]) -> dict[str, int]:
    return {target["id"]: target["hits"] for target in result["targets"]}


def without(request: dict[str, Any], *keys: str) -> dict[str, Any]:
    return {key: value for key, value in request.items() if key not in keys}


@pytest.mark.parametrize("system", list(SYSTEMS))
@pytest.mark.foundry(13, 14)
def test_a_macro_fires_as_the_dialog_does_in_each_system(table: Table, system: str) -> None:
    shooter, token_id, target, mode = SYSTEMS[system]
    page, sent = table.watched(scene=system)
    assert page.evaluate(f"{API}.version") == "1.0.0"

    # The dialog's shot, with the dice the bridge rolled.
    dialog = open_attack_dialog(page, shooter, chart=target)
    if mode:
        dialog.get_by_role("combobox", name="Mode", exact=True).select_option(mode)
        page.wait_for_function(
            "!document.querySelector('.volley-attack__preview--stale')"
            " && document.querySelector('.volley-chart[role=img]') !== null"
        )
    by_dialog = fire_first(page, dialog)
    dialog.get_by_role("button", name="Close").click()
    first_request = sent_with_id(sent, by_dialog["requestId"])
    faces = faces_of(by_dialog["result"])
    assert faces, "the dialog's shot rolled no dice"

    # Undone from a macro: the card is marked, the values go back.
    first_id = page.evaluate("game.messages.contents.at(-1).id")
    undone = api_call(page, f"return (await api.undo({json.dumps(first_id)})).type;")
    assert undone == {"ok": True, "value": "undone"}, undone
    page.wait_for_function("game.messages.contents.at(-1).flags.volley.undone != null")

    # The same shot from a macro, the same dice scripted: the same request, the same rolls and hits.
    page.get_by_label("Next roll's dice").fill(" ".join(str(face) for face in faces))
    fired = api_call(
        page,
        f"""const shot = await api.fire(canvas.scene.tokens.get({json.dumps(token_id)}),
                                         {json.dumps({"mode": mode} if mode else {})});
            return {{id: shot.id, type: shot.type, result: shot.result, messageId: shot.message?.id ?? null,
                     requestId: shot.message?.flags?.volley?.requestId ?? null}};""",
    )
    assert fired["ok"], fired
    shot = fired["value"]
    # The card is kept under the bridge's key: the requesting user and the macro's id (#17).
    assert shot["type"] == "result" and shot["requestId"] == f"gm0000000000000a.{shot['id']}"
    assert faces_of(shot["result"]) == faces
    assert hits_of(shot["result"]) == hits_of(by_dialog["result"])
    second_request = sent_with_id(sent, shot["id"])
    assert without(second_request["request"], "dice") == without(first_request["request"], "dice")
    assert second_request["type"] == first_request["type"] and second_request["user"] == first_request["user"]

    # Its card is in the log like the dialog's, with the same hits on it.
    assert cards(page).count() == 2
    assert chat_flags(page)["requestId"] == shot["requestId"]
    assert page.evaluate("game.messages.contents.at(-1).id") == shot["messageId"]
    assert hits_of(chat_flags(page)["result"]) == hits_of(by_dialog["result"])
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_a_players_macro_goes_through_the_referee(table: Table) -> None:
    page, sent = table.watched()
    player = player_view(page).page
    fired = api_call(
        player,
        """const shot = await api.fire('tokHale000000001', {weapon: 'Glock 17', shots: 2, modifier: -2});
           return {id: shot.id, loaded: shot.result.weapon.loaded};""",
    )
    assert fired["ok"], fired
    attack = sent_with_id(sent, fired["value"]["id"])
    # Built on the referee's page from the profile: the Glock's skill 13, the macro's -2, two shots.
    assert attack["user"] == "pl0000000000000b"
    assert attack["request"]["attacker"]["skill"] == 11 and attack["request"]["shots"] == 2
    assert attack["request"]["weapon"]["name"] == "Glock 17"
    cards(page).first.wait_for()
    glock = "canvas.scene.tokens.get('tokHale000000001').actor.flags.volley.profile.weapons[2]"
    page.wait_for_function(f"{glock}.state.loaded === {fired['value']['loaded']}")

    # A player may not undo, and a token the player does not own is refused before anything is sent.
    assert api_call(player, "return await api.undo(game.messages.contents.at(-1).id);")["code"] == "not_gm"
    refused = api_call(player, "return await api.fire('tokRaider0000002');")
    assert refused["code"] == "not_owner" and refused["name"] == "VolleyApiError"
    assert table.pages.errors == []


def test_refusals_reject_in_the_users_language_and_nothing_is_sent(table: Table) -> None:
    page, sent = table.watched(lang="ru")
    before = len(sent)
    over = api_call(page, "return await api.fire('tokHale000000001', {shots: 40});")
    assert over["ok"] is False
    assert "40" in over["error"] and any("а" <= ch <= "я" for ch in over["error"]), over
    unknown = api_call(page, "return await api.fire('tokHale000000001', {weapon: 'Bazooka'});")
    assert unknown["code"] == "no_weapon" and "MP5" in unknown["error"]
    no_field = api_call(page, "return await api.fire('tokHale000000001', {mode: 'auto'});")
    assert no_field["code"] == "bad_option" and "mode" in no_field["error"]
    assert not [frame for frame in sent[before:] if frame.get("type") == "attack"]
    assert table.pages.errors == []


def test_odds_are_the_dialogs_preview_for_the_same_form(table: Table) -> None:
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    was = dialog.get_by_role("img", name="Raider").get_attribute("aria-label")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("3")
    dialog.get_by_role("spinbutton", name="Modifier against Raider").fill("-2")
    page.wait_for_function(
        "(was) => document.querySelector('.volley-chart[role=img]')?.getAttribute('aria-label') !== was"
        " && !document.querySelector('.volley-attack__preview--stale')",
        arg=was,
    )
    charted = page.evaluate(
        """async () => {
          const { AttackDialog } = await import('/modules/volley/scripts/systems/common/attack-dialog.js');
          return [...AttackDialog.openDialogs][0].oddsPanel.odds;
        }"""
    )
    odds = api_call(
        page,
        "return await api.odds('tokHale000000001', {targets: ["
        "{token: 'tokRaider0000002', shots: 3, modifier: -2}, 'tokLookout000003', 'tokSentry0000004']});",
    )
    assert odds["ok"], odds
    assert odds["value"] == charted
    raider = odds["value"]["targets"][0]
    assert len(raider["hits"]) == 4 and abs(sum(raider["hits"]) - 1) < 1e-9
    assert table.pages.errors == []


def test_pre_attack_can_cancel_with_a_reason_and_nothing_is_journalled(table: Table) -> None:
    page, sent = table.watched()
    page.evaluate(
        """() => {
          window.seen = [];
          window.vetoId = Hooks.on('volley.preAttack', (attack) => {
            window.seen.push({system: attack.system, source: attack.source, weapon: attack.weapon});
            return attack.cancel('No line of sight to the Raider');
          });
        }"""
    )
    journalled = resolved_count(table)
    refused = api_call(page, "return await api.fire('tokHale000000001');")
    assert refused == {
        "ok": False,
        "error": "No line of sight to the Raider",
        "code": "cancelled",
        "name": "VolleyApiError",
    }
    # The user is told, and the dialog's Fire is stopped the same way, its reason in the footer.
    page.locator("#notifications").get_by_text("No line of sight to the Raider").first.wait_for()
    dialog = open_attack_dialog(page, chart="Raider")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    dialog.locator(".volley-attack__notice").get_by_text("No line of sight to the Raider").wait_for()
    assert page.evaluate("window.seen") == [
        {"system": "gurps", "source": "api", "weapon": "wMp5000001"},
        {"system": "gurps", "source": "dialog", "weapon": "wMp5000001"},
    ]
    assert cards(page).count() == 0
    assert not [frame for frame in sent if frame.get("type") == "attack"]
    assert resolved_count(table) == journalled
    assert page.evaluate(f"{MP5}.state.loaded") == 30

    # A handler that adjusts instead: the situational modifier it sets is what the referee builds on.
    page.evaluate(
        """() => {
          Hooks.off('volley.preAttack', window.vetoId);
          Hooks.on('volley.preAttack', (attack) => {
            attack.choice.modifier = (attack.choice.modifier ?? 0) - 4;
          });
        }"""
    )
    fired = api_call(page, "return (await api.fire('tokHale000000001', {shots: 1})).id;")
    assert fired["ok"], fired
    assert sent_with_id(sent, fired["value"])["request"]["attacker"]["skill"] == 14 - 4
    assert table.pages.errors == []


def test_attack_resolved_and_undone_see_what_happened(table: Table) -> None:
    page = table.ready()
    page.evaluate(
        """() => {
          window.heard = [];
          Hooks.on('volley.attackResolved', (r) => window.heard.push({hook: 'resolved', type: r.type,
            system: r.system, hits: r.result.targets.map((t) => t.hits), loaded: r.result.weapon.loaded,
            messageId: r.message?.id ?? null, token: r.token?.id, weapon: r.weapon, user: r.userId,
            requestId: r.request.id, shots: r.request.request.shots, updates: r.updates.length,
            before: r.before.length}));
          Hooks.on('volley.undone', (u) => window.heard.push({hook: 'undone', messageId: u.message.id,
            requestId: u.requestId, token: u.token, user: u.userId}));
        }"""
    )
    fired = api_call(
        page,
        "const s = await api.fire('tokHale000000001', {shots: 4}); return {id: s.id, messageId: s.message.id,"
        " hits: s.result.targets.map((t) => t.hits), loaded: s.result.weapon.loaded};",
    )
    assert fired["ok"], fired
    shot = fired["value"]
    page.wait_for_function("window.heard.length === 1")
    heard = page.evaluate("window.heard[0]")
    assert heard == {
        "hook": "resolved",
        "type": "attack",
        "system": "gurps",
        "hits": shot["hits"],
        "loaded": shot["loaded"],
        "messageId": shot["messageId"],
        "token": "tokHale000000001",
        "weapon": "wMp5000001",
        "user": "gm0000000000000a",
        "requestId": f"gm0000000000000a.{shot['id']}",
        "shots": 4,
        "updates": heard["updates"],
        "before": heard["before"],
    }
    assert heard["updates"] >= 1 and heard["before"] >= 1
    assert (
        api_call(page, f"return (await api.undo({json.dumps(shot['messageId'])})).type;")["value"] == "undone"
    )
    page.wait_for_function("window.heard.length === 2")
    assert page.evaluate("window.heard[1]") == {
        "hook": "undone",
        "messageId": shot["messageId"],
        "requestId": f"gm0000000000000a.{shot['id']}",
        "token": "tokHale000000001",
        "user": "gm0000000000000a",
    }
    page.wait_for_function(f"{MP5}.state.loaded === 30")
    assert table.pages.errors == []


def test_a_weapon_dragged_to_the_hotbar_opens_the_dialog_with_it(table: Table) -> None:
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    dialog.get_by_role("combobox", name="Weapon", exact=True).select_option(label="Glock 17 (17/17)")
    wait_for_chart(dialog, "Raider")
    hotbar = page.get_by_role("navigation", name="Hotbar")
    dialog.get_by_role("button", name="Add to the hotbar").drag_to(
        hotbar.get_by_role("button", name="Slot 3: empty")
    )
    slot = hotbar.get_by_role("button", name=f"Slot 3: {SHOOTER}: Glock 17")
    slot.wait_for()
    macro = page.evaluate(
        "(() => { const m = game.macros.get(game.user.hotbar[3]);"
        " return {type: m.type, name: m.name, flags: m.flags.volley}; })()"
    )
    assert macro == {
        "type": "script",
        "name": f"{SHOOTER}: Glock 17",
        "flags": {
            "weapon": {
                "tokenId": "tokHale000000001",
                "actorId": macro["flags"]["weapon"]["actorId"],
                "weaponId": "wGlock0001",
            }
        },
    }
    dialog.get_by_role("button", name="Close").click()
    page.get_by_role("dialog").wait_for(state="detached")

    # The macro opens the dialog for that token with that weapon chosen.
    slot.click()
    reopened = open_dialog(page)
    reopened.wait_for()
    assert reopened.get_attribute("aria-label") == f"Volley: {SHOOTER} fires"
    picked = reopened.get_by_role("combobox", name="Weapon", exact=True)
    assert picked.evaluate("(select) => select.selectedOptions[0].textContent") == "Glock 17 (17/17)"
    wait_for_chart(reopened, "Raider")
    table.shots.take(page.locator("#hotbar"), "hotbar-weapon-macro-en")
    reopened.get_by_role("button", name="Close").click()

    # From the profile editor too: the MP5's button, clicked, takes the first free slot.
    page.get_by_role("button", name=SHOOTER, exact=True).click()
    page.locator("#token-hud").get_by_role("button", name="Volley weapons").click()
    editor = open_dialog(page)
    editor.locator('fieldset[data-weapon="wMp5000001"]').get_by_role(
        "button", name="Add to the hotbar"
    ).click()
    hotbar.get_by_role("button", name=f"Slot 1: {SHOOTER}: MP5").wait_for()
    assert table.pages.errors == []


def readme_macro(name: str) -> str:
    """A macro exactly as ``vtt_module/README.md`` prints it (the ```js block after its marker)."""
    text = README.read_text(encoding="utf-8")
    start = text.index(f"<!-- volley-macro: {name} -->")
    body = text[text.index("```js\n", start) + len("```js\n") :]
    return body[: body.index("```")]


def run_macro(page: Any, command: str) -> None:
    """Run a script macro as Foundry does: an async function body (``return`` allowed), awaited."""
    page.evaluate(
        """async (command) => {
          const macro = await Macro.create({name: 'README macro', type: 'script', command});
          await macro.execute();
        }""",
        command,
    )


def test_the_readme_burst_macro_fires_at_the_targeted_tokens(table: Table) -> None:
    page, sent = table.watched(scene="megatraveller")
    page.get_by_role("button", name="Kira Rhyne", exact=True).click()
    run_macro(page, readme_macro("burst"))
    cards(page).first.wait_for()
    flags = chat_flags(page)
    request = sent_with_id(sent, flags["requestId"])["request"]
    assert request["mode"] == "burst" and request["allocation"] == [2, 1, 1]
    page.locator("#notifications").get_by_text("Kira Rhyne — Vargr raider:").first.wait_for()

    page.get_by_role("combobox", name="Scene").select_option("gurps")
    page.get_by_role("button", name=SHOOTER, exact=True).click()
    run_macro(page, readme_macro("burst"))
    cards(page).nth(1).wait_for()
    shots = sent_with_id(sent, chat_flags(page)["requestId"])["request"]
    assert [target["shots"] for target in shots["targets"]] == [3, 3, 3]

    page.get_by_role("combobox", name="Scene").select_option("d100")
    page.get_by_role("button", name="Vex", exact=True).click()
    run_macro(page, readme_macro("burst"))
    cards(page).nth(2).wait_for()
    burst = sent_with_id(sent, chat_flags(page)["requestId"])["request"]
    assert burst["mode"] == "short_burst", burst
    assert table.pages.errors == []


def test_the_readme_reload_macro_reloads_every_selected_token(table: Table) -> None:
    page = table.ready()
    assert api_call(page, "return (await api.fire('tokHale000000001', {shots: 5})).type;")["ok"]
    page.wait_for_function(f"{MP5}.state.loaded < 30")
    page.get_by_role("button", name=SHOOTER, exact=True).click()
    page.get_by_role("button", name="Raider", exact=True).click(modifiers=["Shift"])
    run_macro(page, readme_macro("reload"))
    page.wait_for_function(f"{MP5}.state.loaded === 30")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Sgt. Hale: Reload (MP5)"
    # The Raider has no Volley weapon: said by name, and the macro went on.
    page.locator("#notifications").get_by_text("Raider:").first.wait_for()
    assert table.pages.errors == []


def test_the_readme_suppression_macro_tests_the_selected_tokens(table: Table) -> None:
    page, sent = table.watched(scene="d100")
    page.get_by_role("button", name="Vex", exact=True).click()
    run_macro(page, readme_macro("suppression"))
    cards(page).first.wait_for()
    test = sent_with_id(sent, chat_flags(page)["requestId"])
    assert test["type"] == "action" and test["request"]["action"] == "suppression_test"
    assert table.pages.errors == []


SETTINGS_PAGE = """(version) => {
  game.modules.get('volley').version = version;
  document.querySelector('#fake-settings')?.remove();
  const page = document.createElement('section');
  page.id = 'fake-settings';
  page.innerHTML = '<div class="form-group"><label>Bridge address</label>'
    + '<input name="volley.bridgeUrl" value="ws://127.0.0.1:8765/ws"></div>';
  document.body.append(page);
  Hooks.callAll('renderSettingsConfig', {}, page);
  return [...page.querySelectorAll('.volley-versions p')].map((p) => [p.textContent, p.getAttribute('role')]);
}"""


def test_the_settings_page_shows_both_versions_and_one_line_when_they_differ(table: Table) -> None:
    """Foundry v13's settings page (a stand-in form with the bridge address field, as Foundry's own
    ``renderSettingsConfig`` hands it over): the referee's browser knows the bridge's version."""
    page = table.ready()
    bridge = page.evaluate(f"{API}.connection().welcome.server_version")
    same = page.evaluate(SETTINGS_PAGE, bridge)
    assert same == [[f"Volley module {bridge} · bridge {bridge}", None]]
    older = page.evaluate(SETTINGS_PAGE, "0.0.1")
    assert older[0] == [f"Volley module 0.0.1 · bridge {bridge}", None]
    assert older[1][1] == "alert" and older[1][0].startswith(
        f"The bridge ({bridge}) is newer than this module"
    )
    assert "Check for Updates" in older[1][0]
    newer = page.evaluate(SETTINGS_PAGE, "99.0.0")
    assert newer[1][0].startswith(f"This module (99.0.0) is newer than the bridge ({bridge})")
    # A player's browser does not hold the bridge: it says where the bridge's version is shown.
    player = player_view(page).page
    lines = player.evaluate(SETTINGS_PAGE, bridge)
    assert lines[0][0] == f"Volley module {bridge} · bridge —"
    assert lines[1][0] == "The bridge's version is shown in the browser that holds the bridge connection."
    assert table.pages.errors == []


def test_open_attack_dialog_comes_pre_filled(table: Table) -> None:
    page = table.ready()
    opened = api_call(
        page,
        "const d = await api.openAttackDialog('tokHale000000001',"
        " {weapon: 'remington 870', targets: ['tokLookout000003'], shots: 2, modifier: 1});"
        " return d?.id ?? null;",
    )
    assert opened["ok"] and opened["value"], opened
    dialog = open_dialog(page)
    wait_for_chart(dialog, "Lookout")
    weapon = dialog.get_by_role("combobox", name="Weapon", exact=True)
    assert weapon.evaluate("(select) => select.selectedOptions[0].textContent") == "Remington 870 (5/5)"
    assert dialog.get_by_role("spinbutton", name="Shots at Lookout").input_value() == "2"
    assert dialog.get_by_role("spinbutton", name="Shots at Raider").count() == 0, "only the targets named"
    assert dialog.locator('input[name="modifier"]').input_value() == "1"
    # Fire from it: the card is the Remington's, at the Lookout.
    flags = fire_first(page, dialog)
    assert [target["id"] for target in flags["result"]["targets"]] == ["tokLookout000003"]
    assert table.pages.errors == []


@pytest.mark.parametrize("system", ["gurps", "megatraveller", "d100"])
def test_a_macro_fills_the_choice_model_and_renders_no_dialog(table: Table, system: str) -> None:
    """#37: the API read its choice from a hidden attack dialog it rendered. Now it fills the system's
    choice model (systems/<id>/choice.js): with every attack dialog's render refused, odds, a refusal
    and a shot still go as before, and no window is drawn."""
    _, token, _, mode = SYSTEMS[system]
    page, sent = table.watched(scene=system)
    page.evaluate(
        """async () => {
          const { AttackDialog } = await import('/modules/volley/scripts/systems/common/attack-dialog.js');
          window.dialogRenders = 0;
          window.keptRender = AttackDialog.prototype.render;
          AttackDialog.prototype.render = function () {
            window.dialogRenders += 1;
            throw new Error('an attack dialog was rendered');
          };
        }"""
    )
    try:
        if system == "gurps":
            odds = api_call(page, f"return await api.odds('{token}', {{shots: 3}});")
            assert odds["ok"], odds
            assert len(odds["value"]["targets"][0]["hits"]) == 4
            over = api_call(page, f"return await api.fire('{token}', {{shots: 40}});")
            assert over == {
                "ok": False,
                "error": "Shots 40 / RoF 13: 27 too many, the weapon fires at most 13 a turn",
                "code": "blocked",
                "name": "VolleyApiError",
            }, over
            fired = api_call(page, f"return (await api.fire('{token}', {{shots: 2}})).id;")
            assert fired["ok"], fired
            assert sent_with_id(sent, fired["value"])["request"]["shots"] == 2
        elif system == "d100":
            odds = api_call(page, f"return await api.odds('{token}', {{mode: 'long_burst'}});")
            assert odds["ok"], odds
            assert [target["id"] for target in odds["value"]["targets"]][:1] == ["tokHeretic0000002"]
            # Suppressing fire with no Facing, and a morale test for nobody listed: refused by the label.
            unaimed = api_call(page, f"return await api.fire('{token}', {{mode: 'suppressing_full'}});")
            assert unaimed["ok"] is False and unaimed["code"] == "form", unaimed
            assert unaimed["error"] == "Facing (°, 0 = east, clockwise): required", unaimed
            nobody = api_call(
                page,
                f"return await api.fire('{token}', {{action: 'suppression_test', targets: [],"
                " fields: {who: 'targets'}});",
            )
            assert nobody["ok"] is False and nobody["code"] == "form", nobody
            assert nobody["error"] == "For: nobody listed: target a token (T over it), or choose this token"
            fired = api_call(
                page,
                f"return (await api.fire('{token}', {{mode: 'suppressing_full',"
                " fields: {facing: 352}})).id;",
            )
            assert fired["ok"], fired
            request = sent_with_id(sent, fired["value"])["request"]
            assert request["mode"] == "suppressing" and request["rate"] == "full", request
            # The sector's tokens, nearest first, as the dialog lists them; the demagogue is outside it.
            assert [target["id"] for target in request["targets"]] == [
                "tokCultist0000003",
                "tokHeretic0000002",
            ], request
        else:
            odds = api_call(page, f"return await api.odds('{token}', {{mode: '{mode}'}});")
            assert odds["ok"], odds
            wrong = api_call(page, f"return await api.fire('{token}', {{mode: 'rapid'}});")
            assert wrong["ok"] is False and wrong["code"] == "bad_option" and "rapid" in wrong["error"], wrong
            fired = api_call(page, f"return (await api.fire('{token}', {{mode: '{mode}'}})).id;")
            assert fired["ok"], fired
            assert sent_with_id(sent, fired["value"])["request"]["mode"] == mode
        assert page.evaluate("window.dialogRenders") == 0
        assert page.locator(".volley-attack-dialog").count() == 0
    finally:
        page.evaluate(
            """async () => {
              const url = '/modules/volley/scripts/systems/common/attack-dialog.js';
              const { AttackDialog } = await import(url);
              AttackDialog.prototype.render = window.keptRender;
            }"""
        )
    assert table.pages.errors == []
