"""The module end to end on ``volley sandbox``'s page, d100 (seed 004): a real bridge, the real module,
Chromium.

Vex (BS 45, WP 35, Tech-Use 40, Trade (Weaponsmith) 35) carries an autogun (S/3/10, clip 30), a braced
heavy stubber (-/-/10, clip 100, Unreliable) and a stub revolver (S/-/-). Three cultists stand about
6 m away on a 1.4 m grid: the Heretic and the Cultist 1.9 m apart, the Cult demagogue lower down, so a
45 degree sector pointed between the first two leaves the demagogue out. Scripted dice (the sandbox's
"next roll's dice" box) make every roll the book's worked example: the faces in, the rules' numbers out.
"""

from __future__ import annotations

import math
from typing import Any

import pytest
from browserkit import (
    FIRE,
    WEAPON,
    Table,
    cards,
    chat_flags,
    hits_of,
    message_of,
    notice_reads,
    open_attack_dialog,
    player_view,
    reload_kept,
    sent_with_id,
    settle,
    wait_connected,
    wait_for_chart,
)

SHOOTER = "Vex"
VEX = "canvas.scene.tokens.get('tokVex0000000001')"
WEAPONS = f"{VEX}.actor.flags.volley.profile.weapons"
AUTOGUN = f"{WEAPONS}[0]"
STUBBER = f"{WEAPONS}[1]"
HERETIC = "canvas.scene.tokens.get('tokHeretic0000002')"
CULTIST = "canvas.scene.tokens.get('tokCultist0000003')"
DEMAGOGUE = "canvas.scene.tokens.get('tokDemagogue00004')"
DICE = "Next roll's dice"

#: Vex's centre on the board (token at 20, 190; 140 x 70 px) and a click 300 px away at 352 degrees
#: (8 degrees above east): the middle line runs between the Heretic and the Cultist.
VEX_CENTRE = (90, 225)
FACING = -8.0
SECTOR_CLICK = {
    "x": VEX_CENTRE[0] + 300 * math.cos(math.radians(FACING)) + 1,
    "y": VEX_CENTRE[1] + 300 * math.sin(math.radians(FACING)) + 1,
}


def statuses(page: Any, token: str) -> list[str]:
    return sorted(page.evaluate(f"[...{token}.actor.statuses]"))


def open_d100(table: Table, *, lang: str = "en", fire: str = FIRE) -> tuple[Any, Any]:
    page = table.ready(scene="d100", lang=lang)
    return page, open_attack_dialog(page, SHOOTER, fire)


def pick_sector(page: Any, dialog: Any, *, name: str = "Pick on the map") -> None:
    """The sector's direction clicked on the board (the canvas), its preview drawn while choosing."""
    dialog.get_by_role("button", name=name).click()
    page.wait_for_function("document.querySelector('.volley-attack--picking') !== null")
    board = page.locator("#board")
    board.hover(position={"x": 300, "y": 200})
    shape = page.locator(".volley-sector-preview__shape")
    page.wait_for_function(
        "(document.querySelector('.volley-sector-preview__shape')?.getAttribute('points') ?? '') !== ''"
    )
    assert len(shape.get_attribute("points").split()) > 5
    board.click(position=SECTOR_CLICK)
    page.wait_for_function("document.querySelector('.volley-sector-preview') === null")
    page.wait_for_function("document.querySelector('.volley-attack--picking') === null")


def wait_mode_option(page: Any, value: str, *, present: bool = True) -> None:
    """Wait until the Mode select offers (or no longer offers) a mode."""
    found = f"document.querySelector('select[name=mode] option[value={value}]')"
    page.wait_for_function(f"{found} {'!==' if present else '==='} null")


def odds_lines(dialog: Any) -> list[str]:
    return dialog.locator(".volley-attack__odds-lines li").all_inner_texts()


def wait_odds_line(page: Any, text: str) -> None:
    """Wait until a suppressed/prone line under the charts contains ``text``."""
    page.wait_for_function(
        "(text) => [...document.querySelectorAll('.volley-attack__odds-lines li')]"
        ".some(li => li.textContent.includes(text))",
        arg=text,
    )


def rows(dialog: Any) -> list[str]:
    return dialog.locator("tr.volley-d100__target .volley-d100__name").all_inner_texts()


