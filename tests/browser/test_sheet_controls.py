"""Fire from the weapon's own row: Volley's control on each weapon row of the game system's own sheet.

The sandbox world becomes a GURPS Game Aid, Dark Heresy 2e or Twodsix one; a shooter's actor becomes a
fixture actor of that system (tests/js/fixtures/), and a stand-in of the system's sheet
(vtt_module/sandbox/system-sheets.js) draws the markup the system's own template renders for it
(tests/js/fixtures/sheets/*.html) as the system's sheet class draws it: ApplicationV1 (GGA 0.18, DH2e
1.8.1: ``renderActorSheet`` with jQuery) or ApplicationV2 (Twodsix 7.5, the DH2e fork for Foundry 13-14:
``renderActorSheetV2``). Each row Volley reads gets a control that opens the attack dialog with that
weapon chosen; a row it will not fire gets one that says why and opens nothing. In Russian too.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from browserkit import ATTACK_DIALOG, FIRE, WEAPON, Table, fire_first, settle

FIXTURES = Path(__file__).resolve().parents[1] / "js" / "fixtures"

#: Make the world the given game system, give the token's actor the fixture's data (the stand-in's
#: actors carry no items, so its toObject is replaced; the module reads actors through toObject(false)),
#: and draw the system's sheet for it.
BECOME = """async ({system, version, settings, token, actorData, html, application, title}) => {
  game.system = { id: system, version };
  for (const [key, value] of Object.entries(settings)) {
    game.settings.register(system, key, { scope: "world", config: false, type: String, default: value });
  }
  const doc = canvas.scene.tokens.contents.find((t) => t.name === token);
  const actor = doc.actor;
  actor.toObject = () => ({ ...structuredClone(actorData), flags: structuredClone(actor.flags) });
  const { openSystemSheet } = await import("/sandbox/system-sheets.js");
  window.systemSheet = await openSystemSheet({ actor, html, application, gameSystem: system, title });
}"""


def sheet_html(name: str) -> str:
    text = (FIXTURES / "sheets" / f"{name}.html").read_text(encoding="utf-8")
    return re.sub(r"^<!-- _fixture: .* -->\n", "", text)


def fixture_actor(path: str, actor_id: str | None = None) -> dict[str, Any]:
    data = json.loads((FIXTURES / path).read_text(encoding="utf-8"))
    if actor_id is None:
        return {key: value for key, value in data.items() if key != "_fixture"}
    return next(actor for actor in data["actors"] if actor["_id"] == actor_id)


def open_sheet(page: Any, **how: Any) -> Any:
    page.evaluate(BECOME, how)
    sheet = page.get_by_role("dialog", name=how["title"], exact=True)
    sheet.wait_for()
    return sheet


def controls(sheet: Any) -> Any:
    return sheet.locator("button.volley-sheet-fire")


def chosen_weapon(page: Any) -> str:
    dialog = page.locator(ATTACK_DIALOG)
    dialog.wait_for()
    picker = dialog.get_by_role("combobox", name=WEAPON, exact=True)
    return str(picker.evaluate("(select) => select.selectedOptions[0]?.textContent ?? ''"))


def test_gga_classic_sheet_fires_each_attack_and_names_grenades_thrown(table: Table) -> None:
    page = table.ready(scene="gurps")
    sheet = open_sheet(
        page,
        system="gurps",
        version="0.18.22",
        settings={},
        token="Sgt. Hale",
        actorData=fixture_actor("gurps/gcs-characters.json", "gcsPulpSoldier01"),
        html=sheet_html("gurps-classic"),
        application="V1",
        title="Pulp soldier (GGA classic sheet)",
    )
    labels = controls(sheet).evaluate_all("(buttons) => buttons.map((b) => b.getAttribute('aria-label'))")
    assert labels[0] == "Fire Bergmann MP18/I, 9x19mm with Volley: 32 / 32", labels
    assert labels[1].startswith(
        'Volley does not fire this: "Hand Grenade, Black Powder" is thrown, not fired: Shots 1 and no Rcl'
    ), labels
    assert labels[2].startswith('Volley does not fire this: "Molotov Cocktail" is thrown'), labels
    assert labels[3:] == ["Fire Crossbow (Fire Bolt) with Volley: 1 / 1", "Fire Sling with Volley: 1 / 1"]
    table.shots.take(sheet, "sheet-controls-gga-classic")
    # A refused row opens nothing: it says why.
    controls(sheet).nth(1).click(force=True)  # aria-disabled: it fires nothing, but says why
    said = "sandbox.notifications.filter(n => n.text.includes('is thrown, not fired')).length"
    page.wait_for_function(f"{said} === 1")
    settle(page)
    assert page.locator(ATTACK_DIALOG).count() == 0
    # The Bergmann's row opens the attack dialog with the Bergmann chosen.
    controls(sheet).first.click()
    assert chosen_weapon(page).startswith("Bergmann MP18/I, 9x19mm")
    # GGA draws its sheet again on every change: one control per row still.
    page.evaluate("window.systemSheet.rerender()")
    assert controls(sheet).count() == 5
    # The sling (no Rcl: no Malf) fires through the bridge as the row chose it.
    page.locator(ATTACK_DIALOG).get_by_role("button", name="Close").click()
    page.locator(ATTACK_DIALOG).wait_for(state="detached")
    controls(sheet).nth(4).click()
    assert chosen_weapon(page).startswith("Sling")
    flags = fire_first(page, page.locator(ATTACK_DIALOG), FIRE)
    assert flags["choice"]["weapon"] == page.evaluate(
        "document.querySelector(\"button.volley-sheet-fire[data-volley-ref='system.ranged.00004']\").dataset.volleyWeapon"
    )


def test_dh2e_fork_sheet_names_spray_and_fires_the_webber(table: Table) -> None:
    page = table.ready(scene="d100")
    sheet = open_sheet(
        page,
        system="dark-heresy-2nd",
        version="1.8.1",
        settings={},
        token="Vex",
        actorData=fixture_actor("dark-heresy-2nd/compendium-specials.json"),
        html=sheet_html("dh2-v2"),
        application="V2",
        title="Sister Ardent (DH2e sheet, ApplicationV2)",
    )
    assert controls(sheet).count() == 6
    flamer = sheet.locator("[data-item-id='dhHandFlamer0001'] button.volley-sheet-fire")
    assert flamer.get_attribute("aria-disabled") == "true"
    assert str(flamer.get_attribute("aria-label")).startswith(
        'Volley does not fire this: "Hand Flamer" has Spray: Dark Heresy rolls no to-hit for it'
    )
    webber = sheet.locator("[data-item-id='dhWebber00000001'] button.volley-sheet-fire")
    assert webber.get_attribute("aria-label") == "Fire Webber with Volley: 1 / 1"
    table.shots.take(sheet, "sheet-controls-dh2e-v2")
    webber.click()
    assert chosen_weapon(page).startswith("Webber")
    # The Webber (RoF -1/-1/-1, no damage, Blast 5) fires a single shot through the bridge.
    flags = fire_first(page, page.locator(ATTACK_DIALOG), FIRE)
    assert flags["result"]["weapon"]["loaded"] == 0, flags["result"]["weapon"]
    dialog = page.locator(ATTACK_DIALOG)
    refused = dialog.locator(".volley-attack__refused")
    assert refused.locator("summary").inner_text() == "Not offered here (1): Hand Flamer"
    refused.locator("summary").click()
    assert refused.locator("li").first.inner_text().startswith('"Hand Flamer" has Spray:')
    table.shots.take(dialog, "sheet-controls-dh2e-dialog")
    # A partial render of the V2 sheet keeps one control per row.
    page.evaluate("window.systemSheet.rerender()")
    assert controls(sheet).count() == 6


def test_dh2e_original_sheet_is_application_v1(table: Table) -> None:
    page = table.ready(scene="d100")
    sheet = open_sheet(
        page,
        system="dark-heresy-2nd",
        version="1.8.1",
        settings={},
        token="Vex",
        actorData=fixture_actor("dark-heresy-2nd/compendium-specials.json"),
        html=sheet_html("dh2-v1"),
        application="V1",
        title="Sister Ardent (DH2e 1.8.1 sheet, ApplicationV1)",
    )
    assert controls(sheet).count() == 6
    sheet.locator("[data-item-id='dhLaspistol00001'] button.volley-sheet-fire").click()
    assert chosen_weapon(page).startswith("Laspistol")


def test_twodsix_traveller_sheet_one_control_per_weapon(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    sheet = open_sheet(
        page,
        system="twodsix",
        version="7.5.2",
        settings={"ruleset": "CD", "autofireRulesUsed": "CEL"},
        token="Kira Rhyne",
        actorData=fixture_actor("twodsix/compendium-weapons.json", "tsxCdMerc0000001"),
        html=sheet_html("twodsix-traveller"),
        application="V2",
        title="Cepheus Deluxe mercenary (Twodsix sheet)",
    )
    # Each weapon's id is on its row and again on its automatic-fire line: three controls, not six.
    assert controls(sheet).count() == 3
    sheet.locator("[data-item-id='cdSubmachinegun1'] button.volley-sheet-fire").first.click()
    assert chosen_weapon(page).startswith("Submachinegun")
    # Cepheus Deluxe's "Auto 3": automatic fire is offered, a fixed burst is not.
    modes = (
        page.locator(ATTACK_DIALOG)
        .locator("select[name=mode] option")
        .evaluate_all("(options) => options.map((o) => o.value)")
    )
    assert "auto" in modes and "burst" not in modes, modes


def test_twodsix_robot_sheet_in_russian(table: Table) -> None:
    page = table.ready(scene="megatraveller", lang="ru")
    sheet = open_sheet(
        page,
        system="twodsix",
        version="7.5.2",
        settings={"ruleset": "CEATOM", "autofireRulesUsed": "CEL"},
        token="Kira Rhyne",
        actorData=fixture_actor("twodsix/compendium-weapons.json", "cIiwzs4YedoRxIUM"),
        html=sheet_html("twodsix-robot"),
        application="V2",
        title="Warbot (Twodsix robot sheet)",
    )
    laser = sheet.locator("[data-item-id='KzngOiXZ0kdPBd8O'] button.volley-sheet-fire")
    assert laser.get_attribute("aria-label") == "Огонь из Robot Laser через Volley: 1 / 1"
    missile = sheet.locator("[data-item-id='xorjloD8uiNa7pPL'] button.volley-sheet-fire")
    assert missile.get_attribute("aria-label") == (
        "Volley не может прочитать это оружие: items.xorjloD8uiNa7pPL.system.ammo:"
        ' у "Robot Missile" нет магазина: привяжите магазин или задайте размер магазина по умолчанию'
    )
    table.shots.take(sheet, "sheet-controls-twodsix-robot-ru")
    laser.click()
    page.locator(ATTACK_DIALOG).wait_for()
    picker = page.locator(ATTACK_DIALOG).get_by_role("combobox", name="Оружие", exact=True)
    assert str(picker.evaluate("(s) => s.selectedOptions[0]?.textContent ?? ''")).startswith("Robot Laser")
    # One shot always ready (Twodsix spends nothing for it): it fires, and is ready again.
    flags = fire_first(page, page.locator(ATTACK_DIALOG), "Огонь")
    assert flags["result"]["weapon"]["loaded"] == 0, flags["result"]["weapon"]
    page.evaluate("window.systemSheet.rerender()")
    assert laser.get_attribute("aria-label") == "Огонь из Robot Laser через Volley: 1 / 1"
