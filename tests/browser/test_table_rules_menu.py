"""Table rules end to end on ``volley sandbox``'s page: the referee sets a reading in the Table rules
menu, the odds preview and the card follow it, a bad value is refused beside its field before it is
saved, and a player can neither use the menu nor see its controls.

MegaTraveller: Kira Rhyne's autorifle (burst 4) at three Vargr, the burst split 3/1/0, so the scout is
designated but left without a bullet: Volley's reading counts it for the splitting DM (−3), the table
rule ``split_dm_counts: "receiving"`` does not (−1), and the raider's odds get better.
"""

from __future__ import annotations

from typing import Any

import pytest
from browserkit import (
    FIRE,
    Table,
    cards,
    fire_first,
    message_of,
    open_attack_dialog,
    player_view,
    wait_for_chart,
)

KIRA = "Kira Rhyne"
DIALOG = "Volley: Kira Rhyne fires"
OPEN_MENU = "new (game.settings.menus.get('volley.tableRules').type)().render(true)"
SETTING = "game.settings.get('volley', 'tableRules')"


def open_menu(page: Any, title: str = "Table rules") -> Any:
    page.evaluate(OPEN_MENU)
    menu = page.get_by_role("dialog", name=title)
    menu.wait_for()
    return menu


def odds_requests(sent: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [frame["request"] for frame in sent if frame.get("type") == "odds"]


def split_three_one_none(page: Any) -> tuple[Any, str]:
    """Kira's dialog on burst fire, the scout designated with no bullet; the raider's chart label."""
    open_attack_dialog(page, KIRA, FIRE)
    dialog = page.get_by_role("dialog", name=DIALOG)
    wait_for_chart(dialog, "Vargr raider")
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("burst")
    for name, bullets in (("Vargr raider", "3"), ("Vargr leader", "1"), ("Vargr scout", "0")):
        dialog.get_by_role("spinbutton", name=f"Bullets at {name}").fill(bullets)
    return dialog, settled_label(page)


def settled_label(page: Any, was: str = "") -> str:
    """The raider's chart label once the preview answers the form as it is now (and differs from ``was``)."""
    return str(
        page.wait_for_function(
            """([dialog, was]) => {
              const root = [...document.querySelectorAll('[role=dialog]')]
                .find(d => d.getAttribute('aria-label') === dialog);
              if (!root || root.querySelector('.volley-attack__preview--stale')) return false;
              const input = root.querySelector('input[name$=".bullets"]');
              const chart = [...root.querySelectorAll('.volley-chart[role=img]')]
                .find(c => c.getAttribute('aria-label').startsWith('Vargr raider:'));
              const label = chart?.getAttribute('aria-label');
              return input && label && label !== was ? label : false;
            }""",
            arg=[DIALOG, was],
        ).json_value()
    )


@pytest.mark.foundry(13, 14)
def test_a_reading_set_in_the_menu_changes_the_odds_and_the_card(table: Table) -> None:
    page, sent = table.watched(scene="megatraveller")
    menu = open_menu(page)
    legends = menu.locator("legend").all_inner_texts()
    assert legends == ["d100 (Dark Heresy family)", "GURPS 4e", "MegaTraveller"]
    split = menu.get_by_role("combobox", name="Whom the splitting DM counts", exact=True)
    assert split.locator("option").all_inner_texts() == [
        "every designated target (Volley's)",
        "only targets given a bullet",
    ]
    reading = menu.locator("[data-reading='megatraveller.split_dm_counts']")
    assert (
        "Volley: Every target designated, even one the split leaves without a bullet" in reading.inner_text()
    )
    assert "Otherwise: Only the targets the split gives at least one bullet." in reading.inner_text()
    table.shots.take(menu, "table-rules-menu-en")

    # A bad value is refused beside its field, and nothing is saved.
    margin = menu.get_by_role("spinbutton", name="Exceptional success margin", exact=True)
    margin.fill("99")
    menu.get_by_role("button", name="Save", exact=True).click()
    problem = menu.locator("[data-reading='megatraveller.exceptional_margin'] .volley-table-rules__problem")
    problem.wait_for()
    assert problem.inner_text() == "must be at most 30"
    # The notice names the field as the menu shows it, never the setting's path, and the field is marked.
    notice = menu.locator(".volley-table-rules__notice--error").inner_text()
    assert notice == "Not saved: MegaTraveller · Exceptional success margin: must be at most 30", notice
    assert margin.get_attribute("aria-invalid") == "true"
    assert margin.evaluate("(el) => document.activeElement === el")
    assert page.evaluate(SETTING) == {}
    # A band of d100's range modifiers: its own field is marked, the notice says which band.
    band = menu.get_by_role("spinbutton", name="Range modifiers: point blank", exact=True)
    band.fill("999")
    menu.get_by_role("button", name="Save", exact=True).click()
    menu.locator("[data-reading='d100.range_modifiers'] .volley-table-rules__problem").wait_for()
    notice = menu.locator(".volley-table-rules__notice--error").inner_text()
    assert notice.startswith("Not saved: d100 (Dark Heresy family) · Range modifiers: point blank: "), notice
    assert "range_modifiers" not in notice
    assert band.get_attribute("aria-invalid") == "true"
    short = menu.get_by_role("spinbutton", name="Range modifiers: short", exact=True)
    assert short.get_attribute("aria-invalid") is None
    band.fill("30")

    # Volley's odds first, with the scout designated and bulletless (-3).
    menu.get_by_role("spinbutton", name="Exceptional success margin", exact=True).fill("4")
    dialog, designated = split_three_one_none(page)
    assert "split_dm_counts" not in odds_requests(sent)[-1]
    assert "targets −3" in dialog.locator(".volley-mt__dms").inner_text()

    # The table's reading: only targets given a bullet count (-1). The open dialog asks again.
    menu = page.get_by_role("dialog", name="Table rules")
    menu.get_by_role("combobox", name="Whom the splitting DM counts", exact=True).select_option("receiving")
    # And a wider danger space: the module's own reading, which the card must list too.
    menu.get_by_role("spinbutton", name="Danger space width (squares)", exact=True).fill("3")
    menu.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_function(f"{SETTING}?.megatraveller?.split_dm_counts === 'receiving'")
    assert page.evaluate(SETTING) == {
        "megatraveller": {"split_dm_counts": "receiving", "danger_space_half_width": 3}
    }
    menu.locator(".volley-table-rules__notice").wait_for()
    assert menu.locator(".volley-table-rules__notice").inner_text().startswith("Table rules saved.")
    assert (
        menu.locator("[data-reading='megatraveller.split_dm_counts'] .volley-table-rules__changed").count()
        == 1
    )
    receiving = settled_label(page, designated)
    assert odds_requests(sent)[-1]["split_dm_counts"] == "receiving"
    # A burst has no danger space: the width travels only with automatic and controlled fire (#35).
    assert "module_readings" not in odds_requests(sent)[-1]
    assert odds_requests(sent)[-1]["allocation"] == [3, 1, 0]
    assert _chance_of_any_hit(receiving) > _chance_of_any_hit(designated), (designated, receiving)
    # The dialog's own DM line follows the table too: two targets given bullets, -1.
    page.wait_for_function("document.querySelector('.volley-mt__dms')?.textContent.includes('targets −1')")

    menu.get_by_role("button", name="Close").click()
    menu.wait_for(state="detached")

    # The card lists the changed readings that could change this burst, folded; unfolded it says what
    # the table plays. The danger space, which a burst does not have, is not listed (#35).
    flags = fire_first(page, dialog)
    card = cards(page).first
    note = card.locator(".volley-card__table-rules")
    assert note.locator("summary").inner_text() == "Table rules differ from Volley's readings (1)"
    note.locator("summary").click()
    assert note.locator("li").all_inner_texts() == [
        "Splitting DM counts only targets given a bullet (Volley: every target designated)",
    ]
    assert [m["key"] for m in flags["card"]["table_rules"]] == ["megatraveller.table_rule.split_dm_counts"]
    table.shots.take(message_of(card), "table-rules-card-en")
    # Automatic fire has a danger space and no split DM: the module's own reading is what its card lists.
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("auto")
    wait_for_chart(dialog, "Vargr raider")
    page.wait_for_function("document.querySelector('.volley-attack__button--primary')?.disabled === false")
    count = cards(page).count()
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {count}")
    keys = page.evaluate("game.messages.contents.at(-1).flags.volley.card.table_rules.map((m) => m.key)")
    assert keys == ["megatraveller.table_rule.danger_space_half_width"], keys

    # Reset to Volley's readings, saved: the setting is empty again.
    menu = open_menu(page)
    assert (
        menu.get_by_role("combobox", name="Whom the splitting DM counts", exact=True).input_value()
        == "receiving"
    )
    menu.get_by_role("button", name="Reset to Volley's readings", exact=True).click()
    menu.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_function(f"Object.keys({SETTING}).length === 0")
    assert table.pages.errors == []


def _chance_of_any_hit(label: str) -> float:
    """The chance of at least one hit from a chart's label ("Vargr raider: 0 hits 40%, 1 hit 35%...")."""
    parts = label.split(":", 1)[1].split(",")
    for part in parts:
        words = part.strip().split()
        if words and words[0] == "0":
            return 100.0 - float(words[-1].rstrip("%").replace("<", "").replace(">", ""))
    raise AssertionError(label)


def test_a_player_cannot_use_the_menu(table: Table) -> None:
    page = table.ready(scene="megatraveller")
    assert page.evaluate("game.settings.menus.get('volley.tableRules').restricted") is True
    player = player_view(page, KIRA)
    player.page.evaluate(OPEN_MENU)
    menu = player.frame.get_by_role("dialog", name="Table rules")
    menu.get_by_role("alert").wait_for()
    assert menu.get_by_role("alert").inner_text() == "Only a game master may change the table rules."
    assert menu.get_by_role("button", name="Save").count() == 0
    assert menu.get_by_role("combobox").count() == 0
    page.get_by_role("combobox", name="View").select_option("referee")
    assert page.evaluate(SETTING) == {}
    assert table.pages.errors == []


def test_the_menu_in_russian(table: Table) -> None:
    page = table.ready(scene="megatraveller", lang="ru")
    menu = open_menu(page, "Правила стола")
    assert menu.get_by_role("button", name="Вернуть прочтения Volley", exact=True).is_visible()
    split = menu.get_by_role("combobox", name="Кого считает МБ за разделение", exact=True)
    assert split.locator("option").all_inner_texts() == [
        "все назначенные цели (как у Volley)",
        "только цели с пулей",
    ]
    bands = menu.locator("[data-reading='d100.range_modifiers'] .volley-table-rules__bands").inner_text()
    assert "в упор" in bands and "предельная" in bands
    table.shots.take(menu, "table-rules-menu-ru")
    menu.get_by_role("button", name="Закрыть").click()
    menu.wait_for(state="detached")

    # Set by a macro, as the menu would: only targets given a bullet count, and a wider danger space.
    page.evaluate(
        "game.settings.set('volley', 'tableRules', "
        "{megatraveller: {split_dm_counts: 'receiving', danger_space_half_width: 3}})"
    )
    page.wait_for_function(f"{SETTING}?.megatraveller?.danger_space_half_width === 3")
    dialog = open_attack_dialog(page, KIRA, "Огонь", chart="Vargr raider")
    dialog.get_by_role("combobox", name="Режим", exact=True).select_option("burst")
    # The default split gives each of the three Vargr a bullet: the DM line counts all three (-3).
    page.wait_for_function(
        "document.querySelector('.volley-mt__dms')?.textContent.includes('число целей −3 = +1')"
    )
    table.shots.take(dialog, "table-rules-dialog-ru")
    fire_first(page, dialog, "Огонь")
    card = cards(page).first
    note = card.locator(".volley-card__table-rules")
    note.locator("summary").click()
    assert note.locator("li").all_inner_texts() == [
        "МБ за разделение считает только цели, получившие пулю (Volley: все назначенные цели)",
    ]
    table.shots.take(message_of(card), "table-rules-card-ru")
    assert table.pages.errors == []


def test_every_system_saves_through_the_bridge_and_its_refusal_stops_the_save(table: Table) -> None:
    page, sent = table.watched(scene="d100")
    menu = open_menu(page)
    menu.get_by_role("spinbutton", name="Range modifiers: long", exact=True).fill("-20")
    menu.get_by_role("checkbox", name="Overwatch ends at the shooter's next turn", exact=True).uncheck()
    menu.get_by_role("combobox", name="Dodging rapid fire", exact=True).select_option("rcl")
    menu.get_by_role("combobox", name="What Fast Draw may draw", exact=True).select_option("any")
    menu.get_by_role("spinbutton", name="Danger space width (squares)", exact=True).fill("2")
    menu.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_function(f"Object.keys({SETTING}).length === 3")
    assert page.evaluate(SETTING) == {
        "d100": {"range_modifiers": {"long": -20}, "overwatch_ends_on_turn": False},
        "gurps": {"dodge_step": "rcl"},
        "megatraveller": {"fast_draw_weapons": "any", "danger_space_half_width": 2},
    }
    # Each system's values went to the bridge in a preview of an action that carries them before they
    # were saved (the danger space, the module's own, as a firing request's module_readings).
    probes = [request for request in odds_requests(sent) if request["attacker"]["id"] == "probe"]
    assert {(p["system"], p.get("action")) for p in probes} == {
        ("d100", "attack"),
        ("gurps", "attack"),
        ("megatraveller", "fire"),
        ("megatraveller", "fast_draw"),
    }
    fire = next(p for p in probes if p.get("action") == "fire")
    assert fire["module_readings"] == {"danger_space_half_width": 2}
    assert next(p for p in probes if p["system"] == "gurps")["dodge_step"] == "rcl"
    assert page.evaluate("game.settings.get('volley', 'overwatchEndsOnTurn')") is True

    # A limit only the rules engine holds: loosen the module's copy of the declaration, and the
    # bridge's refusal is what stops the save, beside its field.
    page.evaluate(
        """async () => {
          const { READINGS } = await import('/modules/volley/scripts/table-rules/readings.js');
          READINGS.megatraveller.find((r) => r.field === 'exceptional_margin').maximum = 99;
        }"""
    )
    menu.get_by_role("spinbutton", name="Exceptional success margin", exact=True).fill("50")
    menu.get_by_role("button", name="Save", exact=True).click()
    problem = menu.locator("[data-reading='megatraveller.exceptional_margin'] .volley-table-rules__problem")
    problem.wait_for()
    assert "30" in problem.inner_text(), problem.inner_text()
    problem.scroll_into_view_if_needed()
    table.shots.take(menu, "table-rules-menu-refused-en")
    assert odds_requests(sent)[-1]["exceptional_margin"] == 50
    assert "exceptional_margin" not in page.evaluate(SETTING)["megatraveller"]

    # A macro's misspelt field is said to the referee at once, and every request of that system is
    # refused naming it, rather than sent without the table's rules.
    page.evaluate("game.settings.set('volley', 'tableRules', {megatraveller: {split_dm_count: 'receiving'}})")
    page.wait_for_function(
        "sandbox.notifications.some(n => n.level === 'error' && n.text.includes("
        "'tableRules.megatraveller.split_dm_count: no table rule is called split_dm_count'))"
    )
    assert table.pages.errors == []


ENDS_ON_TURN = (
    "(async () => (await import('/modules/volley/scripts/foundry/settings.js')).overwatchEndsOnTurn())()"
)


def test_the_old_overwatch_setting_moves_into_the_table_rules(table: Table) -> None:
    """A table that had turned "Overwatch ends at the shooter's next turn" off keeps it off: read from
    the old setting until the game master's browser moves it, then from the table rule alone."""
    page = table.ready(scene="d100")
    assert page.evaluate(ENDS_ON_TURN) is True
    page.evaluate("game.settings.set('volley', 'overwatchEndsOnTurn', false)")
    assert page.evaluate(ENDS_ON_TURN) is False
    page.evaluate(
        """async () => {
          const tableRules = await import('/modules/volley/scripts/foundry/table-rules.js');
          await tableRules.migrateOldSettings(game.settings.get('volley', 'overwatchEndsOnTurn'));
        }"""
    )
    assert page.evaluate(SETTING) == {"d100": {"overwatch_ends_on_turn": False}}
    assert page.evaluate("game.settings.get('volley', 'overwatchEndsOnTurn')") is True
    assert page.evaluate(ENDS_ON_TURN) is False
    menu = open_menu(page)
    checkbox = menu.get_by_role("checkbox", name="Overwatch ends at the shooter's next turn", exact=True)
    assert not checkbox.is_checked()
    # Reset and save: the order ends at the shooter's turn again, and nothing brings the old value back.
    menu.get_by_role("button", name="Reset to Volley's readings", exact=True).click()
    menu.get_by_role("button", name="Save", exact=True).click()
    page.wait_for_function(f"Object.keys({SETTING}).length === 0")
    assert page.evaluate(ENDS_ON_TURN) is True
    assert table.pages.errors == []