def test_a_long_burst_with_an_extra_hit_for_the_secondary(table: Table) -> None:
    page, sent = table.watched(scene="d100")
    dialog = open_attack_dialog(page, SHOOTER)
    assert dialog.get_by_role("combobox", name=WEAPON, exact=True).locator("option").all_inner_texts() == [
        "Autogun (30/30)",
        "Heavy stubber (100/100)",
        "Stub revolver (6/6)",
    ]
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    assert mode.locator("option").evaluate_all("options => options.map(o => o.value)") == [
        "single",
        "short_burst",
        "long_burst",
        "wide_short_burst",
        "wide_long_burst",
        "suppressing_semi",
        "suppressing_full",
        "overwatch",
    ]
    # A single shot has one target: the first targeted, marked as the one fired at; the others have no
    # tick to give and say why.
    wait_for_chart(dialog, "Heretic")
    assert dialog.get_by_role("img", name="Cultist").count() == 0
    heretic = dialog.locator("tr.volley-d100__target").filter(has_text="Heretic")
    assert heretic.locator(".volley-d100__primary").inner_text() == "the one fired at"
    cultist = dialog.locator("tr.volley-d100__target").filter(has_text="Cultist")
    assert cultist.get_by_role("checkbox", name="Fire at Cultist").count() == 0
    assert cultist.locator(".volley-d100__row-note").inner_text() == (
        "not fired at: a single shot has one target, chosen above"
    )

    mode.select_option("long_burst")
    dialog.get_by_role("spinbutton", name="Extra hits for Cultist").fill("1")
    heretic = wait_for_chart(dialog, "Heretic")
    page.wait_for_function("document.querySelectorAll('.volley-chart[role=img]').length === 2")
    assert "Expected hits" in heretic.get_attribute("aria-label")
    # The Heretic is 5.9 m away (short range for Rng 90 m); the Cultist 1.9 m from it.
    row = dialog.locator("tr.volley-d100__target").filter(has_text="Cultist")
    assert row.locator(".volley-d100__range").inner_text() == "5.6 m · short"
    assert row.locator(".volley-d100__to-primary").inner_text() == "1.9 m"
    assert dialog.get_by_role("spinbutton", name="Extra hits for Cult demagogue").input_value() == "0"
    # Given no extra hits, the demagogue has no odds for that reason, not for "no shots" (#35).
    none = dialog.locator(".volley-chart--none", has_text="Cult demagogue").inner_text()
    assert none == "Cult demagogue: no extra hits given to it (Extra hits), so no odds.", none
    assert dialog.locator(".volley-attack__jam-value").inner_text() == "5.0%"
    table.shots.take(dialog, "d100-dialog-en")

    # BS 45 -10 (long burst) +10 (short range) = 45; 12 is 4 degrees, 4 hits: the Cultist asked for
    # one, the Heretic keeps 3 (hit locations 05 head, 50 body, 80 right leg).
    page.get_by_label(DICE).fill("12 5 50 80")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    cards(page).first.wait_for()
    card = cards(page).first
    assert card.locator(".volley-card__title").inner_text() == "Vex fires Autogun"
    hits = {name: hits_of(card, name) for name in ("Heretic", "Cultist")}
    assert hits == {"Heretic": "3", "Cultist": "1"}
    assert card.locator(".volley-card__loaded").inner_text() == "20"
    extras = card.locator(".volley-card__extras").inner_text()
    assert "Mode: long burst" in extras and "Rounds fired: 10" in extras and "Action: half action" in extras
    table.shots.take(message_of(card), "d100-card-en")
    page.wait_for_function(f"{AUTOGUN}.state.loaded === 20")
    assert page.evaluate(f"{WEAPONS}.slice(1).map(w => w.state.loaded)") == [100, 6]

    # The request: the actor's numbers and the map's distances, the player's share.
    request = sent_with_id(sent, chat_flags(page)["requestId"])["request"]
    assert request["attacker"]["bs"] == 45 and request["mode"] == "long_burst"
    assert request["weapon"]["rof"] == "S/3/10" and request["weapon"]["loaded"] == 30
    primary, secondary = request["targets"]
    assert (primary["name"], primary["wp"], primary["distance"]) == ("Heretic", 35, 5.88)
    assert (secondary["name"], secondary["share"], secondary["to_primary"]) == ("Cultist", 1, 1.9)
    assert [t["name"] for t in request["targets"]] == ["Heretic", "Cultist"], "no share, not fired at"

    # Reload fills the clip again.
    dialog.get_by_role("button", name="Reload", exact=True).click()
    page.wait_for_function(f"{AUTOGUN}.state.loaded === 30")
    assert cards(page).last.locator(".volley-card__loaded").inner_text() == "30"
    assert table.pages.errors == []


