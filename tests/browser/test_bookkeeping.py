"""Every round counted once (issue #31), end to end on ``volley sandbox``'s page: what a dialog or a
macro lets a user send is what the rules accept, an empty required field is refused by its label and
never defaulted, a two-step MegaTraveller attack holds its weapon until it is allocated or cancelled,
the state Volley keeps is the referee's, and a key whose updates were applied changes nothing again.
"""

from __future__ import annotations

from typing import Any

from browserkit import FIRE, Table, cards, notice_reads, notice_text, open_attack_dialog, player_view, settle
from test_d100 import CULTIST, DICE, HERETIC, SHOOTER, VEX, pick_sector, rows, statuses
from test_module_api import api_call, resolved_count

HALE_MP5 = "canvas.scene.tokens.get('tokHale000000001').actor.flags.volley.profile.weapons[0]"
AUTOGUN = f"{VEX}.actor.flags.volley.profile.weapons[0]"
#: The d100 dialog's label on its Facing field.
FACING = "Facing (°, 0 = east, clockwise)"


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
    assert notice_reads(dialog, "Done: see the card in the chat.") == "Done: see the card in the chat."
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
    assert notice_text(dialog) == f"{FACING}: required", notice_text(dialog)
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


KIRA = "Kira Rhyne"
KIRA_TOKEN = "canvas.scene.tokens.get('tokKira000000001')"
AUTORIFLE = f"{KIRA_TOKEN}.actor.flags.volley.profile.weapons[0]"
#: Kira's autorifle opens on automatic fire; the pool (book dice) is 3D rounds capped at the 20 loaded.
POOL_DICE = "1 1 1 5 3 6 6 1"
HELD = (
    "Autorifle waits for the allocation of its attack (Allocate on its card, or cancel it):"
    " nothing else fires or handles it meanwhile"
)


def test_a_pending_attack_holds_its_magazine_until_it_is_cancelled(table: Table) -> None:
    """Item 1: while the first automatic-fire attack waited for its split, Fire stayed enabled: a second
    Fire made a second pending attack from the same 20 rounds, a single shot spent 21 of 20 and flipped
    the selector back, ``api.fire`` resolved another 20; the pending card had no Cancel. Now the attack
    holds the weapon: every firing and handling action of it refuses and says why (the dialog, the API,
    the referee's browser), the card offers Cancel, which is journalled and spends nothing."""
    page, sent = table.watched(scene="megatraveller")
    dialog = open_attack_dialog(page, KIRA)
    dialog.get_by_role("combobox", name="Split", exact=True).select_option("defer")
    page.get_by_label(DICE).fill(POOL_DICE)
    dialog.get_by_role("button", name=FIRE, exact=True).click()
    step = page.get_by_role("dialog", name="Volley: Kira Rhyne splits the fire")
    step.wait_for()
    pending_id = page.evaluate("game.messages.contents.at(-1).flags.volley.requestId")
    page.wait_for_function(
        f"{KIRA_TOKEN}.actor.flags.volley.state?.pending?.[{AUTORIFLE}.id]?.key === '{pending_id}'"
    )
    step.locator(".sandbox-close").click()

    # The dialog: Fire and every handling action of the autorifle are disabled, saying why.
    fire = dialog.get_by_role("button", name=FIRE, exact=True)
    page.wait_for_function(
        "(held) => { const b = document.querySelector('.volley-attack__button--primary');"
        " return b?.disabled && b.title === held; }",
        arg=HELD,
    )
    assert fire.is_disabled()
    states = page.evaluate(
        "() => [...document.querySelectorAll('.volley-mt-dialog .volley-attack__buttons button')]"
        ".map((b) => [b.dataset.volley, b.disabled, b.title])"
    )
    assert [action for action, _, _ in states][-1] == "cancel_pending", states
    assert all(disabled and title == HELD for action, disabled, title in states[:-1]), states
    assert len(states) >= 3, "Fire, Reload and Cancel at least"
    dialog.get_by_role("combobox", name="Mode", exact=True).select_option("single")
    assert fire.is_disabled(), "a single shot would spend the 21st of 20 rounds"
    # The macro API, and a relayed choice from a hand-edited client, are refused the same way.
    before = len(sent)
    out = api_call(page, "return await api.fire('tokKira000000001', {mode: 'single'});")
    assert out["ok"] is False and out["code"] == "blocked" and out["error"] == HELD, out
    forged = page.evaluate(
        """async (weapon) => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'attack', id: 'volley-forged-1', choice: {system: 'megatraveller',
          token: 'tokKira000000001', weapon, action: 'attack', mode: 'single', how: 'fire',
          targets: [{id: 'tokVargr00000002'}]}})""",
        page.evaluate(f"{AUTORIFLE}.id"),
    )
    assert forged["type"] == "error" and forged["key"] == "VOLLEY.Form.Held", forged
    assert "Autorifle waits for the allocation of its pending attack" in forged["message"], forged
    assert [f for f in sent[before:] if f.get("type") in ("attack", "action")] == []
    assert page.evaluate(f"{AUTORIFLE}.state.loaded") == 20

    # The pending card: Allocate and Cancel, no Undo. Cancel spends nothing and frees the weapon.
    card = cards(page).first
    assert card.get_by_role("button", name="Undo").count() == 0
    card.get_by_role("button", name="Cancel").click()
    card.locator(".volley-card__settled").wait_for()
    assert card.locator(".volley-card__settled").inner_text() == "Cancelled by Referee: nothing was spent."
    assert card.get_by_role("button", name="Allocate").count() == 0
    assert card.get_by_role("button", name="Cancel").count() == 0
    cancel = next(f for f in sent if f.get("type") == "cancel")
    assert cancel["pending_id"] == pending_id
    page.wait_for_function(f"!{KIRA_TOKEN}.actor.flags.volley.state?.pending?.[{AUTORIFLE}.id]")
    assert page.evaluate(f"{AUTORIFLE}.state.loaded") == 20
    assert page.evaluate(f"{AUTORIFLE}.state.selector") == "auto", "the selector the attack held is untouched"
    page.wait_for_function("!document.querySelector('.volley-attack__button--primary')?.disabled")

    # The cancelled attack can no longer be allocated; a shot now spends one round.
    again = page.evaluate(
        """async (choice) => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'allocate', id: 'volley-late-1', choice})""",
        {
            **page.evaluate("game.messages.contents.at(0).flags.volley.choice"),
            "pending_id": pending_id,
            "allocation": [[0, 1, 2, 3], [], []],
        },
    )
    assert again["code"] == "already_allocated", again
    page.get_by_label(DICE).fill("6 6")
    fire.click()
    page.wait_for_function(f"{AUTORIFLE}.state.loaded === 19")
    assert table.pages.errors == []


