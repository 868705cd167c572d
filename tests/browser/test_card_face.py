"""The card's face tells the referee what to do next (issue 35), drawn by the real module in
``volley sandbox``: a GURPS critical hit and what it means, a stoppage's rounds as fired, an unjam's
outcome; d100 hit locations, a jam cleared, ammunition recovered or not; and an undone card that reads
as undone everywhere on its face, its chips and its lines under the table too. The Rolls keep the dice.
"""

from __future__ import annotations

from typing import Any

from browserkit import Table, cards, open_attack_dialog

DICE = "#dice"
#: 3d6 of 1, 1, 1: a to-hit roll of 3, a critical hit (B556) whatever the skill.
CRITICAL = "1 1 1"
#: To-hit 18, then 10 on the malfunction table: a stoppage (B407).
STOPPAGE = "6 6 6 3 3 4"
#: An unjam roll of 9 against Armoury 12 +2: cleared.
CLEARED = "3 3 3"

STRUCK = """(card) => [...card.querySelectorAll(
  '.volley-card__status, .volley-card__note, .volley-card__extras li, .volley-card__count,'
  + ' .volley-card__weapon'
)].filter((el) => el.offsetParent !== null).map((el) => {
  const style = getComputedStyle(el);
  return {
    text: el.textContent.trim(),
    struck: style.textDecorationLine.includes('line-through'),
    coloured: style.backgroundColor !== 'rgba(0, 0, 0, 0)' && style.backgroundColor !== 'transparent',
  };
})"""


def fire(page: Any, dialog: Any, dice: str, button: str = "[data-volley=attack]") -> Any:
    count = cards(page).count()
    page.locator(DICE).fill(dice)
    dialog.locator(button).click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {count}")
    return cards(page).last


def undo(card: Any) -> None:
    card.locator(".volley-card__undo").click()
    card.locator(".volley-card__undone").wait_for()


def test_gurps_critical_stoppage_and_unjam_on_the_face(table: Table) -> None:
    page = table.ready(scene="gurps")
    dialog = open_attack_dialog(page, chart="Raider")
    critical = fire(page, dialog, CRITICAL)
    raider = critical.locator("tr.volley-card__row", has_text="Raider")
    alert = raider.locator(".volley-card__note--alert")
    assert alert.inner_text() == "critical hit: no dodge; roll on the Critical Hit Table (B556)"
    # The dice are still in the Rolls (folded).
    rolls = critical.locator(".volley-card__log").text_content() or ""
    assert "rolled 3" in rolls, rolls

    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    stoppage = fire(page, dialog, STOPPAGE)
    note = stoppage.locator("tr.volley-card__row", has_text="Raider").locator(".volley-card__note--bad")
    assert note.inner_text() == "malfunction: 1 of 13 shots fired"
    assert "Rounds fired: 1" in stoppage.locator(".volley-card__extras").inner_text()

    dialog.locator("[data-volley=unjam]").wait_for()
    cleared = fire(page, dialog, CLEARED, "[data-volley=unjam]")
    assert cleared.locator(".volley-card__title").inner_text() == "Sgt. Hale: Unjam (MP5)"
    line = cleared.locator(".volley-card__extra--good")
    assert line.inner_text() == "Unjam: cleared, the weapon fires again (rolled 9 against 14)"
    assert "Rounds fired" not in cleared.inner_text()

    # Undone, the stoppage card reads as undone on all of its face, not only in its rows.
    undo(stoppage)
    seen = stoppage.evaluate(STRUCK)
    assert seen and all(item["struck"] for item in seen), seen
    assert not any(item["coloured"] for item in seen), seen
    assert table.pages.errors == []


def test_d100_locations_a_jam_cleared_and_ammunition_recovered(table: Table) -> None:
    page = table.ready(scene="d100")
    dialog = open_attack_dialog(page, "Vex", chart="Heretic")
    # A single shot of 20 at BS 45 +10: a hit; the location die of 5 puts it in the head.
    hit = fire(page, dialog, "20 5")
    heretic = hit.locator("tr.volley-card__row", has_text="Heretic")
    assert heretic.locator(".volley-card__note").first.inner_text() == "hit: head"
    page.wait_for_function("document.querySelector('[data-volley=attack]')?.disabled === false")
    # 97 jams the autogun (reliability 0); its spoiled rounds wait for Recover ammunition.
    fire(page, dialog, "97")
    dialog.locator("[data-volley=unjam]").wait_for()
    cleared = fire(page, dialog, "10", "[data-volley=unjam]")
    assert (
        cleared.locator(".volley-card__extra--good")
        .inner_text()
        .startswith("Unjam: the Jam is cleared, the weapon fires again (rolled 10 against ")
    )
    dialog.locator("[data-volley=recover_ammo]").wait_for()
    failed = fire(page, dialog, "99", "[data-volley=recover_ammo]")
    assert failed.locator(".volley-card__title").inner_text() == "Vex: Recover ammunition (Autogun)"
    assert failed.locator(".volley-card__extra--bad").inner_text().startswith("Recover ammunition: failed, ")
    back = fire(page, dialog, "10", "[data-volley=recover_ammo]")
    assert back.locator(".volley-card__extra--good").inner_text().startswith("Recover ammunition: ")
    assert "back in the reserve" in back.locator(".volley-card__extra--good").inner_text()
    assert table.pages.errors == []


def test_an_undone_test_card_has_no_live_chip_or_line(table: Table) -> None:
    """The suppression test card of test_d100: +Suppressed and "Must spend its actions reaching cover"
    looked live after Undo."""
    page = table.ready(scene="d100")
    dialog = open_attack_dialog(page, "Vex")
    dialog.locator("details.volley-d100__morale summary").click()
    morale = dialog.locator("details.volley-d100__morale")
    card = fire(page, dialog, "99", "[data-volley=suppression_test]")
    assert card.locator(".volley-card__status--add").inner_text() == "+Suppressed"
    assert "Must spend its actions reaching cover" in card.locator(".volley-card__extras").inner_text()
    assert morale.is_visible()
    undo(card)
    seen = card.evaluate(STRUCK)
    texts = [item["text"] for item in seen]
    assert "+Suppressed" in texts and any(text.startswith("Must spend") for text in texts), texts
    assert all(item["struck"] for item in seen), seen
    assert not any(item["coloured"] for item in seen), seen
    assert table.pages.errors == []