def test_a_heavy_weapon_is_braced_and_released(table: Table) -> None:
    page, dialog = open_d100(table)
    dialog.get_by_role("combobox", name=WEAPON, exact=True).select_option(label="Heavy stubber (100/100)")
    stats = dialog.locator(".volley-d100__stats")
    page.wait_for_function("document.querySelector('.volley-d100__stats')?.textContent.includes('braced')")
    assert stats.inner_text().endswith("· braced")
    wait_for_chart(dialog, "Heretic")
    braced = dialog.locator(".volley-chart[role=img]").first.get_attribute("aria-label")
    # Unbraced, a heavy weapon takes -30: the chance of hitting drops.
    dialog.get_by_role("button", name="Release brace").click()
    page.wait_for_function(f"{STUBBER}.state.braced === false")
    page.wait_for_function(
        "document.querySelector('.volley-d100__stats')?.textContent.includes('not braced (−30)')"
    )
    page.wait_for_function(
        "(was) => document.querySelector('.volley-chart[role=img]')?.getAttribute('aria-label') !== was",
        arg=braced,
    )
    assert dialog.get_by_role("button", name="Brace", exact=True).is_visible()
    dialog.get_by_role("button", name="Brace", exact=True).click()
    page.wait_for_function(f"{STUBBER}.state.braced === true")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Vex: Brace (Heavy stubber)"
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_suppressing_fire_at_a_sector_sets_statuses_and_undo_puts_them_back(table: Table) -> None:
    page, dialog = open_d100(table)
    dialog.get_by_role("combobox", name=WEAPON, exact=True).select_option(label="Heavy stubber (100/100)")
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    wait_mode_option(page, "suppressing_full")
    assert mode.locator("option").evaluate_all("options => options.map(o => o.value)") == [
        "long_burst",
        "wide_long_burst",
        "suppressing_full",
        "overwatch",
    ], "a heavy stubber (-/-/10): no single shot, no short burst, no semi-auto"
    mode.select_option("suppressing_full")
    sector = dialog.locator(".volley-d100__sector")
    sector.wait_for()
    assert "reaches 300 m (3 × Rng)" in sector.inner_text()

    # While choosing, the dialog steps aside and the sector follows the pointer over the map.
    dialog.get_by_role("button", name="Pick on the map").click()
    page.locator("#board").hover(position={"x": 330, "y": 190})
    page.wait_for_function(
        "(document.querySelector('.volley-sector-preview__shape')?.getAttribute('points') ?? '') !== ''"
    )
    table.shots.take(page, "d100-sector-picking-en")
    page.keyboard.press("Escape")
    page.wait_for_function("document.querySelector('.volley-sector-preview') === null")
    assert notice_reads(dialog, "No sector picked.") == "No sector picked."

    pick_sector(page, dialog)
    assert dialog.locator(".volley-d100__picked").inner_text() == "Sector 45° facing 352°: 2 tokens inside."
    assert rows(dialog) == ["Cultist", "Heretic"], "nearest first; the demagogue is outside"
    # The list is the player's to edit: add the demagogue, then leave it out again.
    dialog.get_by_role("combobox", name="Add a token").select_option(label="Cult demagogue")
    dialog.get_by_role("button", name="Add", exact=True).click()
    page.wait_for_function("document.querySelectorAll('tr.volley-d100__target').length === 3")
    assert rows(dialog) == ["Cultist", "Heretic", "Cult demagogue"]
    wait_for_chart(dialog, "Cult demagogue")
    dialog.get_by_role("checkbox", name="Fire at Cult demagogue").uncheck()
    page.wait_for_function("document.querySelectorAll('.volley-chart[role=img]').length === 2")
    assert dialog.get_by_role("checkbox", name="Fire at Cult demagogue").is_checked() is False
    # The Heretic cannot reach cover: failing, it goes prone.
    dialog.get_by_role("checkbox", name="Heretic can reach cover").uncheck()
    page.wait_for_function("document.querySelectorAll('.volley-attack__odds-lines li').length === 2")
    wait_odds_line(page, "prone 85%")
    # WP 28 -20 and WP 35 -20: fail 92% and 85%.
    assert odds_lines(dialog) == [
        "Cultist: suppressed 92%, prone 0%",
        "Heretic: suppressed 85%, prone 85%",
    ]
    assert dialog.locator(".volley-attack__jam-value").inner_text() == "7.0%", "Unreliable: jams on 94+"
    table.shots.take(dialog, "d100-dialog-suppressing-en")

    # BS 45 -20 = 25: 50 misses. Suppression -20: the Cultist rolls 90 against 8, the Heretic 95 against 15.
    page.get_by_label(DICE).fill("50 90 95")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"{HERETIC}.actor.statuses.has('prone')")
    assert statuses(page, CULTIST) == ["suppressed"]
    assert statuses(page, HERETIC) == ["prone", "suppressed"]
    assert statuses(page, DEMAGOGUE) == []
    page.wait_for_function(f"{STUBBER}.state.loaded === 90")
    card = cards(page).last
    effects = card.locator("tr.volley-card__row").filter(has_text="Heretic").locator(".volley-card__effects")
    assert effects.locator(".volley-card__status").all_inner_texts() == ["+Suppressed", "+Prone"]
    # The test's outcome is on the face, the dice in the Rolls (#35).
    assert (
        effects.locator(".volley-card__note--bad")
        .inner_text()
        .startswith("failed the suppression test (−20: rolled 95")
    )
    assert (
        "Must spend its actions reaching cover: Cultist" in card.locator(".volley-card__extras").inner_text()
    )
    page.wait_for_function("document.querySelectorAll('.sandbox-chip--suppressed').length === 2")
    table.shots.take(message_of(card), "d100-card-suppressing-en")

    # Undo: the statuses and the rounds as they were.
    card.get_by_role("button", name="Undo").click()
    page.wait_for_function(f"{HERETIC}.actor.statuses.size === 0 && {CULTIST}.actor.statuses.size === 0")
    page.wait_for_function(f"{STUBBER}.state.loaded === 100")
    cards(page).last.locator(".volley-card__undone").wait_for()
    table.shots.take(message_of(cards(page).last), "d100-card-undone-en")
    assert table.pages.errors == []