HALE = "canvas.scene.tokens.get('tokHale000000001')"
PLAYER_API = "game.modules.get('volley').api"


def player_fire(view: Any, script: str) -> Any:
    """Run a macro in the player's view (its page), as ``api_call`` does on the referee's."""
    return view.page.evaluate(
        f"""async () => {{
          const api = {PLAYER_API};
          try {{ return {{ ok: true, value: await (async () => {{ {script} }})() }}; }}
          catch (error) {{
            return {{ ok: false, error: String(error?.message ?? error), code: error?.code ?? null }};
          }}
        }}"""
    )


def test_a_deleted_card_never_lets_its_request_apply_again(table: Table) -> None:
    """Item 8: the card was the table's only record that a key's updates were applied. After the referee
    cleared the chat log, a player who sent an old request id again got the journalled reply and its
    absolute updates re-applied (rounds back up, with the referee's rights). The record is now the
    bridge's journal: the repeat changes nothing and posts no card."""
    page, sent = table.watched()
    view = player_view(page)
    first = player_fire(
        view, "const r = await api.fire('tokHale000000001', {shots: 3}); return {id: r.id, choice: r.choice};"
    )
    assert first["ok"], first
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 27")
    second = player_fire(view, "return (await api.fire('tokHale000000001', {shots: 5})).id;")
    assert second["ok"], second
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 22")
    marks = [f["target_id"] for f in sent if f.get("type") == "applied"]
    assert len(marks) == 2 and marks[0].endswith(first["value"]["id"]), "each key marked applied once"
    # The referee clears the chat log.
    page.evaluate("Promise.all(game.messages.contents.map((m) => m.delete()))")
    page.wait_for_function("game.messages.contents.length === 0")
    # The player sends the first request again, under its own id.
    again = view.page.evaluate(
        """async ({id, choice}) => (await import('/modules/volley/scripts/foundry/bridge.js')).sendRelayed({
          type: 'attack', id, choice})""",
        first["value"],
    )
    assert again["type"] == "result" and again["applied_before"] is True, again
    settle(page)
    assert page.evaluate(f"{HALE_MP5}.state.loaded") == 22, "the rounds do not come back"
    assert page.evaluate("game.messages.contents.length") == 0, "no card comes back either"
    resent = [f for f in sent if f.get("type") == "attack" and f["id"].endswith(first["value"]["id"])]
    assert len(resent) == 2, "the referee's browser asked the bridge again, under the same key"
    assert len([f for f in sent if f.get("type") == "applied"]) == 2, "and marked nothing: it was applied"
    assert table.pages.errors == []


