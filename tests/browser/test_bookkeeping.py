"""Every round counted once (issue #31), end to end on ``volley sandbox``'s page: what a dialog or a
macro lets a user send is what the rules accept, an empty required field is refused by its label and
never defaulted, a two-step MegaTraveller attack holds its weapon until it is allocated or cancelled,
the state Volley keeps is the referee's, and a key whose updates were applied changes nothing again.
"""

from __future__ import annotations

from typing import Any

from browserkit import FIRE, Table, cards, open_attack_dialog, settle
from test_d100 import CULTIST, DICE, HERETIC, SHOOTER, VEX, pick_sector, rows, statuses
from test_module_api import api_call, resolved_count

HALE_MP5 = "canvas.scene.tokens.get('tokHale000000001').actor.flags.volley.profile.weapons[0]"
AUTOGUN = f"{VEX}.actor.flags.volley.profile.weapons[0]"
#: The d100 dialog's label on its Facing field.
FACING = "Facing (°, 0 = east, clockwise)"


def footer(dialog: Any) -> str:
    return str(dialog.locator(".volley-attack__notice").inner_text()).strip()


def test_overwatch_single_shots_at_two_tokens_are_fired(table: Table) -> None:
    """Item 2: the ordinary trigger, two cultists in the sector and the order's single shot. The dialog
    sent a secondary's distance to a primary for every token after the first, which the rules refuse
    outside a burst ("to_primary ... does not apply here"); now each token gets its one shot."""
    page = table.ready(scene="d100")
    dialog = open_attack_dialog(page, SHOOTER)
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("overwatch")
    pick_sector(page, dialog)
    dialog.get_by_role("combobox", name="Fire with").select_option("single")
    dialog.get_by_role("textbox", name="Trigger").fill("anyone crosses the bridge")
    dialog.get_by_role("button", name="Set overwatch").click()
    page.wait_for_function(f"{VEX}.actor.statuses.has('overwatch')")
    page.wait_for_function("document.querySelector('.volley-d100__waiting') !== null")
    dialog.get_by_role("button", name="The trigger is met…").click()
    page.wait_for_function("document.querySelectorAll('tr.volley-d100__target').length === 2")
    assert rows(dialog) == ["Cultist", "Heretic"]
    # One shot each: 30 hits the Cultist (location 40), who tests at +20 and fails on 70; 80 misses the
    # Heretic, who tests too and passes on 10.
    page.get_by_label(DICE).fill("30 40 70 80 10")
    before = cards(page).count()
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(f"document.querySelectorAll('.volley-card').length > {before}")
    card = cards(page).last
    assert card.locator(".volley-card__title").inner_text() == "Vex: Overwatch fire (Autogun)"
    assert footer(dialog) == "Done: see the card in the chat.", footer(dialog)
    page.wait_for_function(f"{AUTOGUN}.state.loaded === 28")
    assert "suppressed" in statuses(page, CULTIST)
    assert statuses(page, HERETIC) == []
    assert table.pages.errors == []


def test_an_empty_facing_is_refused_by_its_label_never_taken_for_zero(table: Table) -> None:
    """Item 3: an overwatch order set with no Facing claimed "Facing: 0°"; suppressing fire with none
    fired at the user's targets with no sector. Both are refused before anything is sent, naming the
    field as the dialog labels it."""
    page, sent = table.watched(scene="d100")
    dialog = open_attack_dialog(page, SHOOTER)
    mode = dialog.get_by_role("combobox", name="Mode", exact=True)
    mode.select_option("overwatch")
    assert dialog.get_by_role("spinbutton", name="Facing").input_value() == ""
    dialog.get_by_role("textbox", name="Trigger").fill("anyone crosses the bridge")
    before = len(sent)
    dialog.get_by_role("button", name="Set overwatch").click()
    page.wait_for_function("document.querySelector('.volley-attack__notice')?.textContent.includes('Facing')")
    assert footer(dialog) == f"{FACING}: required", footer(dialog)
    for name in ("suppressing_semi", "suppressing_full"):
        if mode.locator(f"option[value={name}]").count():
            mode.select_option(name)
            break
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    page.wait_for_function(
        f"document.querySelector('.volley-attack__notice')?.textContent === '{FACING}: required'"
        " && !document.querySelector('.volley-attack__button--primary')?.disabled"
    )
    settle(page)
    assert [frame for frame in sent[before:] if frame.get("type") in ("attack", "action")] == []
    assert page.evaluate(f"{VEX}.actor.flags.volley.state?.overwatch ?? null") is None
    assert cards(page).count() == 0
    # The macro API goes through the same form: refused alike.
    order = "{mode: 'overwatch', action: 'overwatch', fields: {trigger: 'x'}}"
    out = api_call(page, f"return await api.fire('tokVex0000000001', {order});")
    assert out["ok"] is False and out["error"] == f"{FACING}: required", out
    assert table.pages.errors == []


def test_the_macro_api_refuses_a_modifier_that_is_not_a_number(table: Table) -> None:
    """Item 4: ``api.fire(token, {modifier: "abc"})`` and ``fields: {"targets.0.modifier": "abc"}`` fired
    13 rounds at modifier 0 (a number field takes "abc" as empty); the API's own promise is that a
    refused call rolls and spends nothing."""
    page, sent = table.watched()
    resolved = resolved_count(table)
    loaded = page.evaluate(f"{HALE_MP5}.state.loaded")
    for options, label in (
        ("{modifier: 'abc'}", "Skill modifier (Aim, shock…)"),
        ("{fields: {'targets.0.modifier': 'abc'}}", "Modifier against Raider"),
    ):
        out = api_call(page, f"return await api.fire('tokHale000000001', {options});")
        assert out["ok"] is False and out["code"] == "bad_option", out
        assert out["error"] == f"{label}: not a whole number: abc", out
    assert [frame for frame in sent if frame.get("type") in ("attack", "action")] == []
    assert resolved_count(table) == resolved
    assert page.evaluate(f"{HALE_MP5}.state.loaded") == loaded
    assert cards(page).count() == 0
    assert table.pages.errors == []