def test_a_jam_refuses_fire_until_unjammed_and_the_spoiled_rounds_come_back(table: Table) -> None:
    page, dialog = open_d100(table)
    wait_for_chart(dialog, "Heretic")
    # 97: an attack roll of 96+ misses and, with reliability 0, jams; 2 x RoF 1 rounds are spoiled.
    page.get_by_label(DICE).fill("97")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"{AUTOGUN}.state.jammed === true")
    assert page.evaluate(f"{AUTOGUN}.state") == {"loaded": 27, "jammed": True, "spoiled": 2, "braced": False}
    page.wait_for_function("document.querySelector('.sandbox-chip--jammed') !== null")
    assert "Weapon jammed" in page.get_by_role("button", name=SHOOTER, exact=True).inner_text()

    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === true")
    fire = dialog.get_by_role("button", name=FIRE, exact=True)
    assert fire.get_attribute("title") == "The weapon is jammed: clear it first"
    reload = dialog.get_by_role("button", name="Reload", exact=True)
    assert reload.is_disabled()
    assert reload.get_attribute("title") == (
        "Unjam first: a Jam is cleared before the weapon is reloaded (Volley's reading; the seed is silent),"
        " and the rounds it spoiled stay for Recover ammunition"
    )
    assert dialog.get_by_role("combobox", name="Unjam with").input_value() == "best"
    assert "2 spoiled rounds" in dialog.locator(".volley-d100__upkeep").inner_text()
    table.shots.take(dialog, "d100-dialog-jammed-en")
    card = cards(page).last
    assert card.locator(".volley-card__jammed").inner_text() == "JAMMED"
    assert "Rounds spoiled by the jam: 2" in card.locator(".volley-card__extras").inner_text()
    table.shots.take(message_of(card), "d100-card-jammed-en")

    # Unjam: Tech-Use 40 (the better skill), 12 passes.
    page.get_by_label(DICE).fill("12")
    dialog.get_by_role("button", name="Unjam", exact=True).click()
    page.wait_for_function(f"{AUTOGUN}.state.jammed === false")
    page.wait_for_function("document.querySelector('.sandbox-chip--jammed') === null")
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Vex: Unjam (Autogun)"
    # Recover ammunition: Trade (Weaponsmith) 35 +10, 20 passes; the two rounds come back.
    page.get_by_label(DICE).fill("20")
    dialog.get_by_role("button", name="Recover ammunition", exact=True).click()
    page.wait_for_function(f"{AUTOGUN}.state.spoiled === 0")
    recovered = cards(page).last.locator(".volley-card__extras").inner_text()
    assert "Recover ammunition: 2 rounds back in the reserve (rolled 20 against 45)" in recovered, recovered
    page.wait_for_function("document.querySelector('[data-volley=recover_ammo]') === null")
    assert table.pages.errors == []