def test_a_players_console_write_to_volleys_flags_is_put_back_and_told(table: Table) -> None:
    """Item 7: at a real table a token's owner may update any of its actor's flags from the console,
    whatever "Players edit Volley profiles" says. The referee's browser puts back what the player may
    not change, and tells the game masters once, by name. Where the table lets players edit profiles,
    the change stands, and the weapon's next card says what changed outside Volley since its last card
    (and its applied mark carries it to the journal)."""
    page, sent = table.watched()
    view = player_view(page)
    # Console writes: refill the MP5 and raise its skill, and drop the referee's target lock.
    refill = view.page.evaluate(
        """async () => {
          const actor = canvas.scene.tokens.get('tokHale000000001').actor;
          const weapons = structuredClone(actor.flags.volley.profile.weapons);
          weapons[0].state.loaded = 3; weapons[0].skill = 20;
          await actor.setFlag('volley', 'profile.weapons', weapons);
          await actor.setFlag('volley', 'state', {target: 'tokRaider0000002'});
          return actor.flags.volley.profile.weapons[0].state.loaded;
        }"""
    )
    assert refill == 3, "Foundry lets the owner write its actor's flags"
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 30 && {HALE_MP5}.skill !== 20")
    page.wait_for_function(f"({HALE}.actor.flags.volley.state?.target ?? null) === null")
    view.page.wait_for_function(f"{HALE_MP5}.state.loaded === 30")
    notices = page.get_by_role("log").locator(".volley-books-notice")
    page.wait_for_function("document.querySelectorAll('.volley-books-notice').length === 2")
    assert notices.all_inner_texts() == [
        "Player changed Sgt. Hale outside Volley: MP5: rounds 30 → 3; MP5: skill 14 → 20. Put back.",
        "Player changed Sgt. Hale outside Volley: target lock — → Raider. Put back.",
    ]
    assert view.frame.locator(".volley-books-notice").count() == 0, "told to the game masters only"
    settle(page)
    assert notices.count() == 2, "each write told once"

    # With "Players edit Volley profiles" on, the player's change stands and the next card says it.
    page.evaluate("game.settings.set('volley', 'playersEditProfiles', true)")
    view.page.evaluate(
        """async () => {
          const actor = canvas.scene.tokens.get('tokHale000000001').actor;
          const weapons = structuredClone(actor.flags.volley.profile.weapons);
          weapons[0].state.loaded = 12;
          await actor.setFlag('volley', 'profile.weapons', weapons);
        }"""
    )
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 12")
    settle(page)
    assert page.evaluate(f"{HALE_MP5}.state.loaded") == 12, "allowed: it stands"
    # Volley has no books of the MP5 before its first card: fire once, change it, fire again.
    first = api_call(page, "return (await api.fire('tokHale000000001', {shots: 2})).id;")
    assert first["ok"], first
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 10")
    view.page.evaluate(
        """async () => {
          const actor = canvas.scene.tokens.get('tokHale000000001').actor;
          const weapons = structuredClone(actor.flags.volley.profile.weapons);
          weapons[0].state.loaded = 25;
          await actor.setFlag('volley', 'profile.weapons', weapons);
        }"""
    )
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 25")
    second = api_call(page, "return (await api.fire('tokHale000000001', {shots: 2})).id;")
    assert second["ok"], second
    page.wait_for_function(f"{HALE_MP5}.state.loaded === 23")
    card = cards(page).last
    extras = card.locator(".volley-card__extras").inner_text()
    assert "Changed outside Volley: rounds 10 → 25 (Player)" in extras, extras
    mark = [f for f in sent if f.get("type") == "applied"][-1]
    (change,) = mark["outside"]
    assert (change["field"], change["from"], change["to"], change["by_name"], change["kept"]) == (
        "loaded",
        10,
        25,
        "Player",
        True,
    ), change
    assert change["weapon_name"] == "MP5" and change["token_name"] == "Sgt. Hale"
    assert table.pages.errors == []


AUTOPISTOL = f"{KIRA_TOKEN}.actor.flags.volley.profile.weapons.find((w) => w.id === 'wAutopist1')"
UNDO_CHANGED = "Card: Autopistol was changed outside Volley since this card: Undo would overwrite that change"


