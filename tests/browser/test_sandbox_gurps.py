"""The module end to end on ``volley sandbox``'s page, GURPS: a real bridge, the real module, Chromium.

A referee opens the Token HUD on Sgt. Hale (MP5: RoF 13, Rcl 2, 30 rounds, skill 14) with three
targeted raiders, watches the odds chart follow the shots box, fires, and gets a card whose hits match
the bridge's result, with the rounds written back to the MP5 and nowhere else. A scripted 18 jams the
MP5: Fire refuses, Unjam clears it. Undo puts everything back, even after a reload. The bridge goes
away and comes back with the dialog saying so, and a player fires through the referee's page.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from browserkit import (
    CONNECTION_STATE,
    FIRE,
    MODULE_REQUEST_TIMEOUT_S,
    MP5,
    SCENE,
    SHOOTER,
    WEAPON,
    Table,
    cards,
    chat_flags,
    enter_fires_nothing,
    fire_first,
    hits_of,
    message_of,
    ms,
    open_attack_dialog,
    open_dialog,
    player_view,
    reload_kept,
    sent_with_id,
    set_message_mode,
    wait_connected,
    wait_for_chart,
    wait_state,
)

#: To-hit 18 (at or above Malf 17), then 3+3+4 = 10 on the malfunction table: a stoppage (B407).
JAM_DICE = "6 6 6 3 3 4"
#: Armoury 12 +2 against a stoppage, rolled 1+2+2 = 5: cleared.
UNJAM_DICE = "1 2 2"


def hud_fire(page: Any) -> Any:
    page.get_by_role("button", name=SHOOTER, exact=True).click()
    return page.locator("#token-hud").get_by_role("button", name=FIRE, exact=True)


def test_referee_fires_from_the_token_hud(table: Table) -> None:
    page, sent = table.watched()
    dialog = open_attack_dialog(page)
    assert dialog.get_attribute("aria-label") == "Volley: Sgt. Hale fires"
    weapon = dialog.get_by_role("combobox", name=WEAPON, exact=True)
    assert weapon.locator("option").all_inner_texts() == [
        "MP5 (30/30)",
        "Remington 870 (5/5)",
        "Glock 17 (17/17)",
    ]
    assert dialog.get_by_role("combobox", name="Mode").count() == 0, "GURPS has no fire modes"

    # The odds chart: 13 shots at the Raider, then only 3; each chart's name says its bars in words.
    chart = wait_for_chart(dialog, "Raider")
    full = chart.get_attribute("aria-label")
    assert full.startswith("Raider: 0 hits") and "Expected hits" in full
    assert dialog.locator(".volley-attack__jam-value").inner_text().endswith("%")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("3")
    page.wait_for_function(
        "(was) => document.querySelector('.volley-chart[role=img]')?.getAttribute('aria-label') !== was",
        arg=full,
    )
    three = dialog.get_by_role("img", name="Raider").get_attribute("aria-label")
    assert "3 hits" in three and "4 hits" not in three, three
    table.shots.take(dialog, "gurps-dialog-en")

    # Enter in a number field does not fire.
    enter_fires_nothing(page, dialog.get_by_role("spinbutton", name="Shots at Raider"))

    flags = fire_first(page, dialog)
    result = flags["result"]
    raider = next(t for t in result["targets"] if t["name"] == "Raider")
    loaded, spent = result["weapon"]["loaded"], result["weapon"]["spent"]
    assert loaded == 30 - spent and (spent == 3 or result["weapon"]["jammed"])
    card = cards(page).first
    assert card.locator(".volley-card__title").inner_text() == "Sgt. Hale fires MP5"
    assert int(hits_of(card, "Raider")) == raider["hits"]
    assert card.locator(".volley-card__loaded").inner_text() == str(loaded)
    assert card.locator(".volley-card__capacity").inner_text().strip() == "/ 30"
    table.shots.take(message_of(card), "gurps-card-en")

    # The rounds went to the MP5, and only to it.
    page.wait_for_function(f"{MP5}.state.loaded === {loaded}")
    weapons = "canvas.scene.tokens.get('tokHale000000001').actor.flags.volley.profile.weapons"
    others = page.evaluate(f"{weapons}.slice(1).map(w => w.state.loaded)")
    assert others == [5, 17]
    # The request the bridge got was built from the profile: skill 14, the MP5's own numbers.
    attack = sent_with_id(sent, flags["requestId"])
    assert attack["type"] == "attack" and attack["user"] == "gm0000000000000a"
    request = attack["request"]
    assert request["attacker"]["skill"] == 14 and request["shots"] == 3
    assert request["weapon"] == {
        "name": "MP5",
        "loaded": 30,
        "malf": 17,
        "jammed": False,
        "capacity": 30,
        "rof": 13,
        "rcl": 2,
    }

    # The HUD's Fire control shows the rounds left, in its badge and its description.
    open_dialog(page).get_by_role("button", name="Close").click()
    fire = hud_fire(page)
    page.wait_for_function(f"document.querySelector('.volley-fire__rounds')?.dataset.rounds === '{loaded}'")
    assert fire.get_attribute("aria-description") == f"Fire MP5: {loaded} / 30 rounds"
    page.keyboard.press("Escape")
    open_attack_dialog(page).get_by_role("img", name="Raider").wait_for()
    table.shots.take(page, "sandbox-en")
    assert table.pages.errors == []


def test_a_jam_refuses_fire_until_unjammed(table: Table) -> None:
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    page.get_by_label("Next roll's dice").fill(JAM_DICE)
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"{MP5}.state.jammed === true")
    assert page.evaluate(f"{MP5}.state.malfunction") == "stoppage"
    assert page.evaluate("sandbox.diceSent.length") == 1

    # The token shows it, Fire refuses with the reason, and Unjam appears.
    token = page.get_by_role("button", name=SHOOTER, exact=True)
    page.wait_for_function("document.querySelector('.sandbox-chip--jammed') !== null")
    assert "Weapon jammed" in token.inner_text()
    dialog = open_dialog(page)
    fire = dialog.get_by_role("button", name=FIRE, exact=True)
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === true")
    assert fire.get_attribute("title") == "The weapon is jammed: clear it first"
    assert dialog.locator(".volley-attack__jammed").inner_text() == "Jammed: stoppage"
    assert (
        dialog.locator(".volley-attack__odds-status").inner_text() == "The weapon is jammed: clear it first"
    )
    table.shots.take(dialog, "gurps-dialog-jammed-en")
    card = cards(page).last
    assert card.locator(".volley-card__jammed").inner_text() == "JAMMED"
    assert "Malfunction: stoppage" in card.locator(".volley-card__extras").inner_text()
    table.shots.take(message_of(card), "gurps-card-jammed-en")

    # Unjam with Armoury 12 (+2 against a stoppage) and a scripted 5.
    assert dialog.get_by_role("combobox", name="Roll against").input_value() == "armoury"
    page.get_by_label("Next roll's dice").fill(UNJAM_DICE)
    dialog.get_by_role("button", name="Unjam", exact=True).click()
    page.wait_for_function(f"{MP5}.state.jammed === false")
    assert page.evaluate(f"{MP5}.state.malfunction ?? null") is None
    page.wait_for_function("document.querySelector('.sandbox-chip--jammed') === null")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Sgt. Hale: Unjam (MP5)"
    assert table.pages.errors == []


def test_shots_over_rof_hold_fire_with_one_reason_and_the_form_survives_a_jam(table: Table) -> None:
    """A running "Shots / RoF" line: over RoF, Fire is disabled and says why, and the reason is on the
    dialog once (no second copy under the charts). What was typed survives the redraws of a jam."""
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    tally = dialog.locator(".volley-attack__tally")
    assert tally.inner_text() == "Shots 13 / RoF 13"
    dialog.get_by_role("spinbutton", name="Shots at Lookout").fill("11")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === true")
    reason = "11 too many, the weapon fires at most 13 a turn"
    assert tally.inner_text() == f"Shots 24 / RoF 13: {reason}"
    assert dialog.get_by_role("button", name=FIRE, exact=True).get_attribute("title") == reason
    assert dialog.inner_text().count("too many") == 1, "the refusal is shown once"
    assert dialog.locator(".volley-attack__odds-status").inner_text() == ""
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("5")
    dialog.get_by_role("spinbutton", name="Shots at Lookout").fill("2")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    assert tally.inner_text() == "Shots 7 / RoF 13"
    assert dialog.get_by_role("button", name=FIRE, exact=True).get_attribute("title") in (None, "")

    # Fire, and the MP5 jams: the dialog redraws (the answer, then the token's update) and keeps 5 and 2.
    page.get_by_label("Next roll's dice").fill(JAM_DICE)
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"{MP5}.state.jammed === true")
    page.wait_for_function("document.querySelector('[data-volley=unjam]') !== null")
    assert dialog.get_by_role("spinbutton", name="Shots at Raider").input_value() == "5"
    assert dialog.get_by_role("spinbutton", name="Shots at Lookout").input_value() == "2"
    # The card says the shots and the skill on its face.
    card = cards(page).last
    assert "5 shots" in card.locator("tr.volley-card__row").filter(has_text="Raider").inner_text()
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_undo_puts_rounds_jam_and_status_back(table: Table) -> None:
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    page.get_by_label("Next roll's dice").fill(JAM_DICE)
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"{MP5}.state.jammed === true")
    assert page.evaluate(f"{MP5}.state.loaded") == 29
    assert page.evaluate("[...canvas.scene.tokens.get('tokHale000000001').actor.statuses]") == ["jammed"]

    card = cards(page).last
    card.get_by_role("button", name="Undo").click()
    page.wait_for_function(f"{MP5}.state.loaded === 30 && {MP5}.state.jammed === false")
    assert page.evaluate(f"{MP5}.state.malfunction ?? null") is None
    page.wait_for_function("canvas.scene.tokens.get('tokHale000000001').actor.statuses.size === 0")
    card = cards(page).last
    card.locator(".volley-card__undone").wait_for()
    assert card.get_by_role("button", name="Undo").count() == 0
    flags = chat_flags(page)
    assert flags["undone"]["by"] == "gm0000000000000a"
    table.shots.take(message_of(card), "gurps-card-undone-en")

    # After a reload the card is drawn undone from the message's flags, with no Undo button.
    reload_kept(page)
    card = cards(page).last
    card.wait_for()
    assert card.locator(".volley-card__undone").count() == 1
    assert card.get_by_role("button", name="Undo").count() == 0
    assert page.evaluate(f"{MP5}.state.loaded") == 30
    assert table.pages.errors == []


def test_the_dialog_follows_the_bridge_down_and_up(table: Table) -> None:
    page = table.ready()
    dialog = open_attack_dialog(page, chart="Raider")
    fire = dialog.get_by_role("button", name=FIRE, exact=True)
    assert fire.is_enabled()

    table.sandbox.post("/sandbox/bridge/stop")
    wait_state(page, "waiting")
    bridge = dialog.locator(".volley-attack__bridge")
    page.wait_for_function(
        "document.querySelector('.volley-attack__bridge').textContent.includes('reconnecting in')"
    )
    assert bridge.inner_text().startswith("Volley bridge: offline, reconnecting in ")
    page.wait_for_function("document.querySelector('[data-volley=attack]').disabled === true")
    # The preview says so at once, well before the module's own request timeout could say anything.
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("4")
    page.wait_for_function(
        "document.querySelector('.volley-attack__odds-status').textContent === 'no odds: bridge offline'",
        timeout=ms(MODULE_REQUEST_TIMEOUT_S / 2),
    )
    status_line = page.locator(".volley-bridge-status")
    assert status_line.inner_text().startswith("Volley bridge: offline, reconnecting in ")
    table.shots.take(dialog, "gurps-dialog-offline-en")

    table.sandbox.post("/sandbox/bridge/start")
    wait_connected(page)
    page.wait_for_function("document.querySelector('[data-volley=attack]').disabled === false")
    assert bridge.inner_text() == "Volley bridge: connected"
    page.wait_for_function("document.querySelector('.volley-chart[role=img]') !== null")
    fire.click()
    cards(page).first.wait_for()
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_a_player_fires_through_the_referee(table: Table) -> None:
    page, sent = table.watched()
    view = player_view(page)
    frame, player_page = view.frame, view.page
    assert player_page.evaluate(CONNECTION_STATE) is None, "a player's browser never connects to the bridge"
    dialog = open_attack_dialog(frame, chart="Raider")
    dialog.get_by_role("spinbutton", name="Shots at Raider").fill("5")
    dialog.get_by_role("button", name=FIRE, exact=True).click()

    # The referee's page posts the card (author: the referee, so no player owns it; the shooter speaks)
    # and writes the rounds; both see them.
    cards(page).first.wait_for()
    message = page.evaluate(
        "(m => ({author: m.author?.id ?? m.author, alias: m.speaker.alias}))(game.messages.contents[0])"
    )
    assert message == {"author": "gm0000000000000a", "alias": SHOOTER}
    loaded = chat_flags(page)["result"]["weapon"]["loaded"]
    assert loaded in (25, 29, 30)  # five rounds, or one or none if the roll malfunctioned
    player_page.wait_for_function(f"{MP5}.state.loaded === {loaded}")
    frame.get_by_role("log").locator(".volley-card").first.wait_for()
    assert frame.get_by_role("log").locator(".volley-card__undo").count() == 0, "no Undo for players"
    attack = sent_with_id(sent, chat_flags(page)["requestId"])
    assert attack["user"] == "pl0000000000000b" and attack["request"]["attacker"]["skill"] == 14

    # A hand-edited player client cannot raise its skill, load rounds or script dice: the choice
    # carries none of that, and the referee's page builds the request from the profile.
    reply = player_page.evaluate(
        """async () => {
          const bridge = await import('/modules/volley/scripts/foundry/bridge.js');
          return bridge.sendRelayed({type: 'attack', id: 'volley-cheat-1', choice: {
            system: 'gurps', token: 'tokHale000000001', weapon: 'wMp5000001', action: 'attack',
            skill: 30, loaded: 999, dice: [1, 1, 1], modifier: 0,
            targets: [{id: 'tokRaider0000002', shots: 2, modifier: 0}]}});
        }"""
    )
    assert reply["type"] == "result"
    cheat = sent_with_id(sent, "volley-cheat-1")
    assert cheat["request"]["attacker"]["skill"] == 14
    assert cheat["request"]["weapon"]["loaded"] == loaded and "dice" not in cheat["request"]
    # ... nor fire a token it does not own.
    refused = player_page.evaluate(
        """async () => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'attack', id: 'volley-cheat-2', choice: {system: 'gurps', token: 'tokRaider0000002',
          weapon: 'x', action: 'attack'}})"""
    )
    assert refused["code"] == "forbidden"
    table.shots.take(open_dialog(frame), "gurps-dialog-player-en")
    page.get_by_role("combobox", name="View").select_option("referee")
    assert table.pages.errors == []


def test_russian_dialog_and_card(table: Table) -> None:
    page = table.ready(lang="ru")
    dialog = open_attack_dialog(page, fire="Огонь", chart="Raider")
    assert dialog.get_attribute("aria-label") == "Volley: стреляет Sgt. Hale"
    table.shots.take(dialog, "gurps-dialog-ru")
    dialog.get_by_role("button", name="Огонь", exact=True).click()
    cards(page).first.wait_for()
    assert cards(page).first.locator("thead").inner_text().split() == ["Цель", "Попадания", "Эффекты"]
    table.shots.take(message_of(cards(page).first), "gurps-card-ru")
    dialog.get_by_role("button", name="Закрыть").click()
    page.get_by_role("button", name=SHOOTER, exact=True).click()
    page.locator("#token-hud").get_by_role("button", name="Оружие Volley", exact=True).click()
    editor = page.get_by_role("dialog", name="Оружие Volley: Sgt. Hale")
    editor.get_by_role("group", name="MP5").get_by_role("textbox", name="СС", exact=True).fill("13x")
    editor.locator(".volley-field--invalid").wait_for()
    table.shots.take(editor, "profile-editor-ru")
    assert table.pages.errors == []


def test_scene_switch_shows_every_system(table: Table) -> None:
    page = table.ready()
    scene = page.get_by_role("combobox", name=SCENE, exact=True)
    assert scene.locator("option").all_inner_texts() == ["GURPS", "MegaTraveller", "d100"]
    for system, shooter, targets in (
        ("megatraveller", "Kira Rhyne", ["Vargr raider", "Vargr leader", "Vargr scout"]),
        ("d100", "Vex", ["Heretic", "Cultist", "Cult demagogue"]),
    ):
        scene.select_option(system)
        page.get_by_role("button", name=shooter, exact=True).wait_for()
        for name in targets:
            assert "targeted" in page.get_by_role("button", name=name, exact=True).inner_text().lower()
        assert page.evaluate("game.settings.get('volley', 'ruleSystem')") == system
        weapons = page.evaluate(
            "canvas.scene.tokens.contents[0].actor.flags.volley.profile.weapons.map(w => w.name)"
        )
        assert len(weapons) == 3
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_the_card_follows_the_players_roll_mode(table: Table) -> None:
    page = table.ready()
    view = player_view(page)
    frame, player = view.frame, view.page
    for mode, player_sees in (("gm", True), ("blind", False)):
        set_message_mode(player, mode)
        dialog = open_attack_dialog(frame, chart="Raider")
        count = page.evaluate("game.messages.contents.length")
        dialog.get_by_role("spinbutton", name="Shots at Raider").fill("1")
        dialog.get_by_role("button", name=FIRE, exact=True).click()
        page.wait_for_function(f"game.messages.contents.length === {count + 1}")
        message = page.evaluate(
            "(({whisper, blind, author}) => ({whisper, blind, author: author?.id ?? author}))"
            "(game.messages.contents.at(-1))"
        )
        if mode == "gm":
            assert message == {
                "whisper": ["gm0000000000000a", "gm0000000000000c", "as0000000000000d", "pl0000000000000b"],
                "blind": False,
                "author": "gm0000000000000a",
            }
        else:
            assert message == {
                "whisper": ["gm0000000000000a", "gm0000000000000c", "as0000000000000d"],
                "blind": True,
                "author": "gm0000000000000a",
            }
        assert cards(page).count() == count + 1, "the referee reads every card"
        player.wait_for_function(f"game.messages.contents.length === {count + 1}")
        open_dialog(frame).get_by_role("button", name="Close").click()
        shown = frame.get_by_role("log").locator(".volley-card").count()
        assert (shown == count + 1) is player_sees, (mode, shown)
    assert table.pages.errors == []


def test_a_refusal_from_the_bridge_reads_in_russian(table: Table) -> None:
    """The dialog checks what it can before sending; what only the rules know comes back as the
    bridge's refusal, which a Russian table reads in Russian (docs/protocol.md, ``error``'s ``msg``).
    Here the actor says 40 rounds are loaded in the MP5's 30-round magazine (another sheet or module
    wrote it): the rules refuse the odds and the shot, and the dialog says why in Russian."""
    page = table.pages.new()
    received: list[dict[str, Any]] = []
    page.on(
        "websocket", lambda socket: socket.on("framereceived", lambda data: received.append(json.loads(data)))
    )
    table.ready(page=page, lang="ru")
    page.evaluate(f"{MP5}.state.loaded = 40")
    dialog = open_attack_dialog(page, fire="Огонь")
    odds = dialog.locator(".volley-attack__odds-status")
    page.wait_for_function("document.querySelector('.volley-attack__odds-status')?.innerText.includes('40')")
    assert odds.inner_text() == "шансов нет: заряжено 40 при ёмкости 30"
    dialog.get_by_role("button", name="Огонь", exact=True).click()
    notice = dialog.locator(".volley-attack__notice")
    page.wait_for_function("document.querySelector('.volley-attack__notice')?.innerText.includes('40')")
    assert notice.inner_text() == "заряжено 40 при ёмкости 30"
    refusals = [frame for frame in received if frame.get("type") == "error"]
    assert refusals and all(
        (frame["message"], frame["msg"]["key"]) == ("loaded 40 > capacity 30", "gurps.error.overloaded")
        for frame in refusals
    ), refusals
    assert cards(page).count() == 0
    # Fire asks for the odds again; the picture is taken once that answer (the same refusal) is shown.
    page.wait_for_function(
        "document.querySelector('.volley-attack__odds-status')?.innerText.startsWith('шансов нет')"
    )
    table.shots.take(dialog, "gurps-dialog-refused-ru")
    assert table.pages.errors == []