def test_overwatch_is_set_as_a_standing_order_and_fired_when_its_trigger_is_met(table: Table) -> None:
    page, dialog = open_d100(table)
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("overwatch")
    pick_sector(page, dialog)
    assert dialog.get_by_role("spinbutton", name="Facing").input_value() == "352"
    assert "In the sector now: Cultist, Heretic" in dialog.locator(".volley-d100__order-form").inner_text()
    dialog.get_by_role("combobox", name="Fire with").select_option("short_burst")
    dialog.get_by_role("textbox", name="Trigger").fill("anyone crosses the bridge")
    assert dialog.locator(".volley-attack__preview--none").count() == 1, "setting an order rolls nothing"
    table.shots.take(dialog, "d100-dialog-overwatch-en")
    dialog.get_by_role("button", name="Set overwatch").click()
    page.wait_for_function(f"{VEX}.actor.statuses.has('overwatch')")
    assert page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch") == {
        "mode": "short_burst",
        "trigger": "anyone crosses the bridge",
        "facing": 352,
        "arc": 45,
    }
    assert "Overwatch" in page.get_by_role("button", name=SHOOTER, exact=True).inner_text()
    extras = cards(page).last.locator(".volley-card__extras").inner_text().splitlines()
    assert extras == [
        "Action: full action",
        "Overwatch: short burst",
        "Facing: 352°",
        "Sector: 45°",
        "Trigger: anyone crosses the bridge",
    ]
    table.shots.take(message_of(cards(page).last), "d100-card-overwatch-set-en")

    # The dialog turns to the standing order, waiting: nobody listed, nothing to fire, and where Set
    # overwatch stood a button that does nothing, so a second click cannot spend the order.
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    page.wait_for_function("document.querySelector('select[name=mode]')?.value === 'overwatch_fire'")
    assert mode.locator("option").first.inner_text() == "Overwatch: the standing order"
    order = dialog.locator(".volley-d100__order").inner_text()
    assert order == "Overwatch standing: short burst, facing 352°, 45°; trigger: anyone crosses the bridge"
    page.wait_for_function("document.querySelector('.volley-d100__waiting') !== null")
    assert rows(dialog) == []
    waiting = dialog.locator(".volley-attack__button--primary")
    assert waiting.is_disabled() and waiting.inner_text().strip() == "Waiting for the trigger"
    assert dialog.get_by_role("button", name=FIRE, exact=True).count() == 0
    assert dialog.locator(".volley-chart[role=img]").count() == 0, "no odds while the order waits"
    # Its own step: the tokens in the sector are listed, then Fire.
    dialog.get_by_role("button", name="The trigger is met…").click()
    page.wait_for_function("document.querySelectorAll('tr.volley-d100__target').length === 2")
    assert rows(dialog) == ["Cultist", "Heretic"]
    wait_odds_line(page, "Cultist: suppressed")
    table.shots.take(dialog, "d100-dialog-overwatch-fire-en")

    # Short burst BS 45 +10 (short range) = 55: 30 is 3 degrees, 2 hits on the Cultist (locations 40,
    # 60); shot at, it tests suppression +20: WP 28 +20 = 48, and 70 fails.
    page.get_by_label(DICE).fill("30 40 60 70")
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"!{VEX}.actor.statuses.has('overwatch')")
    page.wait_for_function(f"{CULTIST}.actor.statuses.has('suppressed')")
    assert statuses(page, HERETIC) == []
    card = cards(page).last
    assert card.locator(".volley-card__title").inner_text() == "Vex: Overwatch fire (Autogun)"
    assert hits_of(card, "Cultist") == "2"
    assert page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch") is None
    page.wait_for_function(f"{AUTOGUN}.state.loaded === 27")
    table.shots.take(message_of(card), "d100-card-overwatch-en")
    # The order is used up: the dialog is back to the weapon's modes.
    wait_mode_option(page, "overwatch_fire", present=False)
    assert table.pages.errors == []