def kira_fire(page: Any, options: dict[str, Any]) -> str:
    """Fire Kira's autopistol through the macro API; the id of its card once its updates are applied."""
    out = api_call(
        page, f"return (await api.fire('tokKira000000001', {{weapon: 'wAutopist1', ...{options!r}}})).id;"
    )
    assert out["ok"], out
    found = (
        "(id) => game.messages.contents.find((m) => m.flags.volley?.requestId?.endsWith(id)"
        " && m.flags.volley?.applied)?.id ?? null"
    )
    page.wait_for_function(found, arg=out["value"])
    return str(page.evaluate(found, out["value"]))


def referee_sets_rounds(page: Any, rounds: int) -> None:
    """A referee's console write to the autopistol's rounds: it stands."""
    page.evaluate(
        """async (rounds) => {
          const actor = canvas.scene.tokens.get('tokKira000000001').actor;
          const weapons = structuredClone(actor.flags.volley.profile.weapons);
          weapons.find((w) => w.id === 'wAutopist1').state.loaded = rounds;
          await actor.setFlag('volley', 'profile.weapons', weapons);
        }""",
        rounds,
    )


def test_undo_never_overwrites_a_change_said_on_a_later_card(table: Table) -> None:
    """The bookkeeping soak (megatraveller, seed 2): a shot took the autopistol from 5 to 4, the referee
    set it to 3 from the console, and a two-step attack's pending card said so (4 → 3) and took the
    change into the books, still naming the shot as the card whose values the weapon held. Undo of the
    shot then passed its check and put back 5: the reported -1 was lost (a round counted twice). The
    same through an undone later card: its Undo handed the weapon back to the shot's card. Now a change
    said on a card marks the books, and the older card's Undo is refused, naming the change."""
    page, _sent = table.watched(scene="megatraveller")
    start = int(page.evaluate(f"{AUTOPISTOL}.state.loaded"))

    # A shot, a console write, a two-step attack whose pending card says the write.
    shot = kira_fire(page, {"mode": "single"})
    page.wait_for_function(f"{AUTOPISTOL}.state.loaded === {start - 1}")
    referee_sets_rounds(page, start - 2)
    out = api_call(
        page,
        "return (await api.fire('tokKira000000001', {weapon: 'wAutopist1', mode: 'rapid',"
        " fields: {allocation: 'defer'}})).type;",
    )
    assert out["ok"], out
    page.wait_for_function(
        "game.messages.contents.some((m) => m.flags.volley?.pending && m.flags.volley?.applied)"
    )
    # The allocation step opens by itself for the one who fired: closed, the attack waits on its card.
    page.evaluate(
        "for (const b of document.querySelectorAll('.volley-mt-allocation .sandbox-close')) b.click()"
    )
    undo = api_call(page, f"return (await api.undo('{shot}')).type;")
    assert undo["ok"] is False and undo["error"] == UNDO_CHANGED, undo
    assert page.evaluate(f"{AUTOPISTOL}.state.loaded") == start - 2
    # Cancelled, the attack spent nothing; the shot's Undo is still refused.
    pending = page.evaluate("game.messages.contents.find((m) => m.flags.volley?.pending)?.id")
    page.locator(f'[data-message-id="{pending}"]').get_by_role("button", name="Cancel").click()
    page.wait_for_function("(id) => game.messages.get(id)?.flags.volley?.settled", arg=pending)
    undo = api_call(page, f"return (await api.undo('{shot}')).type;")
    assert undo["ok"] is False and undo["error"] == UNDO_CHANGED, undo
    assert page.evaluate(f"{AUTOPISTOL}.state.loaded") == start - 2

    # A card that says a change and is undone hands the weapon back with the change in it: the card
    # before stays where it is.
    first = kira_fire(page, {"mode": "single"})
    page.wait_for_function(f"{AUTOPISTOL}.state.loaded === {start - 3}")
    referee_sets_rounds(page, start - 5)
    second = kira_fire(page, {"mode": "single"})
    page.wait_for_function(f"{AUTOPISTOL}.state.loaded === {start - 6}")
    undo = api_call(page, f"return (await api.undo('{second}')).type;")
    assert undo["ok"], undo
    page.wait_for_function(f"{AUTOPISTOL}.state.loaded === {start - 5}")
    undo = api_call(page, f"return (await api.undo('{first}')).type;")
    assert undo["ok"] is False and undo["error"] == UNDO_CHANGED, undo
    assert page.evaluate(f"{AUTOPISTOL}.state.loaded") == start - 5
    assert table.pages.errors == []
