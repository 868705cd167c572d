"""The attack dialog over a game system's own actor: Twodsix, a version newer than the adapter reads.

The sandbox world says it runs Twodsix 8.1.0 and Kira Rhyne's actor becomes the "Hired Gunman" of
tests/js/fixtures/twodsix/shipped-actors.json (a traveller shaped as Twodsix's pre-made ones: a blade,
a combat rifle, a flashbang and a frag grenade). The dialog offers the rifle, names each weapon it does
not fire with the reason, and says once, first, that the installed Twodsix is outside what Volley reads;
the referee is told the same once by a notification. In Russian as well.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from browserkit import FIRE, WEAPON, Table, open_attack_dialog

KIRA = "Kira Rhyne"
FIXTURE = Path(__file__).resolve().parents[1] / "js" / "fixtures" / "twodsix" / "shipped-actors.json"

#: Make the world a Twodsix 8.1.0 one and give Kira's actor the gunman's data (the stand-in's actors
#: carry no items, so its toObject is replaced; the module reads actors through toObject(false)).
BECOME_TWODSIX = """(gunman) => {
  game.system = { id: "twodsix", version: "8.1.0" };
  const token = canvas.scene.tokens.contents.find((doc) => doc.name === "Kira Rhyne");
  const actor = token.actor;
  actor.toObject = () => ({ ...structuredClone(gunman), flags: structuredClone(actor.flags) });
}"""


def become_twodsix(page: Any) -> None:
    actors = json.loads(FIXTURE.read_text(encoding="utf-8"))["actors"]
    gunman = next(actor for actor in actors if actor["name"] == "Hired Gunman")
    page.evaluate(BECOME_TWODSIX, gunman)


def test_dialog_names_refused_weapons_and_the_version(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    become_twodsix(page)
    dialog = open_attack_dialog(page, KIRA, FIRE)
    weapons = dialog.get_by_role("combobox", name=WEAPON, exact=True).locator("option").all_inner_texts()
    assert weapons[0].startswith("Combat Rifle"), weapons
    assert dialog.get_by_role("note").inner_text() == (
        "Twodsix 8.1.0 is outside the versions this Volley reads (>= 7.5.0 < 8.0.0);"
        " it reads what it can and names what it cannot"
    )
    assert dialog.locator(".volley-attack__problems li").count() == 0, "no field to fix"
    refused = dialog.locator(".volley-attack__refused")
    assert refused.locator("summary").inner_text() == "Not offered here (3): Blade, Flashbang, Frag Grenade"
    refused.locator("summary").click()
    assert refused.locator("li").all_inner_texts() == [
        '"Blade" is a melee weapon; Volley fires ranged weapons only',
        '"Flashbang" is thrown (a grenade or a thrown weapon); these rules fire guns only',
        '"Frag Grenade" is thrown (a grenade or a thrown weapon); these rules fire guns only',
    ]
    table.shots.take(dialog, "adapters-twodsix-refusals")
    # The referee is told once by a notification, however often the actor is read.
    said = (
        "sandbox.notifications"
        ".filter(n => n.level === 'warn' && n.text.includes('Twodsix 8.1.0 is outside')).length"
    )
    page.wait_for_function(f"{said} >= 1")
    dialog.get_by_role("combobox", name=WEAPON, exact=True).select_option(index=0)
    assert page.evaluate(said) == 1


def test_dialog_says_it_in_russian(table: Table) -> None:
    page = table.ready(scene="megatraveller", lang="ru")
    become_twodsix(page)
    dialog = open_attack_dialog(page, KIRA, "Огонь")
    assert dialog.get_by_role("note").inner_text().startswith("Twodsix 8.1.0 вне версий")
    refused = dialog.locator(".volley-attack__refused")
    summary = "Здесь не предлагается (3): Blade, Flashbang, Frag Grenade"
    assert refused.locator("summary").inner_text() == summary
    refused.locator("summary").click()
    blade = '"Blade" — оружие ближнего боя; Volley стреляет только из дистанционного'
    assert refused.locator("li").first.inner_text() == blade
    table.shots.take(dialog, "adapters-twodsix-refusals-ru")