def test_morale_a_suppression_test_then_recovery(table: Table) -> None:
    page, dialog = open_d100(table)
    dialog.locator("details.volley-d100__morale summary").click()
    morale = dialog.locator("details.volley-d100__morale")
    assert morale.get_by_role("combobox", name="For").input_value() == "self"
    # The referee calls a test for Vex at -10: WP 35 -10 = 25, 99 fails; out of cover, it can reach it.
    morale.get_by_role("spinbutton", name="Modifier").fill("-10")
    page.get_by_label(DICE).fill("99")
    morale.get_by_role("button", name="Suppression test").click()
    page.wait_for_function(f"{VEX}.actor.statuses.has('suppressed')")
    assert statuses(page, VEX) == ["suppressed"]
    assert "Must spend its actions reaching cover: Vex" in cards(page).last.inner_text()
    # The test card says failed per token on its face, and has no Hits column (#35).
    test_card = cards(page).last
    assert test_card.locator("th").all_inner_texts()[:2] == ["Target", "Effects"]
    assert (
        test_card.locator(".volley-card__note--bad")
        .inner_text()
        .startswith("failed the suppression test (−10: rolled 99 against 25")
    )
    # The −10 was for that test: the form puts it back to 0, so the recovery does not carry it (#35).
    page.wait_for_function("document.querySelector('[name=morale_modifier]')?.value === '0'")
    # The dialog says what suppression costs the shooter; the morale section stays open.
    page.wait_for_function("document.querySelector('.volley-d100__note') !== null")
    assert dialog.locator(".volley-d100__note").inner_text() == "suppressed: BS −20, one action point"
    assert morale.evaluate("details => details.open") is True

    # End of its turn, nobody shot near it: WP 35 +30 = 65, 10 shakes it off.
    morale.get_by_role("checkbox", name="Quiet since its last turn (+30 to recover)").check()
    page.get_by_label(DICE).fill("10")
    morale.get_by_role("button", name="Recover (end of turn)").click()
    page.wait_for_function(f"!{VEX}.actor.statuses.has('suppressed')")
    assert cards(page).last.locator(".volley-card__title").inner_text() == "Vex: Recover from suppression"
    recovered = cards(page).last.locator(".volley-card__note--good").inner_text()
    # Its +30 is the quiet turn's; the test's −10 is not carried (it read +20 before #35).
    assert recovered == "recovers (+30: rolled 10 against 65)", recovered
    assert table.pages.errors == []


def test_russian_dialog_and_card(table: Table) -> None:
    page, dialog = open_d100(table, lang="ru", fire="Огонь")
    assert dialog.get_attribute("aria-label") == "Volley: стреляет Vex"
    dialog.get_by_role("combobox", name="Оружие", exact=True).select_option(label="Heavy stubber (100/100)")
    mode = dialog.get_by_role("combobox", name="Режим", exact=True)
    wait_mode_option(page, "suppressing_full")
    mode.select_option("suppressing_full")
    assert mode.locator("option:checked").inner_text() == "Стрельба на Подавление, автоматическая (BS −20)"
    pick_sector(page, dialog, name="Указать на карте")
    assert rows(dialog) == ["Cultist", "Heretic"]
    page.wait_for_function("document.querySelectorAll('.volley-attack__odds-lines li').length === 2")
    assert (
        dialog.locator(".volley-attack__odds-lines li").first.inner_text()
        == "Cultist: Подавлен 92%, Залегает 0%"
    )
    table.shots.take(dialog, "d100-dialog-ru")
    page.get_by_label("Кости следующего броска").fill("50 90 95")
    dialog.get_by_role("button", name="Огонь", exact=True).click()
    page.wait_for_function(f"{HERETIC}.actor.statuses.has('suppressed')")
    card = cards(page).last
    assert card.locator("thead").inner_text().split() == ["Цель", "Попадания", "Эффекты"]
    extras = card.locator(".volley-card__extras").inner_text()
    assert "Режим: Стрельба на Подавление" in extras and "Действие: Полное действие" in extras
    table.shots.take(message_of(card), "d100-card-ru")
    assert table.pages.errors == []


@pytest.mark.foundry(13, 14)
def test_a_player_fires_through_the_referee_and_cannot_test_other_tokens(table: Table) -> None:
    page, sent = table.watched(scene="d100")
    view = player_view(page, SHOOTER)
    player = view.page
    dialog = open_attack_dialog(view.frame, SHOOTER, chart="Heretic")
    # A player calls morale tests for its own token only: no "For" choice.
    assert dialog.locator("select[name=who]").count() == 0
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    cards(page).first.wait_for()
    request = sent_with_id(sent, chat_flags(page)["requestId"])
    assert request["user"] == "pl0000000000000b"
    assert request["request"]["attacker"]["bs"] == 45 and request["request"]["mode"] == "single"
    refused = player.evaluate(
        """async () => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'action', id: 'volley-d100-cheat', choice: {system: 'd100', token: 'tokVex0000000001',
          weapon: 'wAutogun01', action: 'suppression_test', who: 'targets',
          targets: [{id: 'tokHeretic0000002'}]}})"""
    )
    assert refused["type"] == "error"
    assert refused["path"] == "$.choice.who"
    assert statuses(page, HERETIC) == []
    page.get_by_role("combobox", name="View").select_option("referee")
    assert table.pages.errors == []


def notices(page: Any) -> Any:
    return page.locator("#chat-log .volley-notice").all_inner_texts()


def next_turn(page: Any, expect: str, *, control: str = "#next-turn") -> None:
    """The referee moves the encounter on (the sandbox's header control, Foundry's Next turn; or back,
    with ``control="#previous-turn"``) and the header says ``expect``."""
    page.locator(control).click()
    page.wait_for_function(
        "(text) => document.querySelector('#combat-turn')?.textContent === text", arg=expect
    )


def set_overwatch(page: Any) -> Any:
    dialog = open_attack_dialog(page, SHOOTER)
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("overwatch")
    pick_sector(page, dialog)
    dialog.get_by_role("textbox", name="Trigger").fill("anyone crosses the bridge")
    dialog.get_by_role("button", name="Set overwatch").click()
    page.wait_for_function(f"{VEX}.actor.statuses.has('overwatch')")
    return dialog


def test_an_overwatch_order_ends_when_the_combat_turn_comes_back_to_vex(table: Table) -> None:
    """Seed 004: the order stands until the start of the shooter's next turn. Only the referee's browser
    (the one holding the bridge) lifts it and posts the notice; a co-referee reading in Russian sees the
    same notice in Russian, and neither the co-referee's nor the player's browser writes anything."""
    page = table.ready(scene="d100")
    co = table.open(scene="d100", lang="ru", extra="&as=coreferee")
    view = player_view(page, SHOOTER)
    assert page.locator("#combat-turn").inner_text() == "not begun"
    assert page.locator("#next-turn").inner_text() == "Begin combat"
    next_turn(page, "round 1: Vex's turn")
    co.wait_for_function("document.querySelector('#combat-turn')?.textContent === 'раунд 1: ходит Vex'")
    assert view.frame.locator("#next-turn").is_hidden(), "moving the turn is the referee's"
    page.get_by_role("combobox", name="View").select_option("referee")

    dialog = set_overwatch(page)
    dialog.get_by_role("button", name="Close").click()
    for name in ("Heretic", "Cultist", "Cult demagogue"):
        next_turn(page, f"round 1: {name}'s turn")
        assert statuses(page, VEX) == ["overwatch"], f"{name}'s turn: the order stands"
        order = page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch")
        assert order["trigger"] == "anyone crosses the bridge"
    assert notices(page) == []

    next_turn(page, "round 2: Vex's turn")
    page.wait_for_function(f"!{VEX}.actor.statuses.has('overwatch')")
    assert page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch") is None
    page.wait_for_function("document.querySelectorAll('#chat-log .volley-notice').length === 1")
    assert notices(page) == ["Vex's overwatch order ends: their turn has come."]
    assert page.locator("#chat-log .chat-message").last.locator(".message-sender").inner_text() == SHOOTER
    co.wait_for_function("document.querySelectorAll('#chat-log .volley-notice').length === 1")
    assert notices(co) == ["Vex: Караул окончен — начался Ход стрелка."]
    view.page.wait_for_function(f"!{VEX}.actor.statuses.has('overwatch')")
    view.page.wait_for_function("document.querySelectorAll('#chat-log .volley-notice').length === 1")
    assert "Overwatch" not in page.get_by_role("button", name=SHOOTER, exact=True).inner_text()
    page.keyboard.press("Escape")  # the Token HUD left open by the dialog
    table.shots.take(page.locator("body"), "d100-overwatch-ends-en")
    table.shots.take(co.locator("body"), "d100-overwatch-ends-ru")

    # A later turn (or a second round) says nothing more: the order is gone.
    next_turn(page, "round 2: Heretic's turn")
    settle(page)
    for client in (page, co, view.page):
        assert client.evaluate("document.querySelectorAll('#chat-log .volley-notice').length") == 1
    assert table.pages.errors == []


def test_with_the_setting_off_the_order_stands_through_the_shooters_turn(table: Table) -> None:
    page = table.ready(scene="d100")
    page.evaluate("game.settings.set('volley', 'overwatchEndsOnTurn', false)")
    next_turn(page, "round 1: Vex's turn")
    dialog = set_overwatch(page)
    dialog.get_by_role("button", name="Close").click()
    for name in ("Heretic", "Cultist", "Cult demagogue", "Vex"):
        next_turn(page, f"round {2 if name == 'Vex' else 1}: {name}'s turn")
    settle(page)
    assert statuses(page, VEX) == ["overwatch"]
    assert page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch") is not None
    assert notices(page) == []
    assert table.pages.errors == []


def test_stepping_back_and_forward_again_does_not_end_the_order(table: Table) -> None:
    """A referee who steps the turn back to fix a mistake and forward again has not begun Vex's turn a
    second time: the order he set on his turn stands, even across a reload of the referee's page (the
    Combat remembers whose turns have begun), and ends at his next round's turn."""
    page = table.ready(scene="d100")
    back = page.get_by_role("button", name="Previous turn", exact=True)
    assert back.is_hidden(), "nothing to step back to before the combat begins"
    next_turn(page, "round 1: Vex's turn")
    for name in ("Heretic", "Cultist", "Cult demagogue"):
        next_turn(page, f"round 1: {name}'s turn")
    next_turn(page, "round 2: Vex's turn")
    dialog = set_overwatch(page)
    dialog.get_by_role("button", name="Close").click()
    page.keyboard.press("Escape")
    table.shots.take(page.locator(".sandbox-combat"), "sandbox-combat-controls-en")

    next_turn(page, "round 1: Cult demagogue's turn", control="#previous-turn")
    reload_kept(page)
    wait_connected(page)
    next_turn(page, "round 2: Vex's turn")
    settle(page)
    assert statuses(page, VEX) == ["overwatch"], "Vex's round-2 turn began before the step back"
    assert (
        page.evaluate(f"{VEX}.actor.flags.volley.state.overwatch")["trigger"] == "anyone crosses the bridge"
    )
    assert notices(page) == []

    for name in ("Heretic", "Cultist", "Cult demagogue"):
        next_turn(page, f"round 2: {name}'s turn")
    next_turn(page, "round 3: Vex's turn")
    page.wait_for_function(f"!{VEX}.actor.statuses.has('overwatch')")
    page.wait_for_function("document.querySelectorAll('#chat-log .volley-notice').length === 1")
    assert table.pages.errors == []


def test_morale_for_the_listed_targets_with_nobody_listed_is_refused_by_its_label(table: Table) -> None:
    """The generated dialog walk (seeds 1-2): with "For: the listed targets" and no token targeted, the
    dialog sent the suppression test, the recovery and entering melee with no targets, and the referee's
    browser refused them ("no target" at the targets, a field the form does not show). Now the dialog
    refuses them before sending, naming its For field; with a token targeted the same choice is sent."""
    page, sent = table.watched(scene="d100")
    dialog = open_attack_dialog(page, SHOOTER)
    page.evaluate("sandbox.table.setTargets([])")
    page.wait_for_function("game.user.targets.size === 0")
    dialog.locator("details.volley-d100__morale summary").click()
    morale = dialog.locator("details.volley-d100__morale")
    morale.get_by_role("combobox", name="For").select_option("targets")
    before = len(sent)
    for button in ("Suppression test", "Recover (end of turn)", "Enter melee"):
        morale.get_by_role("button", name=button).click()
        page.wait_for_function(
            "(text) => document.querySelector('.volley-attack__notice')?.textContent.trim() === text",
            arg="For: nobody listed: target a token (T over it), or choose this token",
        )
        page.evaluate("document.querySelector('.volley-attack__notice').textContent = ''")
    assert [f for f in sent[before:] if f.get("type") in ("attack", "action")] == [], "nothing sent"
    assert morale.get_by_role("combobox", name="For").get_attribute("aria-invalid") == "true"
    # A targeted token is listed: the same test goes, for it.
    page.evaluate("sandbox.table.setTargets(['tokHeretic0000002'])")
    page.wait_for_function("game.user.targets.size === 1")
    morale.get_by_role("button", name="Enter melee").click()
    page.wait_for_function("(n) => game.messages.contents.length > n", arg=0)
    action = next(f for f in sent[before:] if f.get("type") == "action")
    assert action["request"]["action"] == "enter_melee"
    assert [t["id"] for t in action["request"]["targets"]] == ["tokHeretic0000002"], action
    assert table.pages.errors == []
